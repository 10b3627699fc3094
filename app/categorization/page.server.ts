import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { CATEGORIZATION_PAGE_SIZE } from "@contract/categorization-constants";
import type { CategorizationJob, CategorizationQuery as Query } from "@contract/categorization";
import { MAX_RESULT_WINDOW, type AdvancedSearchBody, type SearchHit } from "@contract/portfolio";
import { can } from "@contract/permissions";
import { notFound, requireRoute, requireUser, requireWrite } from "~/auth/guard.server";
import { matchRoute } from "~/lib/routes";
import { failureToast, intentOf, isConfirmed, rethrowResponse, statusOf } from "~/lib/actions.server";
import { downloadOrBack } from "~/lib/download.server";
import { formatDateTime } from "~/lib/format";
import { readForm, textOf } from "~/lib/form.server";
import { readPrefs, writePrefs } from "~/lib/prefs.server";
import { toasts } from "~/lib/toast.server";
import { isUpstreamError, type Api } from "~/lib/upstream.server";
import { sanitizeFragment } from "~/portfolio/search.server";
import { splitTags } from "~/ui/tag-input";
import type { ToastData } from "~/ui/toast";
import { z } from "zod";
import { categorization } from "./categorization.server";

const TagSuggestions = z.array(z.string());
import { PANEL, clampPanel } from "./layout";
import { hasProblems, isDirty, queryProblems, type QueryErrors, type QueryValues } from "./rules";
import { CATEGORIZATION } from "./texts";

const T = CATEGORIZATION.toasts;

/** One result (spec 2 §2): relevance, id, title, abstract, specification, claims (fragments, HTML with <mark>), tags. */
export type ResultRow = {
  id: string;
  score: number | null;
  fields: { field: "title" | "abstract" | "specification" | "claims"; html: string }[];
  tags: { name: string; score: number }[];
};

export type Results =
  | { ok: true; rows: ResultRow[]; total: number; totalIsMore: boolean; from: number; size: number }
  | { ok: false; message: string; detail: string | null };

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function rowOf(hit: SearchHit): ResultRow {
  const fields: ResultRow["fields"] = [];
  for (const field of ["title", "abstract", "specification", "claims"] as const) {
    const fragments = hit.highlight[field];
    if (fragments?.length) fields.push({ field, html: fragments.map(sanitizeFragment).join(" … ") });
    else if (field === "title" && hit.title) fields.push({ field, html: escapeHtml(hit.title) });
  }
  return { id: hit.id, score: hit.score, fields, tags: hit.tags };
}

/** The search of a query's JSON plus size and from (spec 2 §7, §9: size 10, from 0). */
async function runSearch(api: Api, text: string, from: number): Promise<Results> {
  const parsed = JSON.parse(text) as AdvancedSearchBody;
  // The long fields travel only as highlight fragments (unless the query asks for its own _source).
  const body: AdvancedSearchBody = {
    _source: { excludes: ["claims", "specification", "aiSummary", "products"] },
    ...parsed,
    size: CATEGORIZATION_PAGE_SIZE,
    from,
  };
  try {
    const answer = await categorization.search(api, body);
    const totalIsMore = answer.totalRelation === "gte";
    return { ok: true, rows: answer.data.map(rowOf), total: answer.total, totalIsMore, from, size: CATEGORIZATION_PAGE_SIZE };
  } catch (error) {
    rethrowResponse(error);
    return { ok: false, message: CATEGORIZATION.searchFailed, detail: isUpstreamError(error) && error.status < 500 ? error.message : null };
  }
}

const fromOf = (raw: string | null) => {
  const n = Number(raw ?? 0);
  if (!Number.isInteger(n) || n < 0) return 0;
  return Math.min(n - (n % CATEGORIZATION_PAGE_SIZE), MAX_RESULT_WINDOW - CATEGORIZATION_PAGE_SIZE);
};

const queryUrl = (id: string, extra: Record<string, string> = {}) =>
  `/categorization?${new URLSearchParams({ query: id, ...extra })}`;

/** A job as the page shows it (dates formatted in the user's time zone). */
export type JobView = CategorizationJob & { finishedText: string | null };
const viewOf = (timeZone: string) => (job: CategorizationJob): JobView => ({
  ...job,
  finishedText: job.finishedAt ? formatDateTime(job.finishedAt, timeZone) : null,
});

