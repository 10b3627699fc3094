import type { ChainChat, ChainLink, ChainMessage } from "@contract/chains";
import { CHAINS } from "./texts";

const T = CHAINS.page;

function Messages({ messages }: { messages: readonly ChainMessage[] }) {
  return (
    <ol className="chain-messages">
      {messages.map((m, i) => (
        <li key={i}>
          <strong>{m.role}</strong>
          <pre className="code">{m.content}</pre>
        </li>
      ))}
    </ol>
  );
}

function Model({ model }: { model: string | null }) {
  return (
    <>
      <dt>{T.model}</dt>
      <dd>{model ?? T.defaultModel}</dd>
    </>
  );
}

/** What one link holds, read-only (spec 3 §3 link types). */
export function LinkBody({ link }: { link: ChainLink | ChainChat }) {
  switch (link.type) {
    case "prompt":
    case "chat":
      return (
        <>
          <dl className="chain-fields">
            <Model model={link.model} />
            <dt>{T.temperature}</dt>
            <dd>{link.temperature}</dd>
            <dt>{T.maxTokens}</dt>
            <dd>{link.max_tokens ?? "—"}</dd>
            {link.type === "chat" ? (
              <>
                <dt>{T.includeHistory}</dt>
                <dd>{link.includeHistory ? CHAINS.yes : CHAINS.no}</dd>
              </>
            ) : null}
          </dl>
          <h4>{T.messages}</h4>
          <Messages messages={link.messages} />
        </>
      );
    case "query":
      return (
        <>
          <h4>{T.query}</h4>
          <pre className="code">{link.query}</pre>
        </>
      );
    case "template":
      return (
        <>
          <dl className="chain-fields">
            <dt>{T.renderOnly}</dt>
            <dd>{link.renderOnly ? CHAINS.yes : CHAINS.no}</dd>
          </dl>
          <h4>{T.template}</h4>
          <pre className="code">{link.template}</pre>
        </>
      );
    case "form":
      return (
        <>
          <h4>{T.variables}</h4>
          <ul>
            {link.variables.map((v) => (
              <li key={v.name}>
                <code>{v.name}</code> ({v.type}){v.label ? ` — ${v.label}` : ""}
              </li>
            ))}
          </ul>
        </>
      );
    case "content":
      return (
        <>
          <dl className="chain-fields">
            <dt>{T.source}</dt>
            <dd>{link.source.type}</dd>
          </dl>
          {link.source.type === "file" ? (
            <ul>
              {link.source.value.map((f) => (
                <li key={f.name}>{f.name}</li>
              ))}
            </ul>
          ) : link.source.type === "mermaid" ? (
            <pre className="code">{link.source.value}</pre>
          ) : (
            <>
              <dl className="chain-fields">
                <Model model={link.source.value.model} />
              </dl>
              <pre className="code">{link.source.value.template}</pre>
            </>
          )}
        </>
      );
  }
}

/** The Dialog tab, read-only: the options row, each link as an expandable item, the chat. */
export function ChainDialog({
  links,
  chat,
  options,
}: {
  links: readonly ChainLink[];
  chat: ChainChat | null;
  options: { insertIn: string; insertAt: string };
}) {
  return (
    <>
      <p className="chain-options">
        {T.options}: <strong>{options.insertIn || T.none}</strong> {T.at} <strong>{options.insertAt || T.none}</strong>
      </p>
      {links.length === 0 ? <p className="muted">{T.noLinks}</p> : null}
      <ol className="chain-links">
        {links.map((link) => (
          <li key={link.id}>
            <details>
              <summary>
                {link.name} <span className="badge">{link.type}</span>
              </summary>
              <LinkBody link={link} />
            </details>
          </li>
        ))}
      </ol>
      {chat ? (
        <details className="chain-chat">
          <summary>
            {chat.name} <span className="badge">{T.chat}</span>
          </summary>
          <LinkBody link={chat} />
        </details>
      ) : null}
    </>
  );
}
