import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { pageOf } from "@contract/common";
import { FormsResource } from "@contract/forms";
import { can } from "@contract/permissions";
import { MILESTONE_STATUSES } from "@contract/workflow-constants";
import { type Form } from "@contract/milestone-templates";
import { WorkflowsResource } from "@contract/workflows";
import { type Milestone, MILESTONE_SORTS, MilestoneDetail, MilestoneListItem, MilestoneListQuery, type OpenTaskSummary, Task, WorkflowEvent } from "@contract/milestones";
import { notFound, requireRoute, type RouteAccess } from "~/auth/guard.server";
import { failed, reasonOf, statusOf } from "~/lib/actions.server";
import { files } from "~/lib/files.server";
import { formatDateTime } from "~/lib/format";
import { readForm, textOf } from "~/lib/form.server";
import { orNotFound } from "~/lib/resource.server";
import { sanitizeRichText } from "~/lib/rich-text.server";
import { toasts } from "~/lib/toast.server";
import { isUpstreamError, type Api } from "~/lib/upstream.server";
import { shownValue, taskFormSchema, inputOfKey, valueKey, valuesOf } from "./task-form";
import { MILESTONES } from "./texts";

/**
 * The docket's loaders and action (docs/decisions/docket-screen.md): the list's filters and sort live in the URL
 * under MilestoneListQuery's own names and go to the upstream as they are; a milestone's page shows its tasks, history
 * and notes, and completes a task with the form its path defines.
 */

const PATH = "/api/workflows/milestones";
const MilestonePage = pageOf(MilestoneListItem);
const CompleteAnswer = z.object({ task: Task, eventId: z.string() });
const WorkflowTitles = pageOf(z.object({ id: z.string(), title: z.string() }).passthrough());
const FormTitles = pageOf(z.object({ id: z.string(), name: z.string() }).passthrough());

export type ListQuery = z.output<typeof MilestoneListQuery>;

/**
 * The docket's query from the list's search params. With no filter in the URL (the menu's link) it is the paralegal's
 * morning: their own open milestones, soonest due first. The filter form always sends `filtered=1`, so an unticked
 * "Only mine" or "Any status" is told apart from "nothing chosen yet". A value the contract refuses is dropped.
 */
export function docketQuery(params: URLSearchParams): ListQuery {
  const sent = params.has("filtered");
  const text = (name: string) => params.get(name)?.trim() || undefined;
  const input: Record<string, string | undefined> = {
    mine: sent ? (params.get("mine") === "true" ? "true" : "false") : (text("mine") ?? (params.has("assignee") ? "false" : "true")),
    assignee: text("assignee"),
    workflow: text("workflow"),
    overdue: text("overdue"),
    dueThisWeek: text("dueThisWeek"),
    status: sent ? text("status") : (text("status") ?? "open"),
    reference: text("reference"),
    sort: text("sort"),
    page: text("page"),
  };
  if (input.status === "any") input.status = undefined;
  for (let tries = 0; tries < 10; tries++) {
    const parsed = MilestoneListQuery.safeParse(input);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) input[String(issue.path[0])] = undefined;
  }
  return MilestoneListQuery.parse({});
}

/** The query as search params: what the filter form, the count links and a milestone's `from` carry. */
export function docketSearch(q: ListQuery, change: Partial<ListQuery> = {}): string {
  const next = { ...q, ...change };
  const out = new URLSearchParams({ filtered: "1" });
  if (next.mine) out.set("mine", "true");
  if (next.assignee) out.set("assignee", next.assignee);
  if (next.workflow) out.set("workflow", next.workflow);
  if (next.overdue) out.set("overdue", "true");
  if (next.dueThisWeek) out.set("dueThisWeek", "true");
  out.set("status", next.status ?? "any");
  if (next.reference) out.set("reference", next.reference);
  out.set("sort", next.sort);
  if (next.page > 1) out.set("page", String(next.page));
  return out.toString();
}

const toUpstream = (q: ListQuery): Record<string, string | number | undefined> => ({
  mine: q.mine ? "true" : undefined,
  assignee: q.mine ? undefined : q.assignee,
  workflow: q.workflow,
  overdue: q.overdue ? "true" : undefined,
  dueThisWeek: q.dueThisWeek ? "true" : undefined,
  status: q.status,
  reference: q.reference,
  sort: q.sort,
  page: q.page,
  pageSize: q.pageSize,
});

