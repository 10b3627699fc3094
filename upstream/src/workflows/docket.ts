/**
 * The docket: milestones filtered, sorted and paged in SQL (every filter and sort an index of schema.ts serves), one
 * milestone with its tasks in order, its history and notes, task completion (recorded in the request; the engine moves
 * the milestone on from the job queue), step statistics and task counts for the template editor.
 */
import { type z } from "zod";
import type { Db } from "../db";
import { prepared } from "../lib/collection";
import { HttpError, badRequest, conflict, isoNow, notFound } from "../lib/http";
import { can } from "../../contract/permissions";
import { TERMINAL_TASK_STATUSES, WORKFLOW_MESSAGES as M } from "../../contract/workflow-constants";
import { EVENT_CODES } from "../../contract/workflow-contracts";
import { type Form } from "../../contract/milestone-templates";
import {
  LIST_OPEN_TASKS,
  type Milestone,
  type MilestoneDetail,
  type MilestoneListItem,
  type MilestoneListQuery,
  type OpenTaskSummary,
  type Task,
  type TaskCompletion,
} from "../../contract/milestones";
import type { Page } from "../../contract/common";
import { queueWorkflowEvent } from "./events";
import type { TemplatesStore, WorkflowsStore } from "./store";

type Row = Record<string, unknown>;

const ORDER: Record<z.output<typeof MilestoneListQuery>["sort"], string> = {
  // Plain columns so that the indexes (…, due_at, id) serve the order (a milestone without a due date sorts first).
  dueAt: "m.due_at asc, m.id asc",
  "-dueAt": "m.due_at desc, m.id desc",
  createdAt: "m.created_at asc, m.id asc",
  "-createdAt": "m.created_at desc, m.id desc",
  title: "lower(m.title), m.id",
  reference: "m.reference, m.id",
};

/** Monday 00:00 to the next Monday 00:00 of the week holding `now`, in `timeZone` (an IANA name; UTC when unknown). */
export function weekBounds(now: number, timeZone: string | undefined): [string, string] {
  let offsetMs = 0;
  try {
    if (timeZone) {
      const parts = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" }).formatToParts(new Date(now));
      const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
      offsetMs = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second")) - Math.floor(now / 1000) * 1000;
    }
  } catch {
    offsetMs = 0;
  }
  const local = new Date(now + offsetMs);
  const midnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  const monday = midnight - ((local.getUTCDay() + 6) % 7) * 86_400_000;
  return [new Date(monday - offsetMs).toISOString(), new Date(monday + 7 * 86_400_000 - offsetMs).toISOString()];
}

