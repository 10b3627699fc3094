import type { ChainChat, ChainLink, ChainMessage } from "@contract/chains";
import { Form, Link } from "@remix-run/react";
import { VERSIONS } from "~/workflows/versions/texts";
import { FieldErrors } from "~/ui/fields";
import { RunLinkButton } from "./run/RunBar";
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

/**
 * The Dialog tab, read-only: the options row, each link as an expandable item, the chat. `runLinks` on the chain page
 * (whose run form RunBar renders): each link's execute button.
 */
export function ChainDialog({
  links,
  chat,
  options,
  runLinks = false,
}: {
  links: readonly ChainLink[];
  chat: ChainChat | null;
  options: { insertIn: string; insertAt: string };
  runLinks?: boolean;
}) {
  return (
    <>
      <p className="chain-options">
        {T.options}: <strong>{options.insertIn || T.none}</strong> {T.at} <strong>{options.insertAt || T.none}</strong>
      </p>
      {links.length === 0 ? <p className="muted">{T.noLinks}</p> : null}
      <ol className="chain-links">
        {links.map((link, i) => (
          <li key={link.id}>
            <details>
              <summary>
                {link.name} <span className="badge">{link.type}</span>
              </summary>
              <LinkBody link={link} />
            </details>
            {runLinks ? (
              <div className="chain-link-actions">
                <RunLinkButton index={i} name={link.name} />
              </div>
            ) : null}
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

/** One line of the History tab: the versions kit's history entry (chains.server `chainHistory`). */
type HistoryLine = { key: string; label: string; status: string; date: string; author: string; message: string; href: string };

/**
 * The History tab (spec 3 §3 history entry): the draft, then the versions newest first, each leading to its view. A
 * prompts.write holder edits each version's comment in place (spec 3 §6): a form per version, without JavaScript.
 */
export function ChainHistory({
  history,
  write,
  refused,
}: {
  history: readonly HistoryLine[];
  write: boolean;
  refused: { version: number; comment: string; message: string } | null;
}) {
  const H = T.historyColumns;
  if (!history.length) return <p className="muted">{T.noHistory}</p>;
  // A refusal for a version no line shows (deleted meanwhile) is said above the table.
  const orphan = refused && !history.some((e) => e.key === String(refused.version)) ? refused.message : null;
  return (
    <>
      {orphan ? (
        <p className="form-error" role="alert">
          {orphan}
        </p>
      ) : null}
      <table className="data-table">
        <caption className="visually-hidden">{T.tabs.history}</caption>
        <thead>
          <tr>
            <th scope="col">{H.version}</th>
            <th scope="col">{H.status}</th>
            <th scope="col">{H.date}</th>
            <th scope="col">{H.author}</th>
            <th scope="col">{H.comment}</th>
          </tr>
        </thead>
        <tbody>
          {history.map((e) => {
            const version = e.key === "draft" ? 0 : Number(e.key);
            const mine = refused && refused.version === version ? refused : null;
            const id = `comment-${e.key}`;
            return (
              <tr key={e.key}>
                <td>
                  <Link to={e.href}>{e.label}</Link>
                </td>
                <td>{e.status}</td>
                <td>{e.date}</td>
                <td>{e.author}</td>
                <td>
                  {write && version ? (
                    <Form method="post" className="inline-form" preventScrollReset>
                      <input type="hidden" name="intent" value="comment" />
                      <input type="hidden" name="version" value={version} />
                      <label htmlFor={id} className="visually-hidden">
                        {T.commentOf(e.label)}
                      </label>
                      <input
                        id={id}
                        name="comment"
                        defaultValue={mine ? mine.comment : e.message === VERSIONS.noMessage ? "" : e.message}
                        placeholder={VERSIONS.noMessage}
                        {...(mine ? { "aria-invalid": true, "aria-describedby": `${id}-errors` } : {})}
                      />{" "}
                      <button type="submit" className="btn btn-secondary">
                        {T.saveComment}
                      </button>
                      <FieldErrors id={`${id}-errors`} errors={mine ? [mine.message] : undefined} />
                    </Form>
                  ) : (
                    e.message
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}
