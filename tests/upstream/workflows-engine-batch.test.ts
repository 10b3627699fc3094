/**
 * The docket engine's batches (upstream/src/workflows/worker.ts): several events per transaction must keep each event
 * processed once, a failing event must not take its neighbours down (nor be committed half), a process killed
 * mid-batch must lose whole events only; and the docket list carries each milestone's open tasks.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { pageOf } from "@contract/common";
import { LIST_OPEN_TASKS, MilestoneListItem } from "@contract/milestones";
import { openDatabase, type Db } from "../../upstream/src/db";
import { SqliteJobQueue } from "../../upstream/src/queue/sqlite-queue";
import { WorkflowEngine } from "../../upstream/src/workflows/engine";
import { WORKFLOW_QUEUE, queueWorkflowEvent } from "../../upstream/src/workflows/events";
import { TemplatesStore, WorkflowsStore } from "../../upstream/src/workflows/store";
import { EngineWorker } from "../../upstream/src/workflows/worker";
import { harness, type Harness } from "./helpers";
import { activeTemplate, complete, createWorkflow, emit, g, json } from "./workflows-helpers";

const MAIL = "correspondence.recieved";

/** A template making one milestone with one task per mail; the upstream then closed so that only our worker runs. */
async function engineOnly(): Promise<{ h: Harness; db: Db }> {
  const h = await harness();
  const w = await createWorkflow(h, { title: "W" });
  await activeTemplate(h, w.id, {
    title: "T",
    uniqueness: "repeatable",
    events: [{ code: MAIL, action: { title: "{{subject}}", assignees: ["para@firm.com"] } }],
    steps: [g.step("start", "milestone-start"), g.step("a", "task"), g.step("finish", "finish")],
    paths: [g.path("start", "a"), g.path("a", "finish")],
  });
  h.up.close();
  return { h, db: openDatabase(h.dir) };
}

function setup(db: Db, clock: { t: number }, hooks: ConstructorParameters<typeof WorkflowEngine>[4] = {}) {
  const now = () => clock.t;
  const engine = new WorkflowEngine(db, now, new WorkflowsStore(db, now), new TemplatesStore(db, now), hooks);
  const jobs = new SqliteJobQueue(db, now);
  const worker = new EngineWorker({ db, engine, jobs, maxBatch: 50, budgetMs: 1_000_000 });
  const queue = (id: string, reference = "R-1", subject = id) =>
    db.transaction(() => queueWorkflowEvent(db, { id, code: MAIL, reference, source: "api", data: { subject } }, now))();
  const count = (sql: string, ...params: unknown[]) => (db.prepare(sql).get(...params) as { n: number }).n;
  const milestonesOf = (eventId: string) => count("select count(*) as n from milestones where event_id = ?", eventId);
  const job = (id: string) => jobs.get(WORKFLOW_QUEUE, id)!;
  return { engine, jobs, worker, queue, count, milestonesOf, job };
}

