/**
 * The docket engine (docs/decisions/workflows.md): an event, taken from the job queue, is matched against the active
 * templates of its matter's workflow (creation event code, then predicates), uniqueness is enforced per matter, and a
 * milestone is created with its due dates, assignees, notes and the tasks reachable from the start. A completed task
 * (its `workflow.next` event) moves its milestone on along the graph: conditional alternatives, the AND join, finish
 * and nowhere. An event's work and its "processed" mark are written together (one transaction, or one savepoint of
 * the worker's batch, worker.ts): an event is processed once, and a process killed mid-way leaves nothing half done
 * (the queue gives the event again).
 */
import crypto from "node:crypto";
import type { Db } from "../db";
import { prepared } from "../lib/collection";
import { isoNow } from "../lib/http";
import { andInputs, isTaskStep, startStep, stepHours } from "../../contract/graph";
import { EVENT_SOURCE_TYPES, WORKFLOW_LIMITS } from "../../contract/workflow-constants";
import { EVENT_CODES } from "../../contract/workflow-contracts";
import { type MilestoneTemplate, type Path, type Step, type TemplateEvent } from "../../contract/milestone-templates";
import { computeDue, interpolate, matches, resolveConditional, resolvePeople, type Scope } from "./expressions";
import { queueWorkflowEvent } from "./events";
import type { TemplatesStore, WorkflowsStore } from "./store";

type EventRow = {
  id: string;
  code: string;
  reference: string;
  client_code: string | null;
  source: string;
  data: string;
  depth: number;
  status: string;
  milestones: string;
  created_by: string | null;
};

type MilestoneRow = {
  id: string;
  workflow_id: string;
  template_id: string;
  reference: string;
  client_code: string | null;
  title: string;
  status: string;
  due_at: string | null;
  client_due_at: string | null;
  assignees: string;
  variables: string;
  created_at: string;
};

type TaskRow = {
  id: string;
  milestone_id: string;
  template_id: string;
  step_id: string;
  title: string;
  status: string;
  assignees: string;
  due_at: string | null;
  previous_task: string | null;
  form_values: string | null;
  port: string | null;
  completed_at: string | null;
  completed_by: string | null;
};

/** A template ready for the engine: its steps by id and its paths by the step they leave. */
type Compiled = { version: number; t: MilestoneTemplate; steps: Map<string, Step>; out: Map<string, Path[]>; codes: Set<string> };

/** Test hooks: called inside the event's transaction (the kill -9 test dies there). */
export type EngineHooks = { afterMilestoneInsert?: (milestoneId: string) => void };

type Follow = { scope: Scope; previousTask: string | null; depth: number };

const MAX_FOLLOW_DEPTH = 64;

/** Random bytes drawn 4 KiB at a time: one call to the system's generator per 256 ids instead of one per id. */
const entropy = { pool: Buffer.alloc(0), at: 0 };

function random16(): Buffer {
  if (entropy.at + 16 > entropy.pool.length) {
    entropy.pool = crypto.randomBytes(4096);
    entropy.at = 0;
  }
  const b = Buffer.from(entropy.pool.subarray(entropy.at, entropy.at + 16));
  entropy.at += 16;
  return b;
}

/**
 * A UUID version 7 (RFC 9562): the time in ms first, then random bits. Milestones and tasks are written in time order,
 * so their primary-key indexes grow at one end instead of touching a random page per insert (at 100,000 milestones
 * and 500,000 tasks those pages no longer fit the page cache).
 */
