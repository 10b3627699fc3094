import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { openDatabase } from "../../upstream/src/db";
import { queueWorkflowEvent } from "../../upstream/src/workflows/events";
import { harness } from "./helpers";
import { activeTemplate, createWorkflow } from "./workflows-helpers";

describe("the docket engine and kill -9", () => {
  test("a process killed inside an event's transaction leaves no half milestone; the event is processed once, later", async () => {
    const h = await harness();
    const w = await createWorkflow(h, { title: "W" });
    await activeTemplate(h, w.id, { title: "T", events: [{ code: "correspondence.recieved" }] });
    h.up.close(); // its worker must not take the event
    const db = openDatabase(h.dir);
    try {
      db.transaction(() => queueWorkflowEvent(db, { id: "crash-1", code: "correspondence.recieved", reference: "R", source: "api", data: {} }, Date.now))();
      const child = path.resolve("tests/upstream/workflows-crash-child.ts");
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
        return { p, seen, exited };
      };
      const first = run("die", "inserted");
      await first.seen;
      expect(await first.exited).toBe("SIGKILL");
      const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
      // The milestone row written before the kill was never committed.
      expect(count("select count(*) as n from milestones")).toBe(0);
      expect(count("select count(*) as n from tasks")).toBe(0);
      expect(count("select count(*) as n from milestone_history")).toBe(0);
      expect(db.prepare("select status from workflow_events where id = 'crash-1'").get()).toEqual({ status: "queued" });
      expect(db.prepare("select status from jobs where queue = 'workflows' and id = 'crash-1'").get()).toEqual({ status: "inprogress" });
      // Once the dead process's lease runs out, the next worker processes it, once.
      const second = run("finish", "done crash-1");
      await second.seen;
      second.p.kill("SIGKILL");
      await second.exited;
      expect(count("select count(*) as n from milestones")).toBe(1);
      expect(count("select count(*) as n from tasks")).toBe(1);
      expect(db.prepare("select status from workflow_events where id = 'crash-1'").get()).toEqual({ status: "processed" });
    } finally {
      db.close();
    }
  }, 60_000);
});
