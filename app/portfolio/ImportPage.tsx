import type { SerializeFrom } from "@remix-run/node";
import { Form, Link, useNavigation } from "@remix-run/react";
import { CSV_COLUMNS, PUBLIC_PORTFOLIO } from "@contract/portfolio-constants";
import { FieldErrors } from "~/ui/fields";
import { usePolling } from "~/ui/poll";
import { Toast, toastOf } from "~/ui/toast";
import type { importLoader } from "./import.server";
import { PORTFOLIO } from "./texts";

const I = PORTFOLIO.import;
/** Same as import.server's IMPORT_POLL_MS (a .server module cannot be imported here). */
const POLL_MS = 1500;

type Data = SerializeFrom<typeof importLoader>;
type Job = NonNullable<Data["job"]>;

function Progress({ job }: { job: Job }) {
  const running = job.status === "running";
  usePolling(running, POLL_MS);
  return (
    <section aria-labelledby="import-progress-title" className="import-report">
      {running ? (
        <noscript>
          <meta httpEquiv="refresh" content={String(Math.ceil(POLL_MS / 1000))} />
        </noscript>
      ) : null}
      <Toast toast={job.toast} />
      <h2 id="import-progress-title">{I.progressTitle}</h2>
      <progress
        className="progress"
        max={1}
        value={running ? (job.progress ?? 0) : 1}
        aria-labelledby="import-progress-title"
      />
      <p role="status" aria-live="polite">
        {I.running(job.processed, job.total)} {running ? <span className="muted">{I.refreshing}</span> : null}
      </p>
      {job.status === "completed" ? <p>{I.updated(job.updated)}</p> : null}
      {job.status === "failed" && job.error ? <p className="form-error">{job.error}</p> : null}
      {running ? null : (
        <>
          <h3>{I.rejectedTitle}</h3>
          {job.rejectedTotal === 0 ? (
            <p>{I.noneRejected}</p>
          ) : (
            <>
              <p>
                {I.rejectedCount(job.rejected.length, job.rejectedTotal)}{" "}
                <a href={`/portfolio/import/${encodeURIComponent(job.id)}/rejected.csv`} download>
                  {I.downloadRejected}
                </a>
              </p>
              <div className="table-wrap" role="region" aria-label={I.rejectedTitle} tabIndex={0}>
                <table className="data-table">
                  <thead>
                    <tr>
                      <th scope="col">{I.lineHeader}</th>
                      <th scope="col">{I.reasonHeader}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {job.rejected.map((r) => (
                      <tr key={r.line}>
                        <td>{r.line}</td>
                        <td>{r.reason}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
          <p className="page-actions">
            <Link to="/portfolio/import" className="btn btn-secondary">
              {I.another}
            </Link>
            <Link to="/portfolio" className="btn btn-primary">
              {I.back}
            </Link>
          </p>
        </>
      )}
    </section>
  );
}

/** Upload CSV (spec 2 §2): the documented columns, a sample, the upload; then the job's progress and report. */
export function ImportPage({ data, actionData }: { data: Data; actionData: unknown }) {
  const navigation = useNavigation();
  const uploading = navigation.state === "submitting";
  const fileError =
    actionData && typeof actionData === "object" && "fileError" in actionData ? String(actionData.fileError) : null;
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{I.title}</h1>
        <Link to="/portfolio" className="btn btn-secondary">
          {I.back}
        </Link>
      </div>
      {data.job ? (
        <Progress job={data.job} />
      ) : (
        <>
          {data.jobMissing ? <p className="form-error">{I.jobNotFound}</p> : null}
          <p>{I.intro}</p>
          <Form method="post" encType="multipart/form-data" className="import-form">
            <div className="field">
              <label htmlFor="import-file">{I.file}</label>
              <input
                id="import-file"
                type="file"
                name="file"
                accept=".csv,text/csv"
                required
                aria-invalid={fileError ? true : undefined}
                aria-describedby={`import-file-hint${fileError ? " import-file-error" : ""}`}
                autoFocus={!!fileError}
              />
              <p id="import-file-hint" className="field-hint">
                {I.fileHint}
              </p>
              <FieldErrors id="import-file-error" errors={fileError ? [fileError] : undefined} />
            </div>
            <div className="field">
              <label htmlFor="import-portfolio">{I.portfolio}</label>
              <select id="import-portfolio" name="portfolio" defaultValue={PUBLIC_PORTFOLIO}>
                <option value={PUBLIC_PORTFOLIO}>{PORTFOLIO.publicPortfolio}</option>
                {data.organizations.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                  </option>
                ))}
              </select>
            </div>
            <div className="form-actions">
              <button type="submit" className="btn btn-primary" aria-disabled={uploading || undefined}>
                {uploading ? "Uploading…" : I.upload}
              </button>
            </div>
          </Form>
        </>
      )}
      <section aria-labelledby="import-columns-title">
        <h2 id="import-columns-title">{I.columnsTitle}</h2>
        <p>
          <a href="/portfolio/import/sample.csv" download>
            {I.sample}
          </a>
        </p>
        <div className="table-wrap" role="region" aria-label={I.columnsTitle} tabIndex={0}>
          <table className="data-table import-columns">
            <thead>
              <tr>
                <th scope="col">{I.columnHeader}</th>
                <th scope="col">{I.meaningHeader}</th>
              </tr>
            </thead>
            <tbody>
              {CSV_COLUMNS.map((c) => (
                <tr key={c}>
                  <td>{c}</td>
                  <td>{PORTFOLIO.columns[c]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
