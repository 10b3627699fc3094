/**
 * A process running the docket engine's batch worker, for the kill -9 test of workflows-engine-batch.test.ts.
 * argv: dataDir, mode. "die": prints "inserted N" after each milestone row and kills itself with SIGKILL inside the
 * batch after the second one. "finish": processes events and prints "done N" with the events processed so far.
 */
import { openDatabase } from "../../upstream/src/db";
import { SqliteJobQueue } from "../../upstream/src/queue/sqlite-queue";
import { WorkflowEngine } from "../../upstream/src/workflows/engine";
import { TemplatesStore, WorkflowsStore } from "../../upstream/src/workflows/store";
import { EngineWorker } from "../../upstream/src/workflows/worker";

const [dataDir, mode] = process.argv.slice(2);
const db = openDatabase(dataDir!);
let inserted = 0;
const engine = new WorkflowEngine(db, Date.now, new WorkflowsStore(db, Date.now), new TemplatesStore(db, Date.now), {
  afterMilestoneInsert: () => {
    if (mode !== "die") return;
    process.stdout.write(`inserted ${++inserted}\n`);
    if (inserted === 2) process.kill(process.pid, "SIGKILL");
  },
});
let done = 0;
const worker = new EngineWorker({
  db,
  engine,
  jobs: new SqliteJobQueue(db),
  // All three events in one batch.
  maxBatch: 50,
  budgetMs: 1_000_000,
  pollMs: 50,
  afterBatch: (ids) => {
    done += ids.length;
    if (ids.length) process.stdout.write(`done ${done}\n`);
  },
});
worker.start();
setInterval(() => undefined, 1000);