/** The docket's calls to the upstream (spec 3 §7, the contract's milestone shapes). */
export const docket = {
  list: (api: Api, q: ListQuery) => api.get(MilestonePage, PATH, toUpstream(q)),
  get: (api: Api, id: string) => api.get(MilestoneDetail, `${PATH}/${encodeURIComponent(id)}`),
  event: (api: Api, id: string) => api.get(WorkflowEvent, `/api/workflows/events/${encodeURIComponent(id)}`),
  complete: (api: Api, taskId: string, body: { port?: string; values: Record<string, unknown> }) =>
    api.post(CompleteAnswer, `/api/workflows/tasks/${encodeURIComponent(taskId)}/complete`, body),
};

/** Where the user's week ends (next Monday 00:00 in `timeZone`), for the "Due this week" badge. */
function endOfWeek(now: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", weekday: "short" }).formatToParts(new Date(now));
  const get = (t: Intl.DateTimeFormatPartTypes) => parts.find((x) => x.type === t)?.value ?? "";
  const wall = Date.UTC(Number(get("year")), Number(get("month")) - 1, Number(get("day")), Number(get("hour")), Number(get("minute")), Number(get("second")));
  const offset = wall - Math.floor(now / 1000) * 1000;
  const weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].indexOf(get("weekday"));
  const midnight = Date.UTC(Number(get("year")), Number(get("month")) - 1, Number(get("day")));
  return midnight + (7 - Math.max(0, weekday)) * 86_400_000 - offset;
}

export type Urgency = "overdue" | "week" | null;

/** How pressing an open date is: past (overdue), before the week ends, or neither. */
function urgencyOf(iso: string | null, open: boolean, now: number, weekEnd: number): Urgency {
  if (!iso || !open) return null;
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return null;
  if (at < now) return "overdue";
  return at < weekEnd ? "week" : null;
}

type Dates = { timeZone: string; now: number; weekEnd: number };

function taskRow(t: OpenTaskSummary, d: Dates) {
  return {
    id: t.id,
    title: t.title,
    status: t.status,
    assignees: t.assignees,
    dueAt: formatDateTime(t.dueAt, d.timeZone),
    urgency: urgencyOf(t.dueAt, t.status === "open", d.now, d.weekEnd),
    critical: t.isCriticalDate,
  };
}

function milestoneRow(m: Milestone, d: Dates, tasks: OpenTaskSummary[] | null) {
  const open = m.status === "open";
  return {
    id: m.id,
    title: m.title,
    reference: m.reference,
    clientCode: m.clientCode,
    workflowId: m.workflowId,
    workflowTitle: m.workflowTitle,
    templateTitle: m.templateTitle,
    status: m.status,
    dueAt: formatDateTime(m.dueAt, d.timeZone),
    clientDueDate: formatDateTime(m.clientDueDate, d.timeZone),
    urgency: urgencyOf(m.dueAt, open, d.now, d.weekEnd),
    openTaskCount: m.openTasks,
    openTasks: (tasks ?? []).filter((t) => t.status === "open").map((t) => taskRow(t, d)),
  };
}
export type MilestoneRow = ReturnType<typeof milestoneRow>;

/** The workflows to filter by: all of them for a reader of workflows, else those the page shows (and the chosen one). */
async function workflowOptions(access: RouteAccess, shown: Milestone[], chosen: string | undefined) {
  if (can(access.identity.permissions, "workflows.read")) {
    const page = await access.api.get(WorkflowTitles, WorkflowsResource.path, { sort: "name", pageSize: 200 });
    return page.items.map((w) => ({ value: w.id, label: w.title }));
  }
  const known = new Map(shown.map((m) => [m.workflowId, m.workflowTitle]));
  if (chosen && !known.has(chosen)) known.set(chosen, chosen);
  return [...known].map(([value, label]) => ({ value, label }));
}

/**
 * The docket (/milestones): one page of milestones as the URL's filters ask, each with its open tasks, and the
 * overdue and due-this-week counts of the same person and workflow (what the morning starts with).
 */