export class Docket {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly workflows: WorkflowsStore,
    private readonly templates: TemplatesStore,
  ) {}

  private toMilestone(r: Row, titles: Map<string, string>, templateTitles: Map<string, string>): Milestone {
    return {
      id: r.id as string,
      workflowId: r.workflow_id as string,
      workflowTitle: titles.get(r.workflow_id as string) ?? "",
      templateId: r.template_id as string,
      templateTitle: templateTitles.get(r.template_id as string) ?? "",
      reference: r.reference as string,
      clientCode: (r.client_code as string | null) ?? null,
      title: r.title as string,
      status: r.status as Milestone["status"],
      dueAt: (r.due_at as string | null) ?? null,
      clientDueDate: (r.client_due_at as string | null) ?? null,
      assignees: JSON.parse(r.assignees as string) as string[],
      notes: JSON.parse(r.notes as string) as string[],
      hidden: r.hidden === 1,
      openTasks: r.open_tasks as number,
      createdAt: r.created_at as string,
      completedAt: (r.completed_at as string | null) ?? null,
    };
  }

  private templateTitles(ids: readonly string[]): Map<string, string> {
    if (!ids.length) return new Map();
    const rows = prepared(this.db, "select id, title from milestone_templates where id in (select value from json_each(?))").all(JSON.stringify([...new Set(ids)])) as {
      id: string;
      title: string;
    }[];
    return new Map(rows.map((r) => [r.id, r.title]));
  }

  /**
   * The first open tasks (in order) of each of `ids`, in one query over the tasks_milestone index: the docket page
   * shows them under each milestone without asking for each milestone.
   */
  private openTasksOf(ids: readonly string[]): Map<string, OpenTaskSummary[]> {
    const out = new Map<string, OpenTaskSummary[]>();
    if (!ids.length) return out;
    const rows = prepared(
      this.db,
      `select id, milestone_id, title, status, assignees, due_at, critical from (
         select t.*, row_number() over (partition by t.milestone_id order by t.seq) as n from tasks t
         where t.milestone_id in (select value from json_each(?)) and t.status = 'open'
       ) where n <= ? order by milestone_id, seq`,
    ).all(JSON.stringify(ids), LIST_OPEN_TASKS) as Row[];
    for (const r of rows) {
      const id = r.milestone_id as string;
      if (!out.has(id)) out.set(id, []);
      out.get(id)!.push({
        id: r.id as string,
        title: r.title as string,
        status: r.status as Task["status"],
        assignees: JSON.parse(r.assignees as string) as string[],
        dueAt: (r.due_at as string | null) ?? null,
        isCriticalDate: r.critical === 1,
      });
    }
    return out;
  }

  /** One page of the docket for `actor` (mine = the actor is an assignee of the milestone or of one of its tasks). */
  list(query: z.output<typeof MilestoneListQuery>, actor: string, timeZone: string | undefined): Page<MilestoneListItem> {
    const where: string[] = [];
    const params: unknown[] = [];
    const person = query.mine ? actor : query.assignee;
    // A person's docket by due date: read from milestone_people's (person, status, due_at) index, in its order.
    const byPerson = !!person && (query.sort === "dueAt" || query.sort === "-dueAt");
    let from = "milestones m";
    let order = ORDER[query.sort];
    if (byPerson) {
      from = "milestone_people p join milestones m on m.id = p.milestone_id";
      where.push("p.person = ?");
      params.push(person.toLowerCase());
      if (query.status || query.overdue) {
        where.push("p.status = ?");
        params.push(query.overdue ? "open" : query.status);
      }
      if (query.overdue) {
        where.push("p.due_at < ?");
        params.push(isoNow(this.now));
      }
      order = query.sort === "dueAt" ? "p.due_at asc, p.milestone_id asc" : "p.due_at desc, p.milestone_id desc";
    } else if (person) {
      where.push("m.id in (select milestone_id from milestone_people where person = ?)");
      params.push(person.toLowerCase());
    }
    if (query.workflow) {
      where.push("m.workflow_id = ?");
      params.push(query.workflow);
    }
    if (query.status && !byPerson) {
      where.push("m.status = ?");
      params.push(query.status);
    }
    if (query.reference) {
      where.push("m.reference = ?");
      params.push(query.reference);
    }
    const nowIso = isoNow(this.now);
    if (query.overdue && !byPerson) {
      where.push("m.status = 'open' and m.due_at < ?");
      params.push(nowIso);
    }
    if (query.dueThisWeek) {
      const [start, end] = weekBounds(this.now(), timeZone);
      where.push(`${byPerson ? "p" : "m"}.due_at >= ? and ${byPerson ? "p" : "m"}.due_at < ?`);
      params.push(start, end);
    }
    const clause = where.length ? `where ${where.join(" and ")}` : "";
    // Counting a person's docket needs the milestones only for their own conditions (workflow, reference).
    const countFrom = byPerson && where.every((w) => w.startsWith("p.")) ? "milestone_people p" : from;
    const total = (prepared(this.db, `select count(*) as n from ${countFrom} ${clause}`).get(...params) as { n: number }).n;
    const rows = prepared(this.db, `select m.* from ${from} ${clause} order by ${order} limit ${query.pageSize} offset ?`).all(
      ...params,
      (query.page - 1) * query.pageSize,
    ) as Row[];
    const titles = this.workflows.titles();
    const templateTitles = this.templateTitles(rows.map((r) => r.template_id as string));
    const open = this.openTasksOf(rows.filter((r) => (r.open_tasks as number) > 0).map((r) => r.id as string));
    return {
      items: rows.map((r) => ({ ...this.toMilestone(r, titles, templateTitles), openTaskList: open.get(r.id as string) ?? [] })),
      total,
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  /** The form a task's completion fills and the ports it may leave by, from its template's paths. */
  private formOf(templateId: string, stepId: string, port?: string | null): { form: Form | null; ports: string[] } {
    const t = this.templates.get(templateId);
    const paths = (t?.paths ?? []).filter((p) => p.from.step === stepId);
    const ports = [...new Set(paths.map((p) => p.from.port).filter((p): p is string => !!p))];
    const chosen = paths.filter((p) => !port || !p.from.port || p.from.port === port);
    const form = chosen.map((p) => p.from.action.form).find((f): f is Form => !!f && f.properties.length > 0) ?? null;
    return { form, ports };
  }

  private toTask(r: Row): Task {
    const { form, ports } = this.formOf(r.template_id as string, r.step_id as string);
    return {
      id: r.id as string,
      milestoneId: r.milestone_id as string,
      stepId: r.step_id as string,
      title: r.title as string,
      status: r.status as Task["status"],
      assignees: JSON.parse(r.assignees as string) as string[],
      dueAt: (r.due_at as string | null) ?? null,
      durationHours: r.duration_hours as number,
      isCriticalDate: r.critical === 1,
      notes: JSON.parse(r.notes as string) as string[],
      form,
      ports,
      values: r.form_values ? (JSON.parse(r.form_values as string) as Record<string, unknown>) : null,
      createdAt: r.created_at as string,
      completedAt: (r.completed_at as string | null) ?? null,
      completedBy: (r.completed_by as string | null) ?? null,
    };
  }

  get(id: string): MilestoneDetail {
    const r = prepared(this.db, "select * from milestones where id = ?").get(id) as Row | undefined;
    if (!r) throw notFound(M.milestoneNotFound);
    const base = this.toMilestone(r, this.workflows.titles(), this.templateTitles([r.template_id as string]));
    const tasks = (prepared(this.db, "select * from tasks where milestone_id = ? order by seq").all(id) as Row[]).map((t) => this.toTask(t));
    const history = (prepared(this.db, "select * from milestone_history where milestone_id = ? order by id").all(id) as Row[]).map((h) => ({
      at: h.at as string,
      actor: (h.actor as string | null) ?? null,
      kind: h.kind as MilestoneDetail["history"][number]["kind"],
      text: h.text as string,
      eventId: (h.event_id as string | null) ?? null,
      taskId: (h.task_id as string | null) ?? null,
    }));
    return { ...base, variables: JSON.parse(r.variables as string) as Record<string, unknown>, tasks, history };
  }

  /**
   * Completes an open task with its form's values (checked against the form): the task, its milestone's variables
   * (properties saved to `{{milestone.variables.X}}`) and the history change now, in one transaction that also queues
   * the task's `workflow.next` event; the engine follows the paths from the job queue. A task's assignee may complete
   * it with docketing_tasks.read; anyone holding docketing_tasks may complete any task.
   */
  complete(taskId: string, input: z.output<typeof TaskCompletion>, actor: { email: string; permissions: string[] }): { task: Task; eventId: string } {
    return this.db.transaction(() => {
      const r = prepared(this.db, "select t.*, m.reference, m.client_code, m.title as milestone_title, m.variables from tasks t join milestones m on m.id = t.milestone_id where t.id = ?").get(taskId) as
        | Row
        | undefined;
      if (!r) throw notFound(M.taskNotFound);
      const assignees = JSON.parse(r.assignees as string) as string[];
      const mayComplete = can(actor.permissions, "docketing_tasks") || assignees.includes(actor.email.toLowerCase()) || assignees.length === 0;
      if (!mayComplete) throw new HttpError(403, M.notAssignee);
      if (r.status !== "open") throw conflict(M.taskNotOpen);
      const { form, ports } = this.formOf(r.template_id as string, r.step_id as string, input.port);
      if (input.port && ports.length && !ports.includes(input.port)) throw badRequest(`port: ${input.port} is not a way out of this task`);
      const values = checkValues(form, input.values);
      const at = isoNow(this.now);
      prepared(this.db, "update tasks set status = 'completed', form_values = ?, port = ?, completed_at = ?, completed_by = ? where id = ?").run(
        JSON.stringify(values),
        input.port ?? null,
        at,
        actor.email,
        taskId,
      );
      const variables = JSON.parse(r.variables as string) as Record<string, unknown>;
      let saved = false;
      for (const p of form?.properties ?? []) {
        const m = /^\{\{\s*milestone\.variables\.([\w$]+)\s*\}\}$/.exec(p.saveTo);
        const key = p.property || p.name;
        if (m && key in values) {
          variables[m[1]!] = values[key];
          saved = true;
        }
      }
      prepared(this.db, `update milestones set open_tasks = max(open_tasks - 1, 0), ${saved ? "variables = ?, " : ""}updated_at = ? where id = ?`).run(
        ...(saved ? [JSON.stringify(variables)] : []),
        at,
        r.milestone_id,
      );
      prepared(this.db, "insert into milestone_history (milestone_id, at, actor, kind, text, event_id, task_id) values (?, ?, ?, 'task.completed', ?, null, ?)").run(
        r.milestone_id,
        at,
        actor.email,
        `${r.title as string} completed by ${actor.email}`,
        taskId,
      );
      const { id: eventId } = queueWorkflowEvent(
        this.db,
        {
          id: `task:${taskId}`,
          code: EVENT_CODES.next,
          reference: r.reference as string,
          clientCode: (r.client_code as string | null) ?? null,
          source: "workflow-form",
          actor: actor.email,
          data: {
            taskId,
            port: input.port ?? null,
            taskTitle: r.title as string,
            milestoneTitle: r.milestone_title as string,
            completedBy: actor.email,
            completedAt: at,
            form: values as Record<string, unknown>,
          },
        },
        this.now,
      );
      const task = this.toTask(prepared(this.db, "select * from tasks where id = ?").get(taskId) as Row);
      return { task, eventId };
    })();
  }

  /** Tasks of one step by status (the editor's counts per status and its '99+' badges). */
  statistics(templateId: string, stepId: string): { status: Task["status"]; count: number }[] {
    return prepared(this.db, "select status, count(*) as count from tasks where template_id = ? and step_id = ? group by status order by status").all(templateId, stepId) as {
      status: Task["status"];
      count: number;
    }[];
  }

  /** Tasks of one step not in a terminal status (a step may be deleted only when there are none). */
  openCount(templateId: string, stepId: string): number {
    return (
      prepared(this.db, `select count(*) as n from tasks where template_id = ? and step_id = ? and status not in (${TERMINAL_TASK_STATUSES.map((s) => `'${s}'`).join(", ")})`).get(
        templateId,
        stepId,
      ) as { n: number }
    ).n;
  }

  /** Applies a step's notification or critical-date option to its open tasks; how many changed. */
  applyStepOptions(templateId: string, stepId: string, change: { notify?: string; critical?: boolean }): number {
    const sets: string[] = [];
    const params: unknown[] = [];
    if (change.notify !== undefined) {
      sets.push("notify = ?");
      params.push(change.notify);
    }
    if (change.critical !== undefined) {
      sets.push("critical = ?");
      params.push(change.critical ? 1 : 0);
    }
    if (!sets.length) return 0;
    return prepared(this.db, `update tasks set ${sets.join(", ")} where template_id = ? and step_id = ? and status = 'open'`).run(...params, templateId, stepId).changes;
  }

  openMilestonesOf(templateId: string): number {
    return (prepared(this.db, "select count(*) as n from milestones where template_id = ? and status = 'open'").get(templateId) as { n: number }).n;
  }

  /** How many matters of a client code the docket knows (the clone dialog's count per reference). */
  referenceCount(clientCode: string): number {
    return (prepared(this.db, "select count(*) as n from workflow_references where client_code = ?").get(clientCode) as { n: number }).n;
  }
}

const TYPE_CHECK: Record<string, (v: unknown) => boolean> = {
  number: (v) => typeof v === "number" && Number.isFinite(v),
  boolean: (v) => typeof v === "boolean",
  date: (v) => typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v),
  datetime: (v) => typeof v === "string" && Number.isFinite(Date.parse(v)),
  people: (v) => Array.isArray(v) && v.every((x) => typeof x === "string"),
};

/**
 * The values of a form as stored: only its properties (by their camel-cased `property`, else the name), required ones
 * present, each of its type (a number, a boolean, a date, a list of people; text otherwise). 400 naming the first
 * problem.
 */
function checkValues(form: Form | null, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of form?.properties ?? []) {
    const key = p.property || p.name;
    const v = values[key];
    const empty = v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);
    if (empty) {
      if (p.required && p.type !== "boolean") throw badRequest(`${key}: ${M.formRequired(p.name)}`);
      continue;
    }
    const check = TYPE_CHECK[p.type] ?? ((x: unknown) => typeof x === "string" || (p.multiple && Array.isArray(x)));
    if (!check(v)) throw badRequest(`${key}: ${M.formType(p.name, p.type)}`);
    if (typeof v === "string" && v.length > 100_000) throw badRequest(`${key}: ${p.name} is too long`);
    out[key] = v;
  }
  return out;
}
