import { spawn } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "../../upstream/src/db";
import { SqliteJobQueue } from "../../upstream/src/queue/sqlite-queue";
import { PermanentJobError, QueueWorker } from "../../upstream/src/queue/worker";
import type { Job } from "../../upstream/src/queue/types";
import { tempDir } from "../upstream/helpers";

const dbs: Db[] = [];
afterEach(() => {
  while (dbs.length) dbs.pop()?.close();
});

function setup() {
  const clock = { t: 1_000_000 };
  const db = openDatabase(tempDir());
  dbs.push(db);
  return { db, clock, q: new SqliteJobQueue(db, () => clock.t) };
}

const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe("SqliteJobQueue", () => {
  it("claims by priority then age, never while paused, and leases what it claims", () => {
    const { q, clock } = setup();
    q.enqueue("p", [{ id: "a" }, { id: "b", priority: 5 }]);
    clock.t += 1;
    q.enqueue("p", [{ id: "c", priority: 5 }]);
    q.pause("p");
    expect(q.claim("p", "w", 10, 1000)).toEqual([]);
    q.resume("p");
    const claimed = q.claim("p", "w", 2, 1000);
    expect(claimed.map((j) => j.id)).toEqual(["b", "c"]);
    expect(claimed.every((j) => j.status === "inprogress" && j.attempts === 1)).toBe(true);
    expect(q.claim("p", "w", 10, 1000).map((j) => j.id)).toEqual(["a"]);
    expect(q.claim("p", "w", 10, 1000)).toEqual([]);
    // Other queues are separate.
    expect(q.counts("other").queued).toBe(0);
  });

  it("retries with backoff, then dead; a permanent failure stays failed until requeued", () => {
    const { q, clock } = setup();
    q.enqueue("p", [{ id: "a", maxAttempts: 2 }, { id: "b" }]);
    const [a] = q.claim("p", "w", 1, 1000) as [Job];
    q.fail("p", a.id, "w", { message: "boom", stack: "Error: boom" }, 5000);
    expect(q.get("p", "a")).toMatchObject({ status: "failed", message: "boom", stack: "Error: boom", attempts: 1 });
    // b runs while a waits for its backoff
    expect(q.claim("p", "w", 5, 1000).map((j) => j.id)).toEqual(["b"]);
    q.fail("p", "b", "w", new PermanentJobError("USPTO_API_KEY is not set"), null);
    expect(q.get("p", "b")).toMatchObject({ status: "failed", message: "USPTO_API_KEY is not set" });
    clock.t += 5000;
    expect(q.claim("p", "w", 5, 1000).map((j) => j.id)).toEqual(["a"]);
    q.fail("p", "a", "w", { message: "boom again" }, 5000);
    expect(q.get("p", "a")).toMatchObject({ status: "dead", message: "boom again", attempts: 2 });
    clock.t += 60_000;
    expect(q.claim("p", "w", 5, 1000)).toEqual([]); // neither dead nor permanently failed jobs come back alone
    expect(q.requeue("p", "b")).toBe(true);
    expect(q.get("p", "b")).toMatchObject({ status: "requeued", attempts: 0, message: null });
    expect(q.claim("p", "w", 5, 1000).map((j) => j.id)).toEqual(["b"]);
    q.complete("p", "b", "w", { message: null });
    expect(q.get("p", "b")?.status).toBe("completed");
  });

  it("delete and requeue refuse a job in progress; priority only while waiting; outcomes of another owner are ignored", () => {
    const { q } = setup();
    q.enqueue("p", [{ id: "a" }, { id: "b" }]);
    q.claim("p", "w", 1, 1000);
    expect(q.remove("p", "a")).toBe("in-progress");
    expect(q.requeue("p", "a")).toBe(false);
    expect(q.setPriority("p", "a", 3)).toBe("not-waiting");
    expect(q.setPriority("p", "b", 3)).toBe("updated");
    expect(q.setPriority("p", "zz", 3)).toBe("not-found");
    q.complete("p", "a", "someone-else", {});
    expect(q.get("p", "a")?.status).toBe("inprogress");
    expect(q.remove("p", "b")).toBe("deleted");
    expect(q.remove("p", "b")).toBe("not-found");
    // Scheduling an id in progress leaves it running, unless asked to restart it: then the running attempt's outcome
    // is discarded.
    q.enqueue("p", [{ id: "a" }]);
    expect(q.get("p", "a")?.status).toBe("inprogress");
    q.enqueue("p", [{ id: "a" }], { restartRunning: true });
    expect(q.get("p", "a")).toMatchObject({ status: "requeued", attempts: 0 });
    q.complete("p", "a", "w", {});
    expect(q.get("p", "a")?.status).toBe("requeued");
  });

  it("takes back a job whose lease ran out (its owner died) without counting that attempt", () => {
    const { q, clock } = setup();
    q.enqueue("p", [{ id: "a", maxAttempts: 1 }]);
    q.claim("p", "dead-process", 1, 1000);
    clock.t += 999;
    expect(q.claim("p", "w", 1, 1000)).toEqual([]);
    clock.t += 2;
    const [again] = q.claim("p", "w", 1, 1000);
    expect(again).toMatchObject({ id: "a", status: "inprogress", attempts: 1 });
  });

  it("counts per status and customer, sorted pages, unmatched", () => {
    const { q, clock } = setup();
    q.enqueue("u", [
      { id: "1", customerNumber: "100" },
      { id: "2", customerNumber: "100" },
      { id: "3", customerNumber: "200", priority: 9 },
    ]);
    clock.t += 10;
    q.enqueue("u", [{ id: "4" }]);
    q.claim("u", "w", 1, 1000); // 3
    q.fail("u", "3", "w", { message: "x" }, null);
    q.setUnmatched("u", ["1", "4"], true);
    expect(q.counts("u")).toMatchObject({ queued: 3, failed: 1, inprogress: 0 });
    expect(q.countsByCustomer("u")).toEqual([
      { customerNumber: "100", counts: { queued: 2 }, total: 2 },
      { customerNumber: "200", counts: { failed: 1 }, total: 1 },
    ]);
    expect(q.page("u", { sort: "status", skip: 0, limit: 2 }).data.map((j) => j.id)).toEqual(["3", "4"]);
    expect(q.page("u", { sort: "oldest", skip: 1, limit: 2, statuses: ["queued"] })).toMatchObject({ total: 3 });
    expect(q.page("u", { sort: "newest", skip: 0, limit: 1 }).data[0]?.id).toBe("4");
    expect(q.page("u", { sort: "priority", skip: 0, limit: 1 }).data[0]?.id).toBe("3");
    expect(q.page("u", { sort: "newest", skip: 0, limit: 9, isUnmatched: true }).total).toBe(2);
    expect(q.unmatchedCount("u")).toBe(2);
    expect(q.removeUnmatched("u")).toBe(2);
    expect(q.counts("u").queued).toBe(1);
  });
});

