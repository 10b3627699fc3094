/**
 * Loaders and actions of the processing, USPTO and FIP dashboards and the USPTO configuration. Thin routes
 * call these. Every action is a plain POST (intent + fields) answered with a redirect and a flash toast, or with the
 * inline confirmation step / field errors when there is something to show on the same page.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import {
  DEFAULT_STATUS_FILTER,
  DURATION_PRESETS,
  FIP_FILTERS,
  FIP_SORTS,
  PROCESSING_SORTS,
  PROCESSING_STATUSES,
  QUEUE_CONSTANTS,
  USPTO_SORTS,
  USPTO_STATUSES,
  cronError,
  extractProcessingIds,
  extractUsptoIds,
  parseDuration,
  timeoutMinutes,
  type CustomerSyncResult,
  type FipCollection,
  type FipRecord,
  type QueueCollection,
  type UsptoConfig,
} from "@contract/queues";
import { requireRoute, requireWrite } from "~/auth/guard.server";
import { failureToast, isConfirmed, reasonOf, intentOf, rethrowResponse } from "~/lib/actions.server";
import { TRY_LATER } from "~/lib/form-texts";
import { readForm, textOf } from "~/lib/form.server";
import { formatDateTime } from "~/lib/format";
import { readPrefs, writePrefs } from "~/lib/prefs.server";
import { toasts } from "~/lib/toast.server";
import { QUEUE_TEXTS as T } from "./texts";

const Collection = z.custom<QueueCollection>((v) => typeof v === "object" && v !== null && "data" in v);
const FipList = z.custom<FipCollection>((v) => typeof v === "object" && v !== null && "data" in v);
const Fip = z.custom<FipRecord>((v) => typeof v === "object" && v !== null && "fipId" in v);
const Config = z.custom<UsptoConfig>((v) => typeof v === "object" && v !== null && "schedule" in v);
const CustomerResult = z.custom<CustomerSyncResult>((v) => typeof v === "object" && v !== null && "updated" in v);
const Anything = z.unknown();

/** Sync-result toasts last 10 s (spec 2 §8). */
const RESULT_TOAST_MS = 10_000;

type View = { statuses: string[]; sort: string; unmatched: boolean; page: number; setCookie: string | null };

/**
 * The list's filters and sort: from the URL when its GET form sent them (`filtered=1`), remembered in the prefs cookie
 * (docs/decisions/prefs-cookie.md), else the defaults. The page is 1-based (`page`).
 */
async function viewOf(
  args: LoaderFunctionArgs,
  listId: string,
  o: { statuses: readonly string[]; sorts: readonly string[]; defaults: readonly string[]; defaultSort: string },
): Promise<View> {
  const url = new URL(args.request.url);
  const prefs = await readPrefs(args.request, args.context);
  const sent = url.searchParams.get("filtered") === "1";
  const key = (name: string) => `${listId}.${name}`;
  const statuses = sent
    ? o.statuses.filter((s) => url.searchParams.getAll("status").includes(s))
    : (prefs.filters[key("status")] ?? [...o.defaults]).filter((s) => o.statuses.includes(s));
  const urlSort = url.searchParams.get("sort");
  const sort = urlSort && o.sorts.includes(urlSort) ? urlSort : (prefs.filters[key("sort")]?.[0] ?? o.defaultSort);
  const unmatched = sent ? url.searchParams.get("unmatched") === "1" : prefs.filters[key("unmatched")]?.[0] === "1";
  const page = Math.min(Math.max(1, Number(url.searchParams.get("page")) || 1), 500_000);
  const next = { [key("status")]: statuses, [key("sort")]: [sort], [key("unmatched")]: [unmatched ? "1" : "0"] };
  const changed = Object.entries(next).some(([k, v]) => JSON.stringify(prefs.filters[k] ?? null) !== JSON.stringify(v));
  const setCookie = (sent || urlSort) && changed ? await writePrefs({ ...prefs, filters: { ...prefs.filters, ...next } }, args.context) : null;
  return { statuses, sort, unmatched, page, setCookie };
}

const headersOf = (...cookies: (string | null)[]) => {
  const headers = new Headers();
  for (const c of cookies) if (c) headers.append("Set-Cookie", c);
  return headers;
};

