import { afterEach, expect, it } from "vitest";
import { openDatabase, type Db } from "../../upstream/src/db";
import { SqliteJobQueue } from "../../upstream/src/queue/sqlite-queue";
import { JOB_STATUSES } from "../../upstream/src/queue/types";
import { tempDir } from "../upstream/helpers";

const dbs: Db[] = [];
afterEach(() => {
  while (dbs.length) dbs.pop()?.close();
});

/** Fills `queue` with `n` jobs spread over statuses and 50 customer numbers, straight through SQL (fast). */
export function fill(db: Db, queue: string, n: number) {
  const insert = db.prepare(
    `insert into jobs (queue, id, status, priority, run_at, customer_number, created_at, updated_at, is_unmatched)
     values (?, ?, ?, ?, 0, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const status = JOB_STATUSES[i % 7 === 0 ? 3 : i % 11 === 0 ? 2 : 4]!; // mostly completed, some failed/inprogress
      insert.run(queue, String(10_000_000 + i), status, i % 5, `C${i % 50}`, 1_700_000_000_000 + i, 1_700_000_000_000 + i, i % 97 === 0 ? 1 : 0);
    }
  })();
}

const time = (f: () => unknown) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};

it("dashboard queries stay cheap at 100,000 jobs (the figure is printed)", () => {
  const db = openDatabase(tempDir());
  dbs.push(db);
  fill(db, "uspto", 100_000);
  db.exec("analyze");
  const q = new SqliteJobQueue(db);
  const figures = {
    counts: time(() => q.counts("uspto")),
    countsByCustomer: time(() => q.countsByCustomer("uspto")),
    pageStatusDefaultFilter: time(() => q.page("uspto", { sort: "status", skip: 0, limit: 20, statuses: ["inprogress", "failed"] })),
    pageNewestAll: time(() => q.page("uspto", { sort: "newest", skip: 0, limit: 20 })),
    pagePriorityFar: time(() => q.page("uspto", { sort: "priority", skip: 50_000, limit: 20 })),
    unmatched: time(() => q.unmatchedCount("uspto")),
    claim: time(() => q.claim("uspto", "w", 4, 1000)),
  };
  console.log("queue at 100,000 jobs (ms):", JSON.stringify(figures, (_k, v: unknown) => (typeof v === "number" ? Math.round(v * 10) / 10 : v)));
  expect(q.counts("uspto").completed).toBeGreaterThan(70_000);
  // Generous bounds on a shared 2-core machine; they catch a lost index (a full sort of 100,000 rows).
  for (const [name, ms] of Object.entries(figures)) expect(ms, name).toBeLessThan(250);
}, 60_000);
