import { afterEach, expect, it } from "vitest";
import { openDatabase, type Db } from "../../upstream/src/db";
import { SqliteJobQueue } from "../../upstream/src/queue/sqlite-queue";
import { fillJobs } from "../../bench/queues-fill";
import { tempDir } from "../upstream/helpers";

const dbs: Db[] = [];
afterEach(() => {
  while (dbs.length) dbs.pop()?.close();
});

const time = (f: () => unknown) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};

it("dashboard queries stay cheap at 100,000 jobs (the figure is printed)", () => {
  const db = openDatabase(tempDir());
  dbs.push(db);
  fillJobs(db, "uspto", 100_000);
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
  expect(q.counts("uspto").queued).toBeGreaterThan(5_000);
  // Generous bounds on a shared 2-core machine; they catch a lost index (a full sort of 100,000 rows).
  for (const [name, ms] of Object.entries(figures)) expect(ms, name).toBeLessThan(250);
}, 60_000);