/** The time the data was read, for the no-JavaScript "Data read at" line. */
const readAt = (timeZone: string) => formatDateTime(new Date().toISOString(), timeZone);

function inspected(url: URL, data: { id: string; message: string | null; stack?: string | null }[]) {
  const id = url.searchParams.get("inspect");
  const job = id ? data.find((j) => j.id === id) : undefined;
  return job ? { id: job.id, message: job.message ?? "", stack: job.stack ?? "" } : null;
}

export type QueueKind = "processing" | "uspto";

export async function queueLoader(args: LoaderFunctionArgs, kind: QueueKind) {
  const { api, may, setCookie, timeZone } = await requireRoute(args);
  const url = new URL(args.request.url);
  const view = await viewOf(args, kind, {
    statuses: kind === "processing" ? PROCESSING_STATUSES : USPTO_STATUSES,
    sorts: kind === "processing" ? PROCESSING_SORTS : USPTO_SORTS,
    defaults: DEFAULT_STATUS_FILTER,
    defaultSort: "status",
  });
  const size = kind === "processing" ? QUEUE_CONSTANTS.processingPageSize : QUEUE_CONSTANTS.usptoPageSize;
  const skip = (view.page - 1) * size;
  // Not remembered: a search is for now, the filters for every visit.
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, QUEUE_CONSTANTS.maxSearch);
  const collection =
    kind === "processing"
      ? await api.get(Collection, "/api/dispatcher/", { skip, limit: size, status: view.statuses.join(","), sort: view.sort, q })
      : await api.post(Collection, "/api/uspto/downloads/sorted", {
          skip,
          limit: size,
          status: view.statuses,
          isUnmatched: view.unmatched,
          sort: view.sort,
          q,
        });
  const rows = collection.data.map((j) => ({
    ...j,
    created: formatDateTime(j.createdAt, timeZone),
    updated: formatDateTime(j.updatedAt, timeZone),
    changed: j.applicationChangedAt ? formatDateTime(j.applicationChangedAt, timeZone) : "",
  }));
  return json(
    {
      kind,
      ...collection,
      data: rows,
      view: { statuses: view.statuses, sort: view.sort, unmatched: view.unmatched, page: view.page, pageSize: size, q },
      tab: url.searchParams.get("tab") === "customers" ? ("customers" as const) : ("summary" as const),
      // Inspect on the USPTO dashboard needs `uspto` (spec 2 §6); on processing, viewing is enough.
      inspect: kind === "processing" || may.write ? inspected(url, collection.data) : null,
      readAt: readAt(timeZone),
      may,
    },
    { headers: headersOf(setCookie, view.setCookie) },
  );
}

/** Back to the page the form was posted from (its filters and page kept). */
function backTo(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete("inspect");
  url.searchParams.delete("index");
  return `${url.pathname}${url.search}`;
}

const apiId = (id: string) => encodeURIComponent(id);

