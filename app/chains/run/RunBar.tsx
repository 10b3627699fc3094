import { Form } from "@remix-run/react";
import type { ChainTemplate } from "@contract/chains";
import { RUN_LIMITS } from "@contract/chain-runs";
import { RUNS } from "./texts";

/**
 * The one run form of the chain page: Run posts it for the whole chain; each link's execute button (spec 3 §2.9, in
 * the link's item: `RunLinkButton`) posts it with the link's `index` through the `form` attribute, since the link's
 * item sits in other forms (nested forms are not HTML).
 */
export const RUN_FORM_ID = "chain-run";

/**
 * Run on the chain page (spec 3 §2.9 toolbar), and the chat's message box: each posts to /chains/{id}/runs, which
 * starts the run and lands on its page (the output pane), with or without JavaScript.
 */
export function RunBar({ chainId, template }: { chainId: string; template: Pick<ChainTemplate, "chain" | "chat"> }) {
  const action = `/chains/${encodeURIComponent(chainId)}/runs`;
  return (
    <>
      {template.chain.length ? (
        <Form method="post" action={action} className="run-start" id={RUN_FORM_ID}>
          <button type="submit" className="btn btn-primary">
            {RUNS.run}
          </button>
        </Form>
      ) : null}
      {template.chat ? <ChatBox action={action} /> : null}
    </>
  );
}

/** Execute-this-link (spec 3 §2.9): runs link `index` alone, named by the link for a screen reader ('Run PROMPT 1'). */
export function RunLinkButton({ index, name }: { index: number; name: string }) {
  return (
    <button type="submit" form={RUN_FORM_ID} name="index" value={index} className="btn btn-secondary" aria-label={RUNS.runLink(name || String(index + 1))}>
      {RUNS.runOne}
    </button>
  );
}

/**
 * A message to the chain's chat; an empty one is ignored (spec 3 §5). With `run`, it follows that chain run's
 * conversation with its chat (its variables and history); without, the conversation kept in the user's context.
 */
export function ChatBox({ action, run }: { action: string; run?: string }) {
  return (
    <Form method="post" action={action} className="run-chat">
      {run ? <input type="hidden" name="run" value={run} /> : null}
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
