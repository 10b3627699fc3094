import type { Db } from "../upstream/src/db";
import { JOB_STATUSES } from "../upstream/src/queue/types";

/**
 * Fills `queue` with `n` jobs straight through SQL (fast): mostly completed, every 7th failed, every 11th queued,
 * over 50 customer numbers, every 97th unmatched. Used by the 100,000-job test and bench/queues.ts.
 */
export function fillJobs(db: Db, queue: string, n: number, start = 1_700_000_000_000) {
  const insert = db.prepare(
    `insert into jobs (queue, id, status, priority, run_at, customer_number, message, created_at, updated_at, is_unmatched)
     values (?, ?, ?, ?, 0, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const status = JOB_STATUSES[i % 7 === 0 ? 3 : i % 11 === 0 ? 0 : 4]!;
      const message = status === "failed" ? `The patent office has no application ${10_000_000 + i}.` : null;
      insert.run(queue, String(10_000_000 + i), status, i % 5, `C${i % 50}`, message, start + i, start + i, i % 97 === 0 ? 1 : 0);
    }
  })();
}
