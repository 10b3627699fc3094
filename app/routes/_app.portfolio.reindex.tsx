import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { reindexAction, reindexLoader } from "~/portfolio/reindex.server";
import { REINDEX } from "~/portfolio/reindex-texts";
import { usePolling } from "~/ui/poll";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: `${REINDEX.title} · Backoffice` }];

export async function loader(args: LoaderFunctionArgs) {
  return reindexLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  return reindexAction(args);
}

/** Reindex portfolio: start the upstream's rebuild of the search index and follow its progress. */
export default function PortfolioReindex() {
  const { may, job, pollMs } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const starting = useNavigation().state === "submitting";
  const running = job?.status === "running";
  usePolling(running, pollMs);
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{REINDEX.title}</h1>
      </div>
      <p className="muted">{REINDEX.intro}</p>
      <section className="form-card" aria-labelledby="reindex-status">
        {running ? (
          <noscript>
            <meta httpEquiv="refresh" content={String(Math.ceil(pollMs / 1000))} />
          </noscript>
        ) : null}
        <h2 id="reindex-status">{REINDEX.statusTitle}</h2>
        {job ? (
          <>
            <progress className="progress" max={Math.max(job.total, 1)} value={running ? job.processed : Math.max(job.total, 1)} aria-labelledby="reindex-status" />
            <p role="status" aria-live="polite">
              {running ? REINDEX.running(job.processed, job.total) : null}
              {job.status === "completed" ? REINDEX.completed(job.finishedAt ?? job.startedAt, job.total) : null}
              {job.status === "failed" ? REINDEX.failed(job.finishedAt ?? job.startedAt) : null}{" "}
              {running ? <span className="muted">{REINDEX.refreshing}</span> : null}
            </p>
            {job.status === "failed" && job.error ? <p className="form-error">{job.error}</p> : null}
            <p className="muted small">{REINDEX.startedAt(job.startedAt)}</p>
          </>
        ) : (
          <p role="status">{REINDEX.never}</p>
        )}
        {may.write ? (
          // A second start while one runs is harmless: the upstream answers the running job.
          <Form method="post">
            <button type="submit" name="intent" value="reindex" className="btn btn-primary" aria-disabled={running || starting ? "true" : undefined}>
              {starting ? REINDEX.starting : REINDEX.start}
            </button>
          </Form>
        ) : (
          <p className="muted">{REINDEX.readOnly}</p>
        )}
      </section>
    </>
  );
}
