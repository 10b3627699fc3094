/**
 * /categorization (spec 2 §2): the page and its query editor. The editor's panel (name, query JSON, save, run,
 * download CSV) is here with the form every field posts through; the other parts are their own modules: the
 * saved-query picker (SelectQuery.tsx), the jobs and their progress (Jobs.tsx), the remove confirmation
 * (RemoveConfirm.tsx) and the results (Results.tsx).
 */
import { Form, Link, useFetcher, useNavigation } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent } from "react";
import { NO_VALUE } from "~/lib/format";
import { TRY_LATER } from "~/lib/form-texts";
import { CodeEditor } from "~/ui/code-editor";
import { DefaultSubmit, FieldErrors } from "~/ui/fields";
import { useHydrated } from "~/ui/hydrated";
import { SplitPanels } from "~/ui/split-panels";
import { TagInput, joinTags, splitTags } from "~/ui/tag-input";
import { Toast, toastOf, type ToastData } from "~/ui/toast";
import { JobButton, Progress } from "./Jobs";
import { PANEL } from "./layout";
import type { ActionAnswer, JobView, QueryRow, Results } from "./page.server";
import { RemoveDialog, RemoveStep } from "./RemoveConfirm";
import { ResultsView } from "./Results";
import { hasProblems, isDirty, queryProblems, type QueryErrors, type QueryValues } from "./rules";
import { SelectQuery } from "./SelectQuery";
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
