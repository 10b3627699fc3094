import { Form, Link, useFetcher, useNavigation } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent } from "react";
import { CATEGORIZATION_PAGE_SIZE } from "@contract/categorization-constants";
import { MAX_RESULT_WINDOW } from "@contract/portfolio-constants";
import { NO_VALUE, formatScore } from "~/lib/format";
import { TRY_LATER } from "~/lib/form-texts";
import { CodeEditor } from "~/ui/code-editor";
import { fetchJson } from "~/ui/fetch-json";
import { DefaultSubmit, FieldErrors } from "~/ui/fields";
import { useHydrated } from "~/ui/hydrated";
import { openModal } from "~/ui/modal";
import { SplitPanels } from "~/ui/split-panels";
import { TagInput, joinTags, splitTags } from "~/ui/tag-input";
import { Toast, toastOf, type ToastData } from "~/ui/toast";
import { PANEL } from "./layout";
import type { ActionAnswer, JobView, QueryRow, ResultRow, Results } from "./page.server";
import { hasProblems, isDirty, queryProblems, type QueryErrors, type QueryValues } from "./rules";
import { CATEGORIZATION as C } from "./texts";

const loadEditor = () => import("./monaco-dsl.client").then((m) => m.MonacoDslEditor);

export type PageData = {
  queries: QueryRow[];
  selected: (QueryValues & { id: string }) | null;
  results: Results | null;
  jobs: JobView[];
  may: { write: boolean; create: boolean };
  panel: number;
  selecting: boolean;
};

const JOB_POLL_MS = 1500;

/** The editor's values as the form holds them now. */
function valuesIn(form: HTMLFormElement): QueryValues {
  const data = new FormData(form);
  return {
    name: String(data.get("name") ?? ""),
    tags: splitTags(String(data.get("tags") ?? "")),
    text: String(data.get("text") ?? ""),
  };
}

/** /categorization (spec 2 §2): the query editor on the left, tags, jobs and results on the right. */
export function CategorizationPage({ data, actionData }: { data: PageData; actionData: ActionAnswer | undefined }) {
  const { selected } = data;
  if (!selected) {
    return (
      <div className="categorization">
        <h1>{C.title}</h1>
        <p className="muted">{data.may.write ? C.noQueries : C.noQueriesReader}</p>
        <Toast toast={toastOf(actionData)} />
      </div>
    );
  }
  return <Editor key={selected.id} data={data} selected={selected} actionData={actionData} />;
}

