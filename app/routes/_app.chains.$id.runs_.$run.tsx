import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ChatBox } from "~/chains/run/RunBar";
import { Conversation, RunPane } from "~/chains/run/RunPane";
import { runPageAction, runPageLoader } from "~/chains/run/runs.server";
import { RUNS } from "~/chains/run/texts";
import type { RunWithEvents } from "@contract/chain-runs";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${RUNS.title(data?.chain.name ?? "a chain")} · Backoffice` }];

/**
 * A run's page (`/chains/{id}/runs/{run}`): every event so far, live with JavaScript, refreshing itself without. A chat
 * run shows the conversation up to its message; a chain run that went on into its chat, the messages sent after it.
 */
export const loader = runPageLoader;
export const action = runPageAction;

export default function RunPage() {
  const { chain, run, chat, after, followUp } = useLoaderData<typeof loader>();
  const action = `/chains/${encodeURIComponent(chain.id)}/runs`;
  return (
    <>
      <div className="page-header">
        <h1>{RUNS.title(chain.name)}</h1>
        <Link to={`/chains/${encodeURIComponent(chain.id)}`} className="btn btn-secondary">
          {RUNS.backToChain}
        </Link>
      </div>
      {chat ? <Conversation id="chat-conversation" messages={chat} /> : null}
      {/* The run crossed as JSON: an `unknown` value (a variable's, a link's input) reads as optional after it. */}
      <RunPane
        // A new run's page (a message sent from a run's page) is a new pane, not the last one's state.
        key={run.id}
        chainId={chain.id}
        run={run as RunWithEvents}
        followUp={followUp}
        after={after.length ? <Conversation id="chat-after" messages={after} /> : null}
      />
      {/* A message to the conversation kept in the user's context (a chat not following a chain run). */}
      {chat && !followUp ? <ChatBox action={action} /> : null}
    </>
  );
}