describe("the docket engine's batches", () => {
  test("an idempotency key twice in one batch is one event and one milestone; a processed event requeued is not processed again", async () => {
    const { db } = await engineOnly();
    try {
      const clock = { t: Date.now() };
      const s = setup(db, clock);
      expect(s.queue("k-1")).toEqual({ id: "k-1", created: true });
      expect(s.queue("k-1")).toEqual({ id: "k-1", created: false });
      s.queue("k-2");
      // Both events in one batch: one milestone each, the repeated key not processed twice.
      expect(s.worker.runBatch()).toBe(2);
      expect(s.milestonesOf("k-1")).toBe(1);
      expect(s.milestonesOf("k-2")).toBe(1);
      expect(s.count("select count(*) as n from tasks")).toBe(2);
      expect(s.job("k-1").status).toBe("completed");
      // The same event applied twice inside one transaction (as a batch would if its job were given twice).
      s.queue("k-3");
      const twice = s.engine.batch(() => [s.engine.apply("k-3"), s.engine.apply("k-3")]);
      expect(twice[0]!.milestones).toHaveLength(1);
      expect(twice[1]).toEqual(twice[0]);
      expect(s.milestonesOf("k-3")).toBe(1);
      // A processed event's job given again (requeued) in a batch beside a new event: only the new one creates.
      s.jobs.enqueue(WORKFLOW_QUEUE, [{ id: "k-1" }]);
      s.queue("k-4");
      expect(s.worker.runBatch()).toBe(3); // k-1 again, k-3's job (never completed by the direct apply) and k-4
      expect(s.milestonesOf("k-1")).toBe(1);
      expect(s.milestonesOf("k-3")).toBe(1);
      expect(s.milestonesOf("k-4")).toBe(1);
      expect(s.count("select count(*) as n from milestones")).toBe(4);
      expect(s.count("select open_tasks as n from milestones where event_id = 'k-4'")).toBe(1);
      expect(s.count("select count(*) as n from jobs where queue = ? and status = 'completed'", WORKFLOW_QUEUE)).toBe(4);
    } finally {
      db.close();
    }
  });

  test("a failing event rolls back only itself: its neighbours' milestones commit, it is retried alone later", async () => {
    const { db } = await engineOnly();
    try {
      const clock = { t: Date.now() };
      let failing = true;
      const s = setup(db, clock, {
        afterMilestoneInsert: (id) => {
          const ref = (db.prepare("select reference from milestones where id = ?").get(id) as { reference: string }).reference;
          if (failing && ref === "BOOM") throw new Error("boom");
        },
      });
      s.queue("f-1", "R-1");
      s.queue("f-2", "BOOM");
      s.queue("f-3", "R-3");
      expect(s.worker.runBatch()).toBe(3);
      // The neighbours: whole milestones, processed, their jobs completed.
      for (const id of ["f-1", "f-3"]) {
        expect(s.milestonesOf(id)).toBe(1);
        expect(s.job(id).status).toBe("completed");
        expect(db.prepare("select status from workflow_events where id = ?").get(id)).toEqual({ status: "processed" });
      }
      // The failing one: nothing of it written (its milestone row, tasks, history, people), still queued, its job failed.
      expect(s.count("select count(*) as n from milestones where reference = 'BOOM'")).toBe(0);
      expect(s.count("select count(*) as n from milestone_history where event_id = 'f-2'")).toBe(0);
      expect(s.count("select count(*) as n from tasks")).toBe(2);
      expect(s.count("select count(*) as n from milestone_people")).toBe(2);
      expect(db.prepare("select status from workflow_events where id = 'f-2'").get()).toEqual({ status: "queued" });
      expect(s.job("f-2")).toMatchObject({ status: "failed", attempts: 1, message: "boom" });
      // Not before its backoff; then alone, once.
      expect(s.worker.runBatch()).toBe(0);
      failing = false;
      clock.t += 60_000;
      expect(s.worker.runBatch()).toBe(1);
      expect(s.milestonesOf("f-2")).toBe(1);
      expect(s.job("f-2").status).toBe("completed");
      expect(s.count("select count(*) as n from milestones")).toBe(3);
    } finally {
      db.close();
    }
  });

  test("a process killed mid-batch commits none of the batch; the next worker processes each event once", async () => {
    const { h, db } = await engineOnly();
    try {
      const clock = { t: Date.now() };
      const s = setup(db, clock);
      for (const id of ["c-1", "c-2", "c-3"]) s.queue(id, `R-${id}`);
      const child = path.resolve("tests/upstream/workflows-engine-batch-child.ts");
      const run = (mode: string, waitFor: string) => {
        const p = spawn(process.execPath, ["--import", "tsx", child, h.dir, mode], { stdio: ["ignore", "pipe", "inherit"] });
        let out = "";
        const seen = new Promise<void>((resolve, reject) => {
          p.stdout.on("data", (d: Buffer) => {
            out += d.toString();
            if (out.includes(waitFor)) resolve();
          });
          p.on("exit", (code, signal) => (out.includes(waitFor) ? resolve() : reject(new Error(`child exited ${code ?? signal}: ${out}`))));
        });
        const exited = new Promise<string | null>((resolve) => p.on("exit", (_code, signal) => resolve(signal)));
        return { p, seen, exited, out: () => out };
      };
      // Dies inside the batch, after the second event's milestone row (the first event's work done in the same batch).
      const first = run("die", "inserted 2");
      await first.seen;
      expect(await first.exited).toBe("SIGKILL");
      expect(first.out()).toContain("inserted 1");
      expect(s.count("select count(*) as n from milestones")).toBe(0);
      expect(s.count("select count(*) as n from tasks")).toBe(0);
      expect(s.count("select count(*) as n from milestone_history")).toBe(0);
      expect(s.count("select count(*) as n from workflow_events where status = 'queued'")).toBe(3);
      // The claims died with the batch: the jobs wait, with no lease to run out.
      expect(s.count("select count(*) as n from jobs where queue = ? and status = 'queued' and attempts = 0", WORKFLOW_QUEUE)).toBe(3);
      const second = run("finish", "done 3");
      await second.seen;
      second.p.kill("SIGKILL");
      await second.exited;
      expect(s.count("select count(*) as n from milestones")).toBe(3);
      for (const id of ["c-1", "c-2", "c-3"]) expect(s.milestonesOf(id)).toBe(1);
      expect(s.count("select count(*) as n from tasks")).toBe(3);
      expect(s.count("select count(*) as n from workflow_events where status = 'processed'")).toBe(3);
    } finally {
      db.close();
    }
  }, 60_000);
});