export async function milestonesLoader(args: LoaderFunctionArgs) {
  const access = await requireRoute(args);
  const { api, timeZone } = access;
  const q = docketQuery(new URL(args.request.url).searchParams);
  const scope: ListQuery = { ...q, overdue: false, dueThisWeek: false, status: "open", page: 1, pageSize: 1 };
  const [first, overdue, week] = await Promise.all([
    docket.list(api, q),
    docket.list(api, { ...scope, overdue: true }),
    docket.list(api, { ...scope, dueThisWeek: true }),
  ]);
  // A page past the end (an old link) is the last one.
  const last = Math.max(1, Math.ceil(first.total / q.pageSize));
  const page = q.page > last && first.total > 0 ? await docket.list(api, { ...q, page: last }) : first;
  const workflows = await workflowOptions(access, page.items, q.workflow);
  const now = Date.now();
  const dates: Dates = { timeZone, now, weekEnd: endOfWeek(now, timeZone) };
  return json({
    query: { ...q, page: page.page },
    search: docketSearch({ ...q, page: page.page }),
    total: page.total,
    pageSize: page.pageSize,
    // Each milestone's first open tasks come with the list answer (one query per page upstream).
    rows: page.items.map((m) => milestoneRow(m, dates, m.openTaskList)),
    counts: {
      overdue: overdue.total,
      overdueHref: `?${docketSearch(q, { overdue: true, dueThisWeek: false, status: "open", page: 1 })}`,
      week: week.total,
      weekHref: `?${docketSearch(q, { overdue: false, dueThisWeek: true, status: "open", page: 1 })}`,
    },
    workflows,
    me: access.identity.email,
    sorts: MILESTONE_SORTS,
    statuses: MILESTONE_STATUSES,
  });
}

/** A list's search string as a milestone page carries it (`from`): bounded, and only the docket's own params. */
function fromOf(url: URL): { q: ListQuery; from: string } {
  const raw = (url.searchParams.get("from") ?? "").slice(0, 2_000);
  const q = docketQuery(new URLSearchParams(raw));
  return { q, from: docketSearch(q) };
}

/** The milestone after `id` on the docket page it was opened from (the top one when it has left that page). */
async function nextOnDocket(api: Api, q: ListQuery, id: string): Promise<{ id: string; title: string } | null> {
  const page = await docket.list(api, q);
  const at = page.items.findIndex((m) => m.id === id);
  let next = at < 0 ? page.items.find((m) => m.id !== id) : page.items[at + 1];
  if (!next && at >= 0 && page.page * page.pageSize < page.total) {
    next = (await docket.list(api, { ...q, page: q.page + 1 })).items[0];
  }
  return next ? { id: next.id, title: next.title } : null;
}

const valueText = (v: unknown): string => {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v).slice(0, 2_000);
};

/** The forms to pick from for a formPicker property: the forms collection, for a reader of forms. */
async function formOptions(access: RouteAccess, tasks: Task[]) {
  const wanted = tasks.some((t) => t.status === "open" && t.form?.properties.some((p) => p.type === "formPicker"));
  if (!wanted || !can(access.identity.permissions, "forms.read")) return null;
  const page = await access.api.get(FormTitles, FormsResource.path, { sort: "name", pageSize: 200 });
  return page.items.map((f) => ({ value: f.id, label: f.name }));
}

/** May this user complete `task`: its assignees (or anyone when it has none), and any holder of docketing_tasks. */
const mayComplete = (t: Task, access: RouteAccess) =>
  t.status === "open" && (can(access.identity.permissions, "docketing_tasks") || t.assignees.length === 0 || t.assignees.includes(access.identity.email.toLowerCase()));

/**
 * A milestone (/milestones/{id}): its details, tasks in order (the open ones with their completion form), history
 * (the creating event, each completion with who and when) and notes (sanitized again here: the upstream may be another
 * implementation). `?event=` is the completion just posted: while the engine has not taken it, the page says so and
 * refreshes itself.
 */