export type QueryRow = { id: string; name: string; tags: string[]; updated: string; by: string | null };

/** The jobs of a query for the progress panel (polled by /categorization/jobs too). */
async function jobsOf(api: Api, queryId: string, timeZone: string): Promise<JobView[]> {
  try {
    return (await categorization.jobs(api, queryId)).map(viewOf(timeZone));
  } catch (error) {
    rethrowResponse(error);
    return [];
  }
}

/**
 * /categorization: the saved queries, the one open (the URL's `query`, else the remembered one, else the first; one is
 * created when none exist and the user may), its results (page `from`) and its jobs, the panel size.
 */
export async function categorizationLoader(args: LoaderFunctionArgs) {
  const { api, may, timeZone } = await requireRoute(args);
  const url = new URL(args.request.url);
  const prefs = await readPrefs(args.request, args.context);
  let items = (await categorization.queries.list(api, { pageSize: 200, sort: "name" })).items;
  if (!items.length && may.write) items = [await categorization.queries.create(api, {})];
  const wanted = url.searchParams.get("query") ?? prefs.selectedQuery;
  const selected = items.find((q) => q.id === wanted) ?? items[0] ?? null;
  const headers = new Headers();
  if (selected && prefs.selectedQuery !== selected.id) {
    headers.append("Set-Cookie", await writePrefs({ ...prefs, selectedQuery: selected.id }, args.context));
  }
  const from = fromOf(url.searchParams.get("from"));
  const queries: QueryRow[] = items.map((q) => ({
    id: q.id,
    name: q.name,
    tags: q.tags,
    // Updated with date and 'by' user, falling back to created date and user (spec 2 §2).
    updated: formatDateTime(q.updatedAt || q.createdAt, timeZone),
    by: q.updatedBy ?? q.createdBy,
  }));
  return json(
    {
      queries,
      selected: selected ? { id: selected.id, name: selected.name, tags: selected.tags, text: selected.text } : null,
      results: selected ? await runSearch(api, selected.text, from) : null,
      jobs: selected ? await jobsOf(api, selected.id, timeZone) : [],
      may,
      panel: clampPanel(prefs.panels[PANEL.id] ?? PANEL.initial),
      selecting: url.searchParams.get("select") === "1",
    },
    { headers },
  );
}

/** What the action answers when the page is shown again (values kept, the problem said). */
export type ActionAnswer = {
  values?: QueryValues;
  errors?: QueryErrors;
  results?: Results;
  /** The refusal of a job button while the editor differs from the saved query. */
  notice?: string;
  confirm?: "remove" | "delete" | null;
  deleteId?: string;
  toast?: ToastData | null;
};

const answer = (body: ActionAnswer, status = 200) => json(body, { status });

function valuesOf(form: FormData): QueryValues {
  return { name: textOf(form, "name"), tags: splitTags(textOf(form, "tags")), text: textOf(form, "text").replace(/\r\n?/g, "\n") };
}

/**
 * /categorization's action. `run` and `layout` need only the screen's permission; everything else the `portfolio`
 * write permission (route table), which the upstream checks again.
 */