export async function queueAction(args: ActionFunctionArgs, kind: QueueKind) {
  const { api } = await requireWrite(args);
  const form = await readForm(args.request);
  const intent = intentOf(form);
  const to = backTo(args.request);
  const t = toasts(args.context);
  const base = kind === "processing" ? "/api/dispatcher" : "/api/uspto/downloads";
  const scheduleIds = (ids: string[]) =>
    kind === "processing" ? api.post(Anything, `${base}/schedule`, { applications: ids }) : api.post(Anything, base, { applications: ids });
  const id = textOf(form, "id").slice(0, 100);
  const fail = (message: string, error: unknown) => t.redirectWithError(to, failureToast(message, error));
  // The rows ticked for a bulk action (checkboxes named `ids`), at most a page's worth.
  const ids = form
    .getAll("ids")
    .map((v) => String(v).slice(0, 100))
    .filter(Boolean)
    .slice(0, QUEUE_CONSTANTS.maxSelected);

  switch (intent) {
    case "pause":
    case "resume":
      try {
        await api.send("POST", `${base}/${intent}`);
        return t.redirectWithSuccess(to, intent === "pause" ? T.processingPaused : T.processingResumed);
      } catch (error) {
        return fail(intent === "pause" ? T.pauseFailed : T.resumeFailed, error);
      }
    case "preview":
    case "schedule": {
      const text = textOf(form, "text").slice(0, QUEUE_CONSTANTS.maxScheduleText);
      const ids = (kind === "processing" ? extractProcessingIds : extractUsptoIds)(text).slice(0, QUEUE_CONSTANTS.maxSchedule);
      if (intent === "preview" || !ids.length) {
        return json({ schedule: { text, ids, error: ids.length ? null : T.noneExtracted } }, { status: ids.length ? 200 : 400 });
      }
      try {
        await scheduleIds(ids);
        return t.redirectWithSuccess(to, { message: T.scheduleCompleted, description: `${ids.length} scheduled.` });
      } catch (error) {
        return json({ schedule: { text, ids, error: null }, toast: failureToast(T.scheduleFailed, error) }, { status: 502 });
      }
    }
    case "requeue":
      try {
        await scheduleIds([id]);
        return t.redirectWithSuccess(to, T.requeueCompleted);
      } catch (error) {
        return fail(T.requeueFailed, error);
      }
    case "delete":
      if (!isConfirmed(form)) return json({ confirm: "delete", id });
      try {
        await api.send("DELETE", `${base}/${apiId(id)}`);
        return t.redirectWithSuccess(to, T.deleteCompleted);
      } catch (error) {
        return fail(T.deleteFailed, error);
      }
    case "requeue-selected":
      if (!ids.length) return t.redirectWithError(to, { message: T.requeueFailed, description: T.noneSelected });
      try {
        await scheduleIds(ids);
        return t.redirectWithSuccess(to, { message: T.requeueCompleted, description: T.requeuedCount(ids.length) });
      } catch (error) {
        return fail(T.requeueFailed, error);
      }
    case "delete-selected": {
      if (!ids.length) return t.redirectWithError(to, { message: T.deleteFailed, description: T.noneSelected });
      if (!isConfirmed(form)) return json({ confirm: "delete-selected", ids });
      // One call per job (the API deletes one at a time); a job that cannot go (in progress, gone) does not stop the rest.
      const refused: string[] = [];
      let last: unknown = null;
      for (const one of ids) {
        try {
          await api.send("DELETE", `${base}/${apiId(one)}`);
        } catch (error) {
          rethrowResponse(error);
          refused.push(one);
          last = error;
        }
      }
      if (!refused.length) return t.redirectWithSuccess(to, { message: T.deleteCompleted, description: T.deletedCount(ids.length) });
      const why = failureToast(T.deleteFailed, last);
      return t.redirectWithError(to, { ...why, description: `${T.notDeleted(refused)} ${why.description ?? ""}`.trim() });
    }
    case "requeue-failed":
      try {
        const r = (await api.post(Anything, `${base}/requeue-failed`)) as { requeued: number };
        return t.redirectWithSuccess(to, { message: T.requeueCompleted, description: T.requeuedCount(r.requeued) });
      } catch (error) {
        return fail(T.requeueFailed, error);
      }
  }
  if (kind === "uspto") return usptoAction(args, form, intent, id, to);
  throw json({ message: "Unknown action" }, { status: 400 });
}

const CONFIRMED = new Set(["sync", "sync-customers", "remove-unmatched", "delete-cache"]);

