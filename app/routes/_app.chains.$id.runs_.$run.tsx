import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ChatBox } from "~/chains/run/RunBar";
import { RunPane } from "~/chains/run/RunPane";
import { runPageAction, runPageLoader } from "~/chains/run/runs.server";
import { RUNS } from "~/chains/run/texts";
import { isUserAuthor, type RunWithEvents } from "@contract/chain-runs";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${RUNS.title(data?.chain.name ?? "a chain")} · Backoffice` }];

/** A run's page (`/chains/{id}/runs/{run}`): every event so far, live with JavaScript, refreshing itself without. */
export const loader = runPageLoader;
export const action = runPageAction;

export default function RunPage() {
  const { chain, run, chat } = useLoaderData<typeof loader>();
  return (
    <>
      <div className="page-header">
        <h1>{RUNS.title(chain.name)}</h1>
        <Link to={`/chains/${encodeURIComponent(chain.id)}`} className="btn btn-secondary">
          {RUNS.backToChain}
        </Link>
      </div>
      {/* The run crossed as JSON: an `unknown` value (a variable's, a link's input) reads as optional after it. */}
      {chat ? (
        <section aria-labelledby="chat-conversation" className="run-conversation">
          <h2 id="chat-conversation">{RUNS.conversation}</h2>
          {chat.map((m, i) => (
            <p key={i}>
              <strong>{isUserAuthor(m.author) ? RUNS.you : RUNS.assistant}:</strong> {m.text}
            </p>
          ))}
        </section>
      ) : null}
      <RunPane chainId={chain.id} run={run as RunWithEvents} />
      {chat ? <ChatBox action={`/chains/${encodeURIComponent(chain.id)}/runs`} /> : null}
    </>
  );
}
