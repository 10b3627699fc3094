/**
 * A process running one queue's worker, for the kill -9 test (queue.test.ts). argv: dataDir, mode.
 * mode "hang": prints "started <id>" and never finishes a job. mode "finish": completes every job, prints "done <id>".
 */
import { openDatabase } from "../../upstream/src/db";
import { SqliteJobQueue } from "../../upstream/src/queue/sqlite-queue";
import { QueueWorker } from "../../upstream/src/queue/worker";

const [dataDir, mode] = process.argv.slice(2);
const db = openDatabase(dataDir!);
const jobs = new SqliteJobQueue(db);
const worker = new QueueWorker({
  queue: "processing",
  jobs,
  concurrency: 1,
  leaseMs: 1500,
  pollMs: 50,
  handler: async (job) => {
    if (mode === "hang") {
      process.stdout.write(`started ${job.id}\n`);
      await new Promise(() => undefined);
    }
    process.stdout.write(`done ${job.id}\n`);
    return { message: `finished by ${process.pid}` };
  },
});
worker.start();
setInterval(() => undefined, 1000);