export async function categorizationAction(args: ActionFunctionArgs) {
  const form = await readForm(args.request);
  const intent = intentOf(form);
  const flash = toasts(args.context);

  if (intent === "layout") {
    await requireRoute(args);
    const prefs = await readPrefs(args.request, args.context);
    const size = clampPanel(Number(textOf(form, "left")));
    const headers = { "Set-Cookie": await writePrefs({ ...prefs, panels: { ...prefs.panels, [PANEL.id]: size } }, args.context) };
    const back = textOf(form, "queryId");
    return textOf(form, "redirect") === "yes" ? redirect(back ? queryUrl(back) : "/categorization", { headers }) : json({ ok: true }, { headers });
  }

  // Run, and the results' page buttons (they post `from` as their own value).
  if (intent === "run" || (!intent && form.has("from"))) {
    const { api } = await requireRoute(args);
    const values = valuesOf(form);
    const errors = queryProblems(values, "run");
    if (hasProblems(errors)) return answer({ values, errors }, 400);
    return answer({ values, results: await runSearch(api, values.text, fromOf(textOf(form, "from"))) });
  }

  // download CSV without JavaScript: checked first, then the download's link (the screen stays as typed), or the
  // screen again with the toast.
  if (intent === "csv") {
    const { api } = await requireRoute(args);
    const started = await startCsv(api, valuesOf(form));
    return "token" in started ? redirect(exportHref(started.token)) : answer(started.answer, started.status);
  }

  const { api } = await requireWrite(args);
  const queryId = textOf(form, "queryId");

  if (intent === "create") {
    try {
      const created = await categorization.queries.create(api, {});
      return flash.redirectWithSuccess(queryUrl(created.id), T.createCompleted);
    } catch (error) {
      return answer({ toast: failureToast(T.createFailed, error) }, statusOf(error));
    }
  }

  if (intent === "delete") {
    const id = textOf(form, "id");
    if (!isConfirmed(form)) return answer({ confirm: "delete", deleteId: id });
    try {
      await categorization.queries.remove(api, id);
    } catch (error) {
      return answer({ toast: failureToast(T.deleteFailed, error) }, statusOf(error));
    }
    const next = queryId && queryId !== id ? queryUrl(queryId, { select: "1" }) : "/categorization?select=1";
    return flash.redirectWithSuccess(next, T.deleteCompleted);
  }

  if (intent === "cancelJob") {
    try {
      await categorization.cancelJob(api, textOf(form, "job"));
    } catch (error) {
      return answer({ toast: failureToast(T.cancelFailed, error) }, statusOf(error));
    }
    return flash.redirectWithSuccess(queryId ? queryUrl(queryId) : "/categorization", T.jobCancelled);
  }

  if (intent === "applyAll") {
    try {
      await categorization.applyAll(api);
    } catch (error) {
      return answer({ toast: failureToast(T.applyFailed, error) }, statusOf(error));
    }
    return flash.redirectWithSuccess(queryId ? queryUrl(queryId) : "/categorization", T.triggered.applyAll);
  }

  // The editor's own buttons: Save, and the jobs on the saved query (Add tag(s), Remove tag(s), Cleanup).
  if (!queryId) return answer({ notice: CATEGORIZATION.noQueries }, 400);
  const saved: Query = await categorization.queries.getOr404(api, queryId);
  const values = valuesOf(form);
  const errors = queryProblems(values, "save");

  if (intent === "save") {
    if (hasProblems(errors)) return answer({ values, errors }, 400);
    try {
      await categorization.queries.update(api, queryId, { name: values.name.trim(), tags: values.tags, text: values.text });
    } catch (error) {
      return answer({ values, toast: failureToast(T.updateFailed, error) }, statusOf(error));
    }
    return flash.redirectWithSuccess(queryUrl(queryId), T.updateCompleted);
  }

  if (intent === "apply" || intent === "remove" || intent === "cleanup") {
    const savedValues = { name: saved.name, tags: saved.tags, text: saved.text };
    if (isDirty(values, savedValues)) return answer({ values, notice: CATEGORIZATION.dirtyReason }, 409);
    if (hasProblems(errors)) return answer({ values, errors }, 400);
    if (intent === "remove" && !isConfirmed(form)) return answer({ values, confirm: "remove" });
    try {
      if (intent === "apply") await categorization.apply(api, queryId);
      else if (intent === "remove") await categorization.remove(api, queryId);
      else await categorization.prune(api, queryId);
    } catch (error) {
      return answer({ values, toast: failureToast(T.applyFailed, error) }, statusOf(error));
    }
    const triggered = { apply: T.triggered.apply, remove: T.triggered.remove, cleanup: T.triggered.prune }[intent];
    return flash.redirectWithSuccess(queryUrl(queryId), triggered);
  }

  return json({ message: "Unknown action." }, { status: 400 });
}

/** The link that downloads a started export (categorization.csv's loader streams it). */
const exportHref = (token: string) => `/categorization/csv?${new URLSearchParams({ export: token })}`;

/** What starting a query text's CSV comes to: the download's link, or the refusal with everything typed. */
type CsvStart = { token: string } | { status: number; answer: ActionAnswer & { toast: ToastData } };

