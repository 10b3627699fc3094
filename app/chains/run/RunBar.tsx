import { Form } from "@remix-run/react";
import type { ChainTemplate } from "@contract/chains";
import { RUN_LIMITS } from "@contract/chain-runs";
import { RUNS } from "./texts";

/**
 * Run on the chain page (spec 3 §2.9 toolbar and each link's execute button), and the chat's message box: each posts to
 * /chains/{id}/runs, which starts the run and lands on its page (the output pane), with or without JavaScript.
 */
export function RunBar({ chainId, template }: { chainId: string; template: Pick<ChainTemplate, "chain" | "chat"> }) {
  const action = `/chains/${encodeURIComponent(chainId)}/runs`;
  return (
    <>
      {template.chain.length ? (
        <Form method="post" action={action} className="run-start">
          <button type="submit" className="btn btn-primary">
            {RUNS.run}
          </button>
          <details>
            <summary>{RUNS.runOneLink}</summary>
            <div className="run-links">
              {template.chain.map((l, i) => (
                <button key={i} type="submit" name="index" value={i} className="btn btn-secondary">
                  {RUNS.runLink(l.name || String(i + 1))}
                </button>
              ))}
            </div>
          </details>
        </Form>
      ) : null}
      {template.chat ? <ChatBox action={action} /> : null}
    </>
  );
}

/** A message to the chain's chat; an empty one is ignored (spec 3 §5). */
export function ChatBox({ action }: { action: string }) {
  return (
    <Form method="post" action={action} className="run-chat">
      <div className="field">
        <label htmlFor="chat-message">{RUNS.chatMessage}</label>
        <textarea id="chat-message" name="message" rows={2} maxLength={RUN_LIMITS.chatMessageChars} />
      </div>
      <button type="submit" name="intent" value="chat" className="btn btn-secondary">
        {RUNS.send}
      </button>
    </Form>
  );
}