export async function milestoneLoader(args: LoaderFunctionArgs) {
  const access = await requireRoute(args);
  const { api, timeZone } = access;
  const url = new URL(args.request.url);
  const id = args.params.id ?? "";
  const m = await orNotFound(docket.get(api, id));
  const { q, from } = fromOf(url);
  const eventId = url.searchParams.get("event")?.slice(0, 300) || null;
  const createdBy = m.history.find((h) => h.kind === "created" && h.eventId)?.eventId ?? null;
  const [next, event, creator, forms] = await Promise.all([
    nextOnDocket(api, q, m.id),
    eventId ? docket.event(api, eventId).catch(() => null) : Promise.resolve(null),
    createdBy ? docket.event(api, createdBy).catch(() => null) : Promise.resolve(null),
    formOptions(access, m.tasks),
  ]);
  const now = Date.now();
  const dates: Dates = { timeZone, now, weekEnd: endOfWeek(now, timeZone) };
  return json({
    milestone: { ...milestoneRow(m, dates, null), assignees: m.assignees, completedAt: m.completedAt ? formatDateTime(m.completedAt, timeZone) : null },
    tasks: m.tasks.map((t) => ({
      ...taskRow(t, dates),
      notes: t.notes.map(sanitizeRichText),
      form: t.form,
      ports: t.ports,
      values: (t.form?.properties ?? [])
        .filter((p) => t.values && valueKey(p) in t.values)
        .map((p) => ({ label: p.name, value: shownValue(p, t.values?.[valueKey(p)]) })),
      completedAt: t.completedAt ? formatDateTime(t.completedAt, timeZone) : null,
      completedBy: t.completedBy,
      mayComplete: mayComplete(t, access),
    })),
    history: m.history.map((h) => ({
      at: formatDateTime(h.at, timeZone),
      actor: h.actor,
      kind: h.kind,
      text: h.text,
      event: h.eventId && h.eventId === creator?.id ? { code: creator.code, source: creator.source } : null,
    })),
    notes: m.notes.map(sanitizeRichText).filter((n) => n.trim() !== ""),
    variables: Object.entries(m.variables).map(([name, v]) => ({ name, value: valueText(v) })),
    moving: event?.status === "queued",
    from,
    next: next ? { ...next, href: `/milestones/${encodeURIComponent(next.id)}?from=${encodeURIComponent(from)}` } : null,
    formOptions: forms,
  });
}

/**
 * Completes a task (intent=complete): the form its path defines, checked here with the page's schema and again by the
 * upstream (which moves the milestone on from its job queue). Invalid input or a refusal re-renders the page with what
 * was typed (the reply names the task, so only its form shows it); success goes back to the milestone, following the
 * engine's event, with the spec's 'Task(s) updated'.
 */
export async function milestoneAction(args: ActionFunctionArgs) {
  const access = await requireRoute(args);
  const { api, timeZone } = access;
  const id = args.params.id ?? "";
  const form = await readForm(args.request);
  if (textOf(form, "intent") !== "complete") throw json({ message: "Unknown intent" }, { status: 400 });
  const taskId = textOf(form, "taskId");
  const refused = (error: unknown, reply: Record<string, unknown>) =>
    failed({ taskId, ...reply }, { type: "error", message: MILESTONES.toasts.error, description: MILESTONES.toasts.errorMessage }, statusOf(error));

  let task: Task | undefined;
  try {
    task = (await docket.get(api, id)).tasks.find((t) => t.id === taskId);
  } catch (error) {
    if (isUpstreamError(error, 404)) throw notFound();
    return refused(error, { status: "error", error: { "": [reasonOf(error)] } });
  }
  if (!task) throw notFound();
  const schema = taskFormSchema(task.form, task.ports);
  const submission = parseWithZod(form, { schema });
  if (submission.status !== "success") return json({ taskId, ...submission.reply() }, { status: 400 });
  const parsed = submission.value as Record<string, unknown>;
  try {
    const values = await valuesOf(task.form, parsed, timeZone, async (file) => (await files.upload(api, file)).id);
    const port = typeof parsed.port === "string" && parsed.port ? parsed.port : task.ports.length === 1 ? task.ports[0] : undefined;
    const { eventId } = await docket.complete(api, task.id, { port, values });
    const from = fromOf(new URL(args.request.url)).from;
    const to = `/milestones/${encodeURIComponent(id)}?event=${encodeURIComponent(eventId)}&from=${encodeURIComponent(from)}`;
    return toasts(args.context).redirectWithSuccess(to, { message: MILESTONES.toasts.updated, description: MILESTONES.toasts.updatedMessage(1) });
  } catch (error) {
    return refused(error, submission.reply({ fieldErrors: fieldErrorOf(task.form, error) ?? undefined, formErrors: fieldErrorOf(task.form, error) ? undefined : [reasonOf(error)] }));
  }
}

/** An upstream 400 naming a value's key ("filingDate: Filing date is required") as that input's error. */
function fieldErrorOf(taskForm: Form | null, error: unknown): Record<string, string[]> | null {
  if (!isUpstreamError(error, 400)) return null;
  const match = /^([^:\s]+): (.+)$/s.exec(error.message);
  const input = match ? inputOfKey(taskForm, match[1]!) : null;
  return input ? { [input]: [match![2]!] } : null;
}