/**
 * Starts the CSV of a query text's results (highlight, aggs, size and from dropped: the export's size is 10,000):
 * checked here and by the upstream before anything downloads, so a refusal is the screen's toast with the editor as
 * it was, never a page of its own (the download is a navigation: a refused one would replace the screen).
 */
async function startCsv(api: Api, values: QueryValues): Promise<CsvStart> {
  const errors = queryProblems(values, "run");
  if (hasProblems(errors)) {
    const reason = errors.text?.[0] ?? errors.name?.[0] ?? "";
    return { status: 400, answer: { values, errors, toast: { type: "error", message: T.csvFailed, description: reason } } };
  }
  const { highlight: _h, aggs: _a, aggregations: _g, size: _s, from: _f, ...body } = JSON.parse(values.text) as AdvancedSearchBody;
  void [_h, _a, _g, _s, _f];
  try {
    return { token: await categorization.startExport(api, body) };
  } catch (error) {
    return { status: statusOf(error), answer: { values, toast: failureToast(T.csvFailed, error) } };
  }
}

/**
 * The screen's resource routes (CSV, job progress, tag suggestions) need what the screen needs (its route table
 * entry); without it, a plain 404 (no page to render the not-found view in).
 */
async function requireScreen(args: LoaderFunctionArgs | ActionFunctionArgs) {
  const signed = await requireUser(args);
  const permission = matchRoute("/categorization")?.permission;
  if (permission === undefined || (permission !== null && !can(signed.identity.permissions, permission))) throw notFound();
  return signed;
}

/**
 * /categorization/csv (POST `text`, JSON): the editor's download CSV with JavaScript, of the query as edited (spec 2
 * §7): `{ href }` to download, or `{ toast }` to show on the screen. Without JavaScript the button posts the screen's
 * own action (intent `csv`), which redirects to the same link or answers the screen with the toast.
 */
export async function categorizationCsvAction(args: ActionFunctionArgs) {
  const { api } = await requireScreen(args);
  const form = await readForm(args.request);
  const started = await startCsv(api, valuesOf(form));
  return "token" in started ? json({ href: exportHref(started.token) }) : json({ toast: started.answer.toast }, { status: started.status });
}

/**
 * /categorization/csv (GET): `?export=<token>`, a started CSV, streamed; `?query=<id>`, a saved query's CSV. A refusal
 * goes back to the screen with the toast (a link holds nothing unsaved).
 */
export async function categorizationCsvLoader(args: LoaderFunctionArgs) {
  const { api } = await requireScreen(args);
  const params = new URL(args.request.url).searchParams;
  const token = params.get("export");
  const id = params.get("query");
  const back = id ? queryUrl(id) : "/categorization";
  if (!token && !id) return redirect(back);
  let started = token;
  if (!started) {
    const saved = await categorization.queries.getOr404(api, id!);
    const answer = await startCsv(api, { name: saved.name, tags: saved.tags, text: saved.text });
    if (!("token" in answer)) {
      const { message, description } = answer.answer.toast;
      return toasts(args.context).redirectWithError(back, { message, description });
    }
    started = answer.token;
  }
  return downloadOrBack(args, back, T.csvFailed, () => categorization.openExport(api, started));
}

/** /categorization/suggest?q= (GET, JSON): tag suggestions for the query's tags (GET /api/suggest/tags). */
export async function categorizationSuggestLoader(args: LoaderFunctionArgs) {
  const { api } = await requireScreen(args);
  const q = (new URL(args.request.url).searchParams.get("q") ?? "").trim().slice(0, 200);
  if (!q) return json([] as string[]);
  try {
    const tags = await api.get(TagSuggestions, "/api/suggest/tags", { q });
    return json([...new Set(tags)], { headers: { "Cache-Control": "private, max-age=10" } });
  } catch (error) {
    rethrowResponse(error);
    return json([] as string[]);
  }
}

/** /categorization/jobs?query= (GET, JSON): the progress panel's polling. */
export async function categorizationJobsLoader(args: LoaderFunctionArgs) {
  const { api, timeZone } = await requireScreen(args);
  const id = new URL(args.request.url).searchParams.get("query") ?? "";
  if (!id) return json([] as JobView[]);
  return json(await jobsOf(api, id, timeZone), { headers: { "Cache-Control": "no-store" } });
}
