/**
 * The categorization page's jobs: the buttons that start a job on the saved query, and the progress of the query's
 * jobs, polled while one is queued or running.
 */
import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect, useState, type MouseEvent } from "react";
import { fetchJson } from "~/ui/fetch-json";
import { useHydrated } from "~/ui/hydrated";
import type { JobView } from "./page.server";
import { CATEGORIZATION as C } from "./texts";

const JOB_POLL_MS = 1500;

/** A button starting a job on the saved query: refused (aria-disabled, the reason beside it) while the editor is dirty. */
export function JobButton({
  intent,
  label,
  primary,
  refused,
  dirty,
  onClick,
}: {
  intent: string;
  label: string;
  primary?: boolean;
  refused: boolean;
  dirty: boolean;
  onClick: (e: MouseEvent<HTMLButtonElement>) => void;
}) {
  const hydrated = useHydrated();
  return (
    <button
      type="submit"
      form="cat-form"
      name="intent"
      value={intent}
      className={`btn ${primary ? "btn-primary" : "btn-secondary"}`}
      aria-disabled={hydrated && refused ? "true" : undefined}
      aria-describedby={dirty ? "cat-dirty-reason" : undefined}
      onClick={onClick}
    >
      {label}
    </button>
  );
}

/** A job still to run or running: the progress polls, and it can be cancelled. */
const isActive = (job: JobView) => job.status === "queued" || job.status === "running";

/** Progress of the query's jobs and of apply-all (spec 2 §4: triggered actions that take a while), kept upstream. */
export function Progress({ jobs, queryId, canWrite }: { jobs: JobView[]; queryId: string; canWrite: boolean }) {
  const hydrated = useHydrated();
  const busy = useNavigation().state !== "idle";
  // Polled with a plain fetch of the JSON route, not a fetcher: a fetcher's load is revalidated after every action,
  // and one whose route the page had not discovered yet (lazy route discovery) was revalidated against the catch-all
  // route, whose error replaced the page (seen on a CI run, the Cancel click landing during the first poll).
  const [polled, setPolled] = useState<{ jobs: JobView[]; from: JobView[] } | null>(null);
  // A new page (a trigger's redirect) brings new jobs: they win over an older poll, and polling starts from them.
  const shown = polled && polled.from === jobs ? polled.jobs : jobs;
  const active = shown.some(isActive);
  useEffect(() => {
    if (!hydrated || !active || busy) return;
    const controller = new AbortController();
    const timer = window.setTimeout(async () => {
      let next: JobView[];
      try {
        next = await fetchJson<JobView[]>(`/categorization/jobs?query=${encodeURIComponent(queryId)}`, controller.signal);
      } catch {
        if (controller.signal.aborted) return;
        // Offline or refused: the same jobs again (a new array, so the next poll comes after the same pause).
        next = [...shown];
      }
      setPolled({ jobs: next, from: jobs });
    }, JOB_POLL_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [hydrated, active, busy, shown, queryId, jobs]);
  const P = C.progress;
  return (
    <section className="cat-progress" aria-labelledby="cat-progress-title">
      <div className="cat-heading">
        <h3 id="cat-progress-title">{P.title}</h3>
        {canWrite ? (
          <button type="submit" form="cat-form" name="intent" value="applyAll" className="btn btn-secondary btn-small">
            {C.applyAll}
          </button>
        ) : null}
      </div>
      {shown.length === 0 ? <p className="muted small">{P.none}</p> : null}
      <ul className="cat-jobs" aria-live="polite">
        {shown.map((job) => (
          <li key={job.id} className={`cat-job is-${job.status}`}>
            <p>
              <strong>{P.kinds[job.kind]}</strong>
              {job.queryName && job.kind !== "applyAll" ? ` · ${job.queryName}` : ""}
              {job.tags.length ? <span className="muted"> ({job.tags.join(", ")})</span> : null}
            </p>
            {job.status === "queued" ? <p className="small">{P.queued}</p> : null}
            {job.status !== "queued" && job.total === null ? <p className="small">{P.counting}</p> : null}
            {job.total !== null ? (
              <p className="small">
                <progress max={Math.max(job.total, 1)} value={job.total === 0 ? 1 : job.done} aria-label={`${P.kinds[job.kind]} ${P.of(job.done, job.total)}`} />{" "}
                {P.of(job.done, job.total)} · {P.changed(job.changed)}
              </p>
            ) : null}
            {canWrite && isActive(job) ? (
              <Form method="post" className="inline-form">
                <input type="hidden" name="intent" value="cancelJob" />
                <input type="hidden" name="job" value={job.id} />
                <input type="hidden" name="queryId" value={queryId} />
                <button type="submit" className="btn btn-secondary btn-small" aria-label={P.cancel(P.kinds[job.kind])}>
                  {P.cancelShort}
                </button>
              </Form>
            ) : null}
            {job.finishedText ? (
              <p className="small muted">
                {job.status === "failed" ? `${P.failed}: ${job.error ?? ""} · ` : ""}
                {job.status === "cancelled" ? `${P.cancelled} · ` : ""}
                {P.finished(job.finishedText)}
                {job.createdBy ? ` · ${P.by(job.createdBy)}` : ""}
              </p>
            ) : null}
            {job.skipped.length ? (
              <p className="small muted">{P.skipped(job.skipped.map((s) => `${s.name} (${s.reason})`).join("; "))}</p>
            ) : null}
          </li>
        ))}
      </ul>
      {!hydrated && active ? (
        <p>
          <Link to={`/categorization?query=${encodeURIComponent(queryId)}`}>{C.refresh}</Link>
        </p>
      ) : null}
    </section>
  );
}