describe("QueueWorker", () => {
  it("runs jobs with the concurrency given, retries with backoff, then dead", async () => {
    const { q } = setup();
    const realQueue = new SqliteJobQueue(dbs[0]!);
    let running = 0;
    let peak = 0;
    const worker = new QueueWorker({
      queue: "p",
      jobs: realQueue,
      concurrency: 3,
      pollMs: 10,
      backoffMs: () => 20,
      handler: async (job) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 30));
        running--;
        if (job.id === "bad") throw new Error("always fails");
        return { message: null };
      },
    });
    realQueue.enqueue("p", [...Array.from({ length: 8 }, (_, i) => ({ id: `j${i}` })), { id: "bad", maxAttempts: 3 }]);
    worker.start();
    await until(() => realQueue.counts("p").completed === 8 && realQueue.counts("p").dead === 1);
    await worker.stop();
    expect(peak).toBe(3);
    expect(realQueue.get("p", "bad")).toMatchObject({ status: "dead", attempts: 3, message: "always fails" });
    expect(q.counts("p").dead).toBe(1);
  });

  it("picks up again, after a restart, the job a process killed with kill -9 was running", async () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    dbs.push(db);
    const q = new SqliteJobQueue(db);
    q.enqueue("processing", [{ id: "PCTUS2024012345" }]);
    // node itself (not the tsx wrapper, whose kill would leave its node child running) with the tsx loader.
    const child = path.resolve("tests/queue/queue-child.ts");
    const runChild = (mode: string, waitFor: string) =>
      new Promise<ReturnType<typeof spawn>>((resolve, reject) => {
        const p = spawn(process.execPath, ["--import", "tsx", child, dir, mode], { stdio: ["ignore", "pipe", "inherit"] });
        let out = "";
        p.stdout!.on("data", (d: Buffer) => {
          out += d.toString();
          if (out.includes(waitFor)) resolve(p);
        });
        p.on("exit", (code) => reject(new Error(`child exited ${code}: ${out}`)));
      });
    const first = await runChild("hang", "started PCTUS2024012345");
    expect(q.get("processing", "PCTUS2024012345")?.status).toBe("inprogress");
    first.kill("SIGKILL");
    await new Promise((r) => first.once("exit", r));
    expect(q.get("processing", "PCTUS2024012345")?.status).toBe("inprogress"); // nobody released it
    const second = await runChild("finish", "done PCTUS2024012345");
    await until(() => q.get("processing", "PCTUS2024012345")?.status === "completed");
    second.removeAllListeners("exit");
    second.kill("SIGKILL");
    expect(q.get("processing", "PCTUS2024012345")).toMatchObject({
      status: "completed",
      attempts: 1,
      message: `finished by ${second.pid}`,
    });
  }, 30_000);
});