describe("the docket list", () => {
  test("carries each milestone's first open tasks (title, status, assignees, due date) and counts them all", async () => {
    const h = await harness();
    const w = await createWorkflow(h, { title: "W" });
    const parallel = Array.from({ length: LIST_OPEN_TASKS + 2 }, (_, i) => `p${i + 1}`);
    await activeTemplate(h, w.id, {
      title: "Many",
      events: [{ code: MAIL, action: { title: "Many", assignees: ["lead@firm.com"] } }],
      steps: [g.step("start", "milestone-start"), ...parallel.map((p) => g.step(p, "task", { durationHours: 2 })), g.step("finish", "finish")],
      paths: [
        ...parallel.map((p, i) => g.path("start", p, { to: { action: { title: `Part ${i + 1}`, assignees: [`p${i + 1}@firm.com`] } } })),
        ...parallel.map((p) => g.path(p, "finish")),
      ],
    });
    await activeTemplate(h, w.id, {
      title: "Two",
      events: [{ code: MAIL, action: { title: "Two", assignees: ["lead@firm.com"] } }],
      steps: [g.step("start", "milestone-start"), g.step("a", "task"), g.step("b", "task"), g.step("j", "and"), g.step("finish", "finish")],
      paths: [g.path("start", "a", { to: { action: { title: "First" } } }), g.path("start", "b", { to: { action: { title: "Second" } } }), g.path("a", "j"), g.path("b", "j"), g.path("j", "finish")],
    });
    await emit(h, { code: MAIL, reference: "L-1", data: {} });
    const list = async () => {
      const page = pageOf(MilestoneListItem).parse(await json(await h.call("GET", "/api/workflows/milestones?reference=L-1&sort=title", { token: h.adminToken }), 200));
      return new Map(page.items.map((m) => [m.title, m]));
    };
    let byTitle = await list();
    const many = byTitle.get("Many")!;
    expect(many.openTasks).toBe(LIST_OPEN_TASKS + 2);
    expect(many.openTaskList.map((t) => t.title)).toEqual(parallel.slice(0, LIST_OPEN_TASKS).map((_, i) => `Part ${i + 1}`));
    expect(many.openTaskList[0]).toMatchObject({ status: "open", assignees: ["p1@firm.com"], isCriticalDate: false });
    // Two hours after the milestone was made (the harness's clock).
    expect(many.openTaskList[0]!.dueAt).toBe(new Date(h.clock.t + 2 * 3_600_000).toISOString());
    const two = byTitle.get("Two")!;
    expect(two.openTaskList.map((t) => [t.title, t.assignees])).toEqual([
      ["First", ["lead@firm.com"]],
      ["Second", ["lead@firm.com"]],
    ]);
    // A completed task leaves the list; a finished milestone carries none.
    await complete(h, two.openTaskList[0]!.id);
    byTitle = await list();
    expect(byTitle.get("Two")!.openTaskList.map((t) => t.title)).toEqual(["Second"]);
    await complete(h, byTitle.get("Two")!.openTaskList[0]!.id);
    byTitle = await list();
    expect(byTitle.get("Two")).toMatchObject({ status: "completed", openTasks: 0, openTaskList: [] });
  });
});