export function timeOrderedId(now: number): string {
  const b = random16();
  b.writeUIntBE(Math.max(0, Math.floor(now)) % 2 ** 48, 0, 6);
  b[6] = (b[6]! & 0x0f) | 0x70;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export class WorkflowEngine {
  private readonly cache = new Map<string, Compiled>();
  private readonly activeLists = new Map<string, { key: string; list: Compiled[] }>();
  /** Within one event: milestones ended (their branches stop) and each milestone's next task number. */
  private ended = new Set<string>();
  private nextSeq = new Map<string, number>();
  /** Within one event: tasks opened per milestone (its open_tasks written once), people already written per milestone. */
  private opened = new Map<string, number>();
  private people = new Set<string>();
  /**
   * Within one batch (`batch`): the active templates of each workflow and each template's version, read once. The
   * batch holds the database's write lock from its first statement to its commit, so no template changes meanwhile.
   */
  private batchActive: Map<string, Compiled[]> | null = null;
  private batchVersions: Map<string, number | undefined> | null = null;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly workflows: WorkflowsStore,
    private readonly templates: TemplatesStore,
    private readonly hooks: EngineHooks = {},
  ) {}

  /** The template `id` at its current version, compiled once per version. */
  private compiled(id: string, version?: number): Compiled | null {
    const v = version ?? this.versionOf(id);
    if (v === undefined) return null;
    const hit = this.cache.get(id);
    if (hit && hit.version === v) return hit;
    const t = this.templates.get(id);
    if (!t) return null;
    const out = new Map<string, Path[]>();
    for (const p of t.paths) out.set(p.from.step, [...(out.get(p.from.step) ?? []), p]);
    const codes = new Set<string>();
    for (const e of t.events) codes.add(e.code);
    for (const s of t.steps) if (s.code) codes.add(s.code);
    const c: Compiled = { version: v, t, steps: new Map(t.steps.map((s) => [s.id, s])), out, codes };
    this.cache.set(id, c);
    return c;
  }

  private versionOf(id: string): number | undefined {
    if (this.batchVersions?.has(id)) return this.batchVersions.get(id);
    const v = (prepared(this.db, "select version from milestone_templates where id = ?").get(id) as { version: number } | undefined)?.version;
    this.batchVersions?.set(id, v);
    return v;
  }

  /**
   * The active templates of a workflow, by title (a deterministic order for one event creating several): one query of
   * ids and versions per event; the list is rebuilt only when one of them changed.
   */
  private active(workflowId: string): Compiled[] {
    const batched = this.batchActive?.get(workflowId);
    if (batched) return batched;
    const rows = this.templates.activeVersions(workflowId);
    const key = rows.map((r) => `${r.id}:${r.version}`).join(",");
    const hit = this.activeLists.get(workflowId);
    const list = hit && hit.key === key ? hit.list : this.compileActive(workflowId, key, rows);
    this.batchActive?.set(workflowId, list);
    return list;
  }

  private compileActive(workflowId: string, key: string, rows: { id: string; version: number }[]): Compiled[] {
    const list = rows
      .map((r) => this.compiled(r.id, r.version))
      .filter((c): c is Compiled => c !== null)
      .sort((a, b) => (a.t.title < b.t.title ? -1 : a.t.title > b.t.title ? 1 : a.t.id < b.t.id ? -1 : 1));
    this.activeLists.set(workflowId, { key, list });
    return list;
  }

  /** The workflow of a matter: its client code's, else the one its earlier events named, else the default. */
  private workflowOf(reference: string, clientCode: string | null): { workflowId: string | null; clientCode: string | null } {
    let code = clientCode;
    if (code) {
      prepared(this.db, "insert into workflow_references (reference, client_code) values (?, ?) on conflict (reference) do update set client_code = excluded.client_code").run(reference, code);
    } else {
      code = (prepared(this.db, "select client_code from workflow_references where reference = ?").get(reference) as { client_code: string } | undefined)?.client_code ?? null;
    }
    const claimed = code ? this.workflows.byClientCode(code) : null;
    return { workflowId: claimed ?? this.workflows.defaultId(), clientCode: code };
  }

  /**
   * Processes a queued event once; null when it does not exist. Everything it does is one transaction, which also
   * marks it processed and runs `within`.
   */
  process(eventId: string, within?: () => void): { milestones: string[] } | null {
    return this.db.transaction(() => {
      within?.();
      return this.apply(eventId);
    }).immediate();
  }

  /**
   * Runs `work` (which applies several events) inside one transaction, the templates read once for all of them
   * (`batchActive`). The caller's own transaction when there is one.
   */
  batch<T>(work: () => T): T {
    return this.db.transaction(() => {
      this.batchActive = new Map();
      this.batchVersions = new Map();
      try {
        return work();
      } finally {
        this.batchActive = null;
        this.batchVersions = null;
      }
    }).immediate();
  }

  /**
   * An event's work and its "processed" mark, in the caller's transaction (`process`, or a savepoint of the worker's
   * batch): an event already processed gives what it created then, and is not processed again.
   */
  apply(eventId: string): { milestones: string[] } | null {
    if (!this.db.inTransaction) throw new Error("WorkflowEngine.apply runs inside a transaction");
    const ev = prepared(this.db, "select * from workflow_events where id = ?").get(eventId) as EventRow | undefined;
    if (!ev) return null;
    if (ev.status === "processed") return { milestones: JSON.parse(ev.milestones) as string[] };
    const data = JSON.parse(ev.data) as Record<string, unknown>;
    const created: string[] = [];
    this.ended = new Set();
    this.nextSeq = new Map();
    this.opened = new Map();
    this.people = new Set();
    const { workflowId, clientCode } = this.workflowOf(ev.reference, ev.client_code);
    const eventScope: Scope = {
      ...data,
      reference: ev.reference,
      clientCode,
      now: isoNow(this.now),
      event: { ...data, code: ev.code, reference: ev.reference, clientCode },
      ...(ev.code === EVENT_CODES.correspondence ? { email: data } : {}),
    };
    // A completed task moves its milestone on first.
    if (ev.code === EVENT_CODES.next && typeof data.taskId === "string") this.advanceFromTask(data.taskId, ev);
    // Open milestones of the matter: update events (finish, delete) and event-source branches.
    this.updateOpen(ev, eventScope);
    if (workflowId) {
      const active = this.active(workflowId);
      const listened = active.some((o) => o.codes.has(EVENT_CODES.milestoneCreated));
      for (const c of active) {
        const create = c.t.events.find((e) => e.type === "create" && e.code === ev.code && matches(e.predicates, eventScope, this.now()));
        if (!create || !this.uniqueAllows(c.t, ev.reference)) continue;
        created.push(this.createMilestone(c, create, ev, workflowId, clientCode, eventScope, listened));
      }
    }
    for (const id of [...this.opened.keys()]) this.writeOpened(id);
    prepared(this.db, "update workflow_events set status = 'processed', processed_at = ?, milestones = ? where id = ?").run(isoNow(this.now), JSON.stringify(created), ev.id);
    return { milestones: created };
  }

  /** unique: never one before for the matter; uniqueAtTime: none open; repeatable: always. */
  private uniqueAllows(t: MilestoneTemplate, reference: string): boolean {
    if (t.uniqueness === "repeatable") return true;
    const sql =
      t.uniqueness === "unique"
        ? "select 1 from milestones where template_id = ? and reference = ? limit 1"
        : "select 1 from milestones where template_id = ? and reference = ? and status = 'open' limit 1";
    return prepared(this.db, sql).get(t.id, reference) === undefined;
  }

  private milestoneScope(m: MilestoneRow, templateTitle: string): Scope {
    return {
      id: m.id,
      reference: m.reference,
      clientCode: m.client_code,
      title: m.title,
      templateTitle,
      dueAt: m.due_at,
      clientDueDate: m.client_due_at,
      assignees: JSON.parse(m.assignees) as string[],
      createdAt: m.created_at,
      variables: JSON.parse(m.variables) as Record<string, unknown>,
    };
  }

  private history(milestoneId: string, kind: string, text: string, actor: string | null, eventId: string | null, taskId: string | null): void {
    prepared(this.db, "insert into milestone_history (milestone_id, at, actor, kind, text, event_id, task_id) values (?, ?, ?, ?, ?, ?, ?)").run(
      milestoneId,
      isoNow(this.now),
      actor,
      kind,
      text,
      eventId,
      taskId,
    );
  }

  /** A milestone's people (its assignees and its tasks'), each written once per event. */
  private addPeople(milestoneId: string, people: readonly string[], dueAt: string | null): void {
    const add = prepared(this.db, "insert into milestone_people (person, milestone_id, status, due_at) values (?, ?, 'open', ?) on conflict do nothing");
    for (const p of people) {
      const key = `${milestoneId}\n${p.toLowerCase()}`;
      if (this.people.has(key)) continue;
      this.people.add(key);
      add.run(p, milestoneId, dueAt);
    }
  }

  /** The tasks this event opened on a milestone, added to its open_tasks in one statement. */
  private writeOpened(milestoneId: string): void {
    const n = this.opened.get(milestoneId);
    if (!n) return;
    this.opened.delete(milestoneId);
    prepared(this.db, "update milestones set open_tasks = open_tasks + ?, updated_at = ? where id = ?").run(n, isoNow(this.now), milestoneId);
  }

  private createMilestone(
    c: Compiled,
    create: TemplateEvent,
    ev: EventRow,
    workflowId: string,
    clientCode: string | null,
    eventScope: Scope,
    listened: boolean,
  ): string {
    const now = this.now();
    const id = timeOrderedId(now);
    const at = new Date(now).toISOString();
    const action = create.action;
    const title = interpolate(action.title, eventScope).slice(0, WORKFLOW_LIMITS.title) || c.t.title;
    const dueAt = computeDue(action.dueAt, eventScope, now);
    const clientDue = action.clientDueDate ? computeDue(action.clientDueDate, eventScope, now) : null;
    const assignees = resolvePeople(action.assignees, eventScope);
    prepared(
      this.db,
      `insert into milestones (id, workflow_id, template_id, reference, client_code, title, status, due_at, client_due_at, assignees, notes,
       variables, hidden, event_id, open_tasks, created_at, updated_at) values (?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, '{}', ?, ?, 0, ?, ?)`,
    ).run(id, workflowId, c.t.id, ev.reference, clientCode, title, dueAt, clientDue, JSON.stringify(assignees), JSON.stringify(action.notes), c.t.hidden ? 1 : 0, ev.id, at, at);
    this.addPeople(id, assignees, dueAt);
    this.history(id, "created", `Created by the event ${ev.code} (${ev.source})`, ev.created_by, ev.id, null);
    this.hooks.afterMilestoneInsert?.(id);
    this.nextSeq.set(id, 1);
    const m: MilestoneRow = {
      id,
      workflow_id: workflowId,
      template_id: c.t.id,
      reference: ev.reference,
      client_code: clientCode,
      title,
      status: "open",
      due_at: dueAt,
      client_due_at: clientDue,
      assignees: JSON.stringify(assignees),
      variables: "{}",
      created_at: at,
    };
    const start = startStep(c.t);
    if (start) {
      const scope: Scope = { ...eventScope, milestone: this.milestoneScope(m, c.t.title), form: {} };
      this.follow(c, m, start.id, undefined, { scope, previousTask: null, depth: 0 });
    }
    // Other templates may start from this milestone (the `workflow` event source), only when one listens.
    if (ev.depth < WORKFLOW_LIMITS.chainDepth && listened) {
      queueWorkflowEvent(
        this.db,
        {
          code: EVENT_CODES.milestoneCreated,
          reference: ev.reference,
          clientCode,
          source: "workflow",
          depth: ev.depth + 1,
          data: { reference: ev.reference, clientCode, title, templateTitle: c.t.title, dueAt, clientDueDate: clientDue, assignees, createdAt: at, milestoneId: id },
        },
        this.now,
      );
    }
    return id;
  }

  private milestone(id: string): MilestoneRow | undefined {
    return prepared(this.db, "select * from milestones where id = ?").get(id) as MilestoneRow | undefined;
  }

  /** Follows the paths leaving `fromStep` (by `port` when given) whose predicates hold. */
  private follow(c: Compiled, m: MilestoneRow, fromStep: string, port: string | undefined, f: Follow): void {
    if (f.depth > MAX_FOLLOW_DEPTH) return;
    for (const p of c.out.get(fromStep) ?? []) {
      if (port !== undefined && p.from.port !== undefined && p.from.port !== port) continue;
      if (!matches(p.to.action.predicates, f.scope, this.now())) continue;
      if (this.ended.has(m.id)) return;
      this.arrive(c, m, p, f);
    }
  }

  private arrive(c: Compiled, m: MilestoneRow, p: Path, f: Follow): void {
    const step = c.steps.get(p.to.step);
    if (!step) return;
    switch (step.type) {
      case "finish":
        this.finish(m.id, null, "Finished", null);
        return;
      case "nowhere":
        this.history(m.id, "branch.closed", `A branch ended after ${c.steps.get(p.from.step)?.title || p.from.step}`, null, null, f.previousTask);
        return;
      case "and": {
        prepared(this.db, "insert into and_arrivals (milestone_id, step_id, from_step, task_id) values (?, ?, ?, ?) on conflict do nothing").run(
          m.id,
          step.id,
          p.from.step,
          f.previousTask,
        );
        const arrived = new Set(
          (prepared(this.db, "select from_step from and_arrivals where milestone_id = ? and step_id = ?").all(m.id, step.id) as { from_step: string }[]).map(
            (r) => r.from_step,
          ),
        );
        if (!andInputs(c.t, step.id).every((i) => arrived.has(i))) return;
        prepared(this.db, "delete from and_arrivals where milestone_id = ? and step_id = ?").run(m.id, step.id);
        // Past the join there is no single previous task (spec 3 §4.1: the AND step excludes previousTask).
        const { previousTask: _p, thisTask: _t, ...scope } = f.scope;
        this.follow(c, m, step.id, undefined, { scope, previousTask: null, depth: f.depth + 1 });
        return;
      }
      default:
        if (isTaskStep(step)) this.createTask(c, m, step, p, f);
    }
  }

  private createTask(c: Compiled, m: MilestoneRow, step: Step, p: Path, f: Follow): void {
    const now = this.now();
    const at = new Date(now).toISOString();
    const action = p.to.action;
    const title = interpolate(resolveConditional(action.title, f.scope, now) ?? step.title ?? "", f.scope) || step.title || step.id;
    const people = resolveConditional(action.assignees, f.scope, now);
    const assignees = people?.length ? resolvePeople(people, f.scope) : (JSON.parse(m.assignees) as string[]);
    const due = resolveConditional(action.dueAt, f.scope, now);
    const hours = stepHours(step);
    const dueAt = (due ? computeDue(due, f.scope, now) : null) ?? new Date(now + hours * 3_600_000).toISOString();
    const notes = resolveConditional(action.notes, f.scope, now) ?? [];
    const seq = this.nextSeq.get(m.id) ?? ((prepared(this.db, "select max(seq) as n from tasks where milestone_id = ?").get(m.id) as { n: number | null }).n ?? 0) + 1;
    this.nextSeq.set(m.id, seq + 1);
    prepared(
      this.db,
      `insert into tasks (id, milestone_id, template_id, step_id, seq, title, status, assignees, due_at, duration_hours, critical, notify, notes,
       previous_task, created_at) values (?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      timeOrderedId(now),
      m.id,
      c.t.id,
      step.id,
      seq,
      title.slice(0, WORKFLOW_LIMITS.title),
      JSON.stringify(assignees),
      dueAt,
      hours,
      step.isCriticalDate ? 1 : 0,
      step.options.notifications.email,
      JSON.stringify(notes),
      f.previousTask,
      at,
    );
    this.opened.set(m.id, (this.opened.get(m.id) ?? 0) + 1);
    this.addPeople(m.id, assignees, m.due_at);
  }

  /** Completes a milestone: its open tasks are closed. */
  private finish(milestoneId: string, actor: string | null, text: string, eventId: string | null, status: "completed" | "deleted" = "completed"): void {
    this.writeOpened(milestoneId);
    const at = isoNow(this.now);
    prepared(this.db, "update tasks set status = 'closed' where milestone_id = ? and status = 'open'").run(milestoneId);
    prepared(this.db, "update milestones set status = ?, open_tasks = 0, completed_at = ?, updated_at = ? where id = ? and status = 'open'").run(status, at, at, milestoneId);
    prepared(this.db, "update milestone_people set status = ? where milestone_id = ?").run(status, milestoneId);
    this.history(milestoneId, status === "completed" ? "finished" : "deleted", text, actor, eventId, null);
    this.ended.add(milestoneId);
  }

  /** The `workflow.next` of a completed task: its milestone follows the paths leaving the task's step. */
  private advanceFromTask(taskId: string, ev: EventRow): void {
    const task = prepared(this.db, "select * from tasks where id = ?").get(taskId) as TaskRow | undefined;
    if (!task || task.status !== "completed") return;
    const m = this.milestone(task.milestone_id);
    if (!m || m.status !== "open") return;
    const c = this.compiled(m.template_id);
    if (!c) return;
    const previous = task.previous_task ? (prepared(this.db, "select * from tasks where id = ?").get(task.previous_task) as TaskRow | undefined) : undefined;
    const taskScope = (t: TaskRow) => ({
      id: t.id,
      title: t.title,
      status: t.status,
      assignees: JSON.parse(t.assignees) as string[],
      dueAt: t.due_at,
      completedAt: t.completed_at,
      completedBy: t.completed_by,
      values: t.form_values ? (JSON.parse(t.form_values) as unknown) : {},
    });
    const form = task.form_values ? (JSON.parse(task.form_values) as Record<string, unknown>) : {};
    const scope: Scope = {
      reference: m.reference,
      clientCode: m.client_code,
      now: isoNow(this.now),
      thisTask: taskScope(task),
      ...(previous ? { previousTask: taskScope(previous) } : {}),
      milestone: this.milestoneScope(m, c.t.title),
      form,
    };
    this.follow(c, m, task.step_id, task.port ?? undefined, { scope, previousTask: task.id, depth: 0 });
    void ev;
  }

  /** Update events (finish or delete) and event-source branches of the matter's open milestones. */
  private updateOpen(ev: EventRow, eventScope: Scope): void {
    const open = prepared(this.db, "select * from milestones where reference = ? and status = 'open'").all(ev.reference) as MilestoneRow[];
    for (const m of open) {
      const c = this.compiled(m.template_id);
      if (!c || !c.codes.has(ev.code)) continue;
      const scope: Scope = { ...eventScope, milestone: this.milestoneScope(m, c.t.title) };
      for (const e of c.t.events) {
        if (e.type !== "update" || e.code !== ev.code || !matches(e.predicates, scope, this.now())) continue;
        if (e.action.delete) this.finish(m.id, ev.created_by, `Deleted by the event ${ev.code}`, ev.id, "deleted");
        else if (e.action.finish) this.finish(m.id, ev.created_by, `Finished by the event ${ev.code}`, ev.id);
      }
      if (this.ended.has(m.id)) continue;
      for (const s of c.t.steps) {
        if (s.code === ev.code && (EVENT_SOURCE_TYPES as readonly string[]).includes(s.type) && s.type !== "milestone-start") {
          this.follow(c, m, s.id, undefined, { scope: { ...scope, form: {} }, previousTask: null, depth: 0 });
        }
      }
    }
  }
}
