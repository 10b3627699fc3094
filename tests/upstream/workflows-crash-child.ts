/**
 * A process running the docket engine's worker, for the kill -9 test (workflows-crash.test.ts). argv: dataDir, mode.
 * mode "die": kills itself with SIGKILL inside the event's transaction, right after the milestone row is written.
 * mode "finish": processes events and prints "done <event id>".
 */
import { openDatabase } from "../../upstream/src/db";
import { SqliteJobQueue } from "../../upstream/src/queue/sqlite-queue";
import { QueueWorker } from "../../upstream/src/queue/worker";
import { WorkflowEngine } from "../../upstream/src/workflows/engine";
import { WORKFLOW_QUEUE } from "../../upstream/src/workflows/events";
import { TemplatesStore, WorkflowsStore } from "../../upstream/src/workflows/store";

const [dataDir, mode] = process.argv.slice(2);
const db = openDatabase(dataDir!);
const engine = new WorkflowEngine(db, Date.now, new WorkflowsStore(db, Date.now), new TemplatesStore(db, Date.now), {
  afterMilestoneInsert: (id) => {
    if (mode !== "die") return;
    process.stdout.write(`inserted ${id}\n`);
    process.kill(process.pid, "SIGKILL");
  },
});
const worker = new QueueWorker({
  queue: WORKFLOW_QUEUE,
  jobs: new SqliteJobQueue(db),
  concurrency: 1,
  leaseMs: 1500,
  pollMs: 50,
  handler: async (job) => {
    engine.process(job.id);
    process.stdout.write(`done ${job.id}\n`);
  },
});
worker.start();
setInterval(() => undefined, 1000);