async function usptoAction(args: ActionFunctionArgs, form: FormData, intent: string, id: string, to: string) {
  const { api } = await requireWrite(args);
  const t = toasts(args.context);
  if (CONFIRMED.has(intent) && !isConfirmed(form)) return json({ confirm: intent });
  const fail = (message: string, error: unknown) => t.redirectWithError(to, { ...failureToast(message, error), duration: RESULT_TOAST_MS });
  switch (intent) {
    case "priority": {
      const priority = Number(textOf(form, "priority"));
      try {
        await api.put(Anything, `/api/uspto/downloads/${apiId(id)}`, { priority: Number.isInteger(priority) ? priority : textOf(form, "priority") });
        return t.redirectWithSuccess(to, T.priorityUpdated);
      } catch (error) {
        return fail(T.updatePriorityFailed, error);
      }
    }
    case "sync":
      try {
        const r = (await (await api.raw("GET", "/api/uspto/sync")).json()) as { inProgress: boolean; queued?: number };
        const description = r.inProgress ? T.syncContinues : T.syncQueued(r.queued ?? 0);
        return t.redirectWithSuccess(to, { message: T.syncStarted, description, duration: RESULT_TOAST_MS });
      } catch (error) {
        return fail(T.syncFailed, error);
      }
    case "sync-customers":
      try {
        const r = await api.post(CustomerResult, "/api/uspto/sync/customer-numbers");
        const description = [T.customersResult(r), r.errors.length ? T.customersErrors(r.errors) : ""].filter(Boolean).join(". ");
        return r.errors.length
          ? t.redirectWithError(to, { message: T.syncCustomersFailed, description, duration: RESULT_TOAST_MS })
          : t.redirectWithSuccess(to, { message: T.syncStarted, description, duration: RESULT_TOAST_MS });
      } catch (error) {
        return fail(T.syncCustomersFailed, error);
      }
    case "remove-unmatched":
      try {
        const r = (await api.post(Anything, "/api/uspto/sync/delete")) as { deleted: number };
        return t.redirectWithSuccess(to, T.removeUnmatchedDone(r.deleted));
      } catch (error) {
        return fail(T.deleteFailed, error);
      }
    case "delete-cache":
      try {
        await api.send("DELETE", "/api/uspto/sync/cache");
        return t.redirectWithSuccess(to, T.deleteCompleted);
      } catch (error) {
        return fail(T.deleteFailed, error);
      }
  }
  throw json({ message: "Unknown action" }, { status: 400 });
}

// ---------------------------------------------------------------- configuration

export async function configLoader(args: LoaderFunctionArgs) {
  const { api, may, setCookie, timeZone } = await requireRoute(args);
  let config: UsptoConfig | null = null;
  let loadError: string | null = null;
  try {
    config = await api.get(Config, "/api/uspto/config");
  } catch (error) {
    rethrowResponse(error);
    loadError = reasonOf(error);
  }
  const nextRuns = (config?.schedule.nextRuns ?? []).map((iso) => ({ iso, text: formatDateTime(iso, timeZone) }));
  return json({ config, nextRuns, loadError, may }, { headers: headersOf(setCookie) });
}

type FieldError = { field: string; message: string; value: string };

/** The duration a form field posts: a chosen preset, else the typed text, else the builder's parts (intent *-build). */
function durationOf(form: FormData, field: string, build: boolean): { ms: number } | { error: string } | null {
  if (build) {
    const part = (name: string, max: number) => Math.min(Math.max(0, Math.floor(Number(textOf(form, `${field}-${name}`)) || 0)), max);
    return { ms: part("d", 30) * 86_400_000 + part("h", 23) * 3_600_000 + part("m", 59) * 60_000 + part("s", 59) * 1000 };
  }
  const preset = textOf(form, `${field}-preset`);
  if (preset !== "" && DURATION_PRESETS.some((p) => String(p.ms) === preset)) return { ms: Number(preset) };
  const text = textOf(form, field).slice(0, 100);
  if (!text.trim()) return null;
  return parseDuration(text);
}