function Editor({
  data,
  selected,
  actionData,
}: {
  data: PageData;
  selected: QueryValues & { id: string };
  actionData: ActionAnswer | undefined;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const layout = useFetcher();
  const formRef = useRef<HTMLFormElement>(null);
  const saved: QueryValues = useMemo(() => ({ name: selected.name, tags: selected.tags, text: selected.text }), [selected]);
  const shown = useMemo(() => actionData?.values ?? saved, [actionData, saved]);
  const [current, setCurrent] = useState<QueryValues>(shown);
  // A new answer of the action (a run, a refusal) or a reload after Save: the form shows those values.
  useEffect(() => setCurrent(shown), [shown]);
  const [showErrors, setShowErrors] = useState<QueryErrors>({});
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [selecting, setSelecting] = useState(false);

  const refresh = useCallback(() => {
    window.requestAnimationFrame(() => {
      if (formRef.current) setCurrent(valuesIn(formRef.current));
    });
  }, []);

  const dirty = isDirty(current, saved);
  const runErrors = queryProblems(current, "run");
  const saveErrors = queryProblems(current, "save");
  const errors: QueryErrors = { ...(actionData?.errors ?? {}), ...(hydrated ? showErrors : {}) };
  const busy = navigation.state !== "idle";
  const canWrite = data.may.write;
  const results = actionData?.results ?? data.results;
  const ranEdited = actionData?.results !== undefined && dirty;

  /** A refused button (aria-disabled) shows every reason instead of posting (DESIGN.md, Refusing input). */
  function guard(e: MouseEvent<HTMLButtonElement>, problems: QueryErrors, refuse: boolean) {
    if (!hydrated) return;
    if (busy || refuse || hasProblems(problems)) {
      e.preventDefault();
      setShowErrors(problems);
    }
  }

  /**
   * download CSV with JavaScript: the server starts the export (checking the query) and answers its link, which the
   * browser downloads while the screen stays as it is; a refusal is the toast, the editor untouched.
   */
  const [csvToast, setCsvToast] = useState<ToastData | null>(null);
  async function downloadCsv(e: MouseEvent<HTMLButtonElement>) {
    if (!hydrated) return;
    e.preventDefault();
    if (hasProblems(runErrors)) {
      setShowErrors(runErrors);
      return;
    }
    setCsvToast(null);
    const body = new FormData();
    body.set("text", current.text);
    try {
      const res = await fetch("/categorization/csv", { method: "POST", body, headers: { Accept: "application/json" }, credentials: "same-origin" });
      const answer = (await res.json()) as { href: string } | { toast: ToastData };
      if ("href" in answer) window.location.assign(answer.href);
      else setCsvToast(answer.toast);
    } catch {
      // Not a JSON answer: the session ended, or the server could not be reached.
      setCsvToast({ type: "error", message: C.toasts.csvFailed, description: TRY_LATER });
    }
  }

  const jobsDisabled = dirty || !canWrite;
  // Why run and download CSV (and Save) are refused, said beside them as "Unsaved changes" is beside the jobs.
  const runReason = runErrors.text?.[0];
  const runDescribedBy = runReason ? "cat-run-reason" : undefined;
  const left = (
    <section className="cat-panel" aria-labelledby="cat-query-heading">
      <div className="cat-heading">
        <h2 id="cat-query-heading">{C.query}</h2>
        <span className={`cat-state${dirty ? " is-dirty" : ""}`} role="status">
          {dirty ? C.dirty : C.saved}
        </span>
      </div>
      <div className="field">
        <label htmlFor="cat-name">{C.name}</label>
        <input
          id="cat-name"
          name="name"
          type="text"
          form="cat-form"
          defaultValue={shown.name}
          readOnly={!canWrite}
          aria-invalid={errors.name?.length ? true : undefined}
          aria-describedby="cat-name-errors"
          autoComplete="off"
        />
        <FieldErrors id="cat-name-errors" errors={errors.name} />
      </div>
      <CodeEditor
        id="cat-text"
        name="text"
        label={C.queryJson}
        defaultValue={shown.text}
        rows={18}
        invalid={Boolean(errors.text?.length)}
        describedBy="cat-text-hint cat-text-errors"
        load={loadEditor}
        form="cat-form"
      />
      <p id="cat-text-hint" className="field-hint">
        {C.queryHint}
      </p>
      <FieldErrors id="cat-text-errors" errors={errors.text} />
      <div className="cat-actions">
        {canWrite ? (
          <button
            type="submit"
            form="cat-form"
            name="intent"
            value="save"
            className="btn btn-primary"
            aria-disabled={hydrated && (busy || hasProblems(saveErrors)) ? "true" : undefined}
            aria-describedby={runDescribedBy}
            onClick={(e) => guard(e, saveErrors, false)}
          >
            {C.save}
          </button>
        ) : null}
        <button
          type="submit"
          form="cat-form"
          name="intent"
          value="csv"
          className="btn btn-secondary"
          aria-disabled={hydrated && hasProblems(runErrors) ? "true" : undefined}
          aria-describedby={runDescribedBy}
          onClick={downloadCsv}
        >
          {C.downloadCsv}
        </button>
        <button
          type="submit"
          form="cat-form"
          name="intent"
          value="run"
          className="btn btn-secondary"
          aria-disabled={hydrated && (busy || hasProblems(runErrors)) ? "true" : undefined}
          aria-describedby={runDescribedBy}
          onClick={(e) => guard(e, runErrors, false)}
        >
          {C.run}
        </button>
      </div>
      {runReason ? (
        <p id="cat-run-reason" className="field-hint cat-notice">
          {C.runReason(runReason)}
        </p>
      ) : null}
    </section>
  );

  const selectQuery = (
    <SelectQuery
      queries={data.queries}
      currentId={selected.id}
      canWrite={canWrite}
      asDialog={hydrated}
      confirmDelete={actionData?.confirm === "delete" ? (actionData.deleteId ?? null) : null}
      onClose={() => setSelecting(false)}
    />
  );
  const right = (
    <section className="cat-panel" aria-labelledby="cat-tags-heading">
      <div className="cat-heading">
        <h2 id="cat-tags-heading">{selected.name}</h2>
        {hydrated ? (
          <button type="button" className="btn btn-secondary btn-small" onClick={() => setSelecting(true)}>
            {C.selectQuery}
          </button>
        ) : (
          <Link className="btn btn-secondary btn-small" to={`/categorization?query=${encodeURIComponent(selected.id)}&select=1#select-query`}>
            {C.selectQuery}
          </Link>
        )}
      </div>
      {/* Without JavaScript the list opens right under its button, in the panel's width (a dialog with it). */}
      {!hydrated && (data.selecting || actionData?.confirm === "delete") ? selectQuery : null}
      {canWrite ? (
        <>
          <TagInput
            key={joinTags(shown.tags)}
            id="cat-tags"
            name="tags"
            label={C.tags}
            defaultValue={shown.tags}
            suggestUrl="/categorization/suggest"
            errors={errors.tags}
            hint={C.tagsHint}
            onChange={refresh}
            form="cat-form"
          />
          <div className="cat-actions">
            <JobButton intent="cleanup" label={C.cleanup} refused={jobsDisabled || busy} dirty={dirty} onClick={(e) => guard(e, saveErrors, dirty)} />
            <JobButton
              intent="remove"
              label={C.removeTags}
              refused={jobsDisabled || busy}
              dirty={dirty}
              onClick={(e) => {
                guard(e, saveErrors, dirty);
                if (hydrated && !e.defaultPrevented) {
                  e.preventDefault();
                  setConfirmRemove(true);
                }
              }}
            />
            <JobButton intent="apply" label={C.addTags} primary refused={jobsDisabled || busy} dirty={dirty} onClick={(e) => guard(e, saveErrors, dirty)} />
          </div>
          {dirty || actionData?.notice ? (
            <p id="cat-dirty-reason" className="field-hint cat-notice" role={actionData?.notice ? "alert" : undefined}>
              {actionData?.notice ?? C.dirtyReason}
            </p>
          ) : null}
        </>
      ) : (
        <p className="cat-readonly-tags">
          <strong>{C.tags}:</strong> {selected.tags.length ? selected.tags.join(", ") : NO_VALUE}
        </p>
      )}
      {actionData?.confirm === "remove" && !hydrated ? <RemoveStep saved={saved} queryId={selected.id} inline /> : null}
      <Progress jobs={data.jobs} queryId={selected.id} canWrite={canWrite} />
      <ResultsView results={results} ranEdited={ranEdited} />
    </section>
  );

  return (
    // The fields sit in the panels, tied to the form by their `form` attribute: their events bubble here.
    <div className="categorization" onInput={refresh} onChange={refresh}>
      <h1>{C.title}</h1>
      <Form id="cat-form" ref={formRef} method="post" preventScrollReset onSubmit={() => setShowErrors({})}>
        <DefaultSubmit value="run" />
        <input type="hidden" name="queryId" value={selected.id} />
      </Form>
      <SplitPanels
        first={left}
        second={right}
        size={data.panel}
        min={PANEL.min}
        max={PANEL.max}
        step={PANEL.step}
        label={C.resize}
        className="cat-split"
        onCommit={(left) => layout.submit({ intent: "layout", left: String(left) }, { method: "post" })}
      />
      {hydrated && (data.selecting || selecting || actionData?.confirm === "delete") ? selectQuery : null}
      {hydrated ? <RemoveDialog open={confirmRemove} saved={saved} queryId={selected.id} onClose={() => setConfirmRemove(false)} /> : null}
      <Toast toast={csvToast ?? toastOf(actionData)} />
    </div>
  );
}

/** A button starting a job on the saved query: refused (aria-disabled, the reason beside it) while the editor is dirty. */
function JobButton({
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

/** The saved values, posted again with a confirmation (the action compares them with the saved query). */
function SavedFields({ saved, queryId }: { saved: QueryValues; queryId: string }) {
  return (
    <>
      <input type="hidden" name="queryId" value={queryId} />
      <input type="hidden" name="name" value={saved.name} />
      <input type="hidden" name="tags" value={joinTags(saved.tags)} />
      <input type="hidden" name="text" value={saved.text} />
    </>
  );
}

function RemoveStep({ saved, queryId, inline, onCancel }: { saved: QueryValues; queryId: string; inline?: boolean; onCancel?: () => void }) {
  const R = C.confirmRemove;
  const body = (
    <>
      <h2 id="cat-remove-title">{R.title}</h2>
      <p>{R.message(saved.tags.join(", "))}</p>
      <Form method="post" className="confirm-actions" preventScrollReset onSubmit={() => window.setTimeout(() => onCancel?.(), 0)}>
        <SavedFields saved={saved} queryId={queryId} />
        <input type="hidden" name="confirmed" value="yes" />
        <button type="submit" name="intent" value="remove" className="btn btn-danger">
          {R.confirm}
        </button>
        {onCancel ? (
          <button data-initial-focus type="button" className="btn btn-secondary" onClick={onCancel}>
            {C.cancel}
          </button>
        ) : (
          <Link to={`/categorization?query=${encodeURIComponent(queryId)}`} className="btn btn-secondary" autoFocus>
            {C.cancel}
          </Link>
        )}
      </Form>
    </>
  );
  if (inline) {
    return (
      <section className="confirm-inline" role="alertdialog" aria-labelledby="cat-remove-title">
        {body}
      </section>
    );
  }
  return body;
}

function RemoveDialog({ open, saved, queryId, onClose }: { open: boolean; saved: QueryValues; queryId: string; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const navigation = useNavigation();
  useEffect(() => {
    if (open) openModal(ref.current);
  }, [open]);
  useEffect(() => {
    if (navigation.state === "idle" && !open) ref.current?.close();
  }, [navigation.state, open]);
  return (
    <dialog ref={ref} className="confirm-dialog" aria-labelledby="cat-remove-title" onClose={onClose}>
      {open ? <RemoveStep saved={saved} queryId={queryId} onCancel={() => ref.current?.close()} /> : null}
    </dialog>
  );
}

/** 'Select a query' (spec 2 §2): a dialog with JavaScript, an inline section without (the URL's `select=1`). */
function SelectQuery({
  queries,
  currentId,
  canWrite,
  asDialog,
  confirmDelete,
  onClose,
}: {
  queries: QueryRow[];
  currentId: string;
  canWrite: boolean;
  asDialog: boolean;
  confirmDelete: string | null;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [confirming, setConfirming] = useState<string | null>(confirmDelete);
  useEffect(() => {
    if (asDialog) openModal(ref.current);
  }, [asDialog]);
  const closeUrl = `/categorization?query=${encodeURIComponent(currentId)}`;
  const back = `${closeUrl}&select=1`;
  const body = (
    <>
      <div className="cat-heading">
        <h2 id="select-query-title">{C.selectQuery}</h2>
        <div className="cat-actions">
          {canWrite ? (
            <Form method="post" action={back} className="inline-form">
              <input type="hidden" name="queryId" value={currentId} />
              <button type="submit" name="intent" value="create" className="btn btn-primary btn-small">
                {C.createNew}
              </button>
            </Form>
          ) : null}
          {asDialog ? (
            <button type="button" className="btn btn-secondary btn-small" onClick={() => ref.current?.close()}>
              {C.close}
            </button>
          ) : (
            <Link to={closeUrl} className="btn btn-secondary btn-small">
              {C.close}
            </Link>
          )}
        </div>
      </div>
      <div className="table-wrap">
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{C.columns.name}</th>
              <th scope="col">{C.columns.tags}</th>
              <th scope="col">{C.columns.updated}</th>
              {canWrite && queries.length > 1 ? (
                <th scope="col">
                  <span className="visually-hidden">{C.delete}</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {queries.map((q) => (
              <tr key={q.id} aria-current={q.id === currentId ? "true" : undefined}>
                <td>
                  <Link to={`/categorization?query=${encodeURIComponent(q.id)}`} onClick={() => ref.current?.close()}>
                    {q.name}
                  </Link>
                  {q.id === currentId ? <span className="muted small"> {C.current}</span> : null}
                </td>
                <td>{q.tags.join(", ")}</td>
                <td>
                  {q.updated}
                  {q.by ? (
                    <span className="muted small">
                      {" "}
                      {C.by} {q.by}
                    </span>
                  ) : null}
                </td>
                {canWrite && queries.length > 1 ? (
                  <td>
                    {confirming === q.id ? (
                      <div className="confirm-inline" role="alertdialog" aria-labelledby={`delete-${q.id}-title`}>
                        <p id={`delete-${q.id}-title`}>
                          <strong>{C.confirmDelete.title}</strong> {C.confirmDelete.message}
                        </p>
                        <Form method="post" action={back} className="confirm-actions">
                          <input type="hidden" name="queryId" value={currentId} />
                          <input type="hidden" name="id" value={q.id} />
                          <input type="hidden" name="confirmed" value="yes" />
                          <button type="submit" name="intent" value="delete" className="btn btn-danger btn-small">
                            {C.confirmDelete.confirm}
                          </button>
                          {asDialog ? (
                            <button type="button" className="btn btn-secondary btn-small" autoFocus onClick={() => setConfirming(null)}>
                              {C.cancel}
                            </button>
                          ) : (
                            <Link to={back} className="btn btn-secondary btn-small" autoFocus>
                              {C.cancel}
                            </Link>
                          )}
                        </Form>
                      </div>
                    ) : (
                      <Form
                        method="post"
                        action={back}
                        className="inline-form"
                        onSubmit={(e) => {
                          if (!asDialog) return;
                          e.preventDefault();
                          setConfirming(q.id);
                        }}
                      >
                        <input type="hidden" name="queryId" value={currentId} />
                        <input type="hidden" name="id" value={q.id} />
                        <button type="submit" name="intent" value="delete" className="btn btn-danger btn-small" aria-label={C.deleteQuery(q.name)}>
                          {C.delete}
                        </button>
                      </Form>
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
  if (asDialog) {
    return (
      <dialog ref={ref} className="cat-select-dialog" aria-labelledby="select-query-title" onClose={onClose}>
        {body}
      </dialog>
    );
  }
  return (
    <section id="select-query" className="cat-select-inline" role="region" aria-labelledby="select-query-title">
      {body}
    </section>
  );
}

/** A job still to run or running: the progress polls, and it can be cancelled. */
const isActive = (job: JobView) => job.status === "queued" || job.status === "running";

/** Progress of the query's jobs and of apply-all (spec 2 §4: triggered actions that take a while), kept upstream. */
function Progress({ jobs, queryId, canWrite }: { jobs: JobView[]; queryId: string; canWrite: boolean }) {
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

function ResultsView({ results, ranEdited }: { results: Results | null; ranEdited: boolean }) {
  if (!results) return <p className="muted">{C.notRun}</p>;
  if (!results.ok) {
    return (
      <div className="cat-search-failed" role="alert">
        <p>{results.message}</p>
        {results.detail ? <p className="small">{results.detail}</p> : null}
      </div>
    );
  }
  const pages = Math.ceil(Math.min(results.total, MAX_RESULT_WINDOW) / CATEGORIZATION_PAGE_SIZE);
  const page = Math.floor(results.from / CATEGORIZATION_PAGE_SIZE) + 1;
  return (
    <section className="cat-results" aria-labelledby="cat-results-title">
      <div className="cat-heading">
        <h3 id="cat-results-title">{C.resultsTitle}</h3>
        <span className="muted" role="status">
          {results.totalIsMore ? C.totalMore(results.total) : C.total(results.total)}
        </span>
      </div>
      {ranEdited ? <p className="small muted">{C.unsavedResults}</p> : null}
      {results.rows.length === 0 ? <p className="muted">{C.noResults}</p> : null}
      {results.rows.map((row) => (
        <Result key={row.id} row={row} />
      ))}
      {pages > 1 ? (
        <nav className="pagination" aria-label={C.pages.label}>
          <button type="submit" form="cat-form" name="from" value={String(results.from - CATEGORIZATION_PAGE_SIZE)} className="btn btn-secondary btn-small" disabled={page <= 1}>
            {C.pages.previous}
          </button>
          <span className="small">{C.pages.of(page, pages)}</span>
          <button type="submit" form="cat-form" name="from" value={String(results.from + CATEGORIZATION_PAGE_SIZE)} className="btn btn-secondary btn-small" disabled={page >= pages}>
            {C.pages.next}
          </button>
        </nav>
      ) : null}
    </section>
  );
}

function Result({ row }: { row: ResultRow }) {
  return (
    <article className="result cat-result" aria-labelledby={`cat-r-${row.id}`}>
      <h4 id={`cat-r-${row.id}`} className="result-title">
        <span className="result-id">{row.id}</span>{" "}
        <span className="muted small">
          {C.relevance} {formatScore(row.score)}
        </span>
      </h4>
      <dl className="cat-fields">
        {row.fields.map((f) => (
          <div key={f.field}>
            <dt>{C.fields[f.field]}</dt>
            <dd dangerouslySetInnerHTML={{ __html: f.html }} />
          </div>
        ))}
      </dl>
      <ul className="tag-list" aria-label={C.tags}>
        {row.tags.length === 0 ? <li className="muted small">{C.noTagsOnApp}</li> : null}
        {row.tags.map((t) => (
          <li key={t.name} className="tag">
            {`${t.name}:${formatScore(t.score)}`}
          </li>
        ))}
      </ul>
    </article>
  );
}