export async function configAction(args: ActionFunctionArgs) {
  const { api } = await requireWrite(args);
  const form = await readForm(args.request);
  const intent = intentOf(form);
  const to = backTo(args.request);
  const t = toasts(args.context);
  const invalid = (e: FieldError) => json({ fieldError: e }, { status: 400 });
  const save = async (path: string, body: unknown, failure: string, field: string, value: string) => {
    try {
      await api.post(Anything, path, body);
      return t.redirectWithSuccess(to, T.updateCompleted);
    } catch (error) {
      rethrowResponse(error);
      return json(
        { fieldError: { field, message: reasonOf(error), value }, toast: failureToast(failure, error) },
        { status: 400 },
      );
    }
  };
  switch (intent) {
    case "schedule":
    case "schedule-build": {
      const value =
        intent === "schedule"
          ? textOf(form, "schedule").trim().slice(0, 200)
          : ["minute", "hour", "dom", "month", "dow"].map((p) => textOf(form, `cron-${p}`).trim().slice(0, 40) || "*").join(" ");
      if (!value) return invalid({ field: "schedule", message: T.emptyCron, value });
      const problem = cronError(value);
      if (problem) return invalid({ field: "schedule", message: problem, value });
      return save("/api/uspto/config/schedule", { newCron: value }, T.updateScheduleFailed, "schedule", value);
    }
    case "timeout": {
      const value = textOf(form, "timeout").trim().slice(0, 20);
      const ms = Number(value);
      if (!value || !Number.isFinite(ms) || ms <= 0) return invalid({ field: "timeout", message: T.emptyTimeout, value });
      return save("/api/uspto/config/request-timeout", { timeoutMinutes: Math.min(timeoutMinutes(ms), QUEUE_CONSTANTS.maxTimeoutMinutes) }, T.updateTimeoutFailed, "timeout", value);
    }
    case "repeat":
    case "repeat-build":
    case "delay":
    case "delay-build": {
      const field = intent.startsWith("repeat") ? "repeat" : "delay";
      const empty = field === "repeat" ? T.emptyInterval : T.emptyDelay;
      const value = textOf(form, field).slice(0, 100);
      const parsed = durationOf(form, field, intent.endsWith("-build"));
      if (!parsed) return invalid({ field, message: empty, value });
      if ("error" in parsed) return invalid({ field, message: parsed.error, value });
      return field === "repeat"
        ? save("/api/uspto/config/download-repeat", { intervalMs: parsed.ms }, T.updateRepeatFailed, field, value)
        : save("/api/uspto/config/too-many-requests-delay", { delayMs: parsed.ms }, T.updateDelayFailed, field, value);
    }
  }
  throw json({ message: "Unknown action" }, { status: 400 });
}

// ---------------------------------------------------------------- FIP

export async function fipLoader(args: LoaderFunctionArgs) {
  const { api, may, setCookie, timeZone } = await requireRoute(args);
  const url = new URL(args.request.url);
  const view = await viewOf(args, "fip", { statuses: FIP_FILTERS, sorts: FIP_SORTS, defaults: FIP_FILTERS, defaultSort: "asc" });
  const size = QUEUE_CONSTANTS.fipPageSize;
  const list = await api.post(FipList, "/api/fip/matters/sorted", {
    skip: (view.page - 1) * size,
    limit: size,
    status: view.statuses,
    sort: view.sort,
  });
  const id = url.searchParams.get("inspect");
  const found = id ? list.data.find((m) => m.id === id && !m.synchronized && m.error) : undefined;
  return json(
    {
      ...list,
      data: list.data.map((m) => ({
        ...m,
        created: formatDateTime(m.createdAt, timeZone),
        updated: formatDateTime(m.updatedAt, timeZone),
      })),
      view: { statuses: view.statuses, sort: view.sort, page: view.page, pageSize: size },
      inspect: found ? { id: found.id, message: found.error ?? "" } : null,
      readAt: readAt(timeZone),
      may,
    },
    { headers: headersOf(setCookie, view.setCookie) },
  );
}

export async function fipAction(args: ActionFunctionArgs) {
  const { api } = await requireWrite(args);
  const form = await readForm(args.request);
  const intent = intentOf(form);
  const to = backTo(args.request);
  const t = toasts(args.context);
  const fipId = textOf(form, "fipId").slice(0, 120);
  const matterNumber = textOf(form, "matterNumber").slice(0, 120);
  switch (intent) {
    case "sync":
      try {
        const m = await api.get(Fip, `/api/fip/matters/byFipId/${encodeURIComponent(fipId)}`);
        return m.synchronized
          ? t.redirectWithSuccess(to, T.syncMatterDone)
          : t.redirectWithError(to, {
              message: T.syncMatterFailed,
              description: `${T.syncMatterFailedText(m.fipId, m.matterNumber || matterNumber)} ${TRY_LATER}`,
            });
      } catch (error) {
        rethrowResponse(error);
        return t.redirectWithError(to, { message: T.syncMatterFailed, description: `${T.syncMatterFailedText(fipId, matterNumber)} ${TRY_LATER}` });
      }
    case "delete": {
      const id = textOf(form, "id").slice(0, 100);
      if (!isConfirmed(form)) return json({ confirm: "delete", id });
      try {
        await api.send("DELETE", `/api/fip/matters/${encodeURIComponent(id)}`);
        return t.redirectWithSuccess(to, T.deleteCompleted);
      } catch (error) {
        return t.redirectWithError(to, failureToast(T.deleteFailed, error));
      }
    }
  }
  throw json({ message: "Unknown action" }, { status: 400 });
}
