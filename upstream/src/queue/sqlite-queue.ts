import type { Db } from "../db";
import {
  JOB_STATUSES,
  type EnqueueInput,
  type Job,
  type JobOutcome,
  type JobQueue,
  type JobSort,
  type JobStatus,
  type PageQuery,
} from "./types";
import { projectRelativeStack } from "./stack";

type Row = {
  queue: string;
  id: string;
  status: JobStatus;
  priority: number;
  attempts: number;
  max_attempts: number;
  run_at: number;
  payload: string;
  message: string | null;
  stack: string | null;
  customer_number: string | null;
  changed_at: string | null;
  is_unmatched: number;
  created_at: number;
  updated_at: number;
};

const COLUMNS =
  "queue, id, status, priority, attempts, max_attempts, run_at, payload, message, stack, customer_number, changed_at, is_unmatched, created_at, updated_at";

function toJob(r: Row): Job {
  return {
    queue: r.queue,
    id: r.id,
    status: r.status,
    priority: r.priority,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    runAt: r.run_at,
    payload: JSON.parse(r.payload) as Record<string, unknown>,
    message: r.message,
    stack: r.stack,
    customerNumber: r.customer_number,
    applicationChangedAt: r.changed_at,
    isUnmatched: r.is_unmatched === 1,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** ORDER BY of each sort; each is served by an index of migration 090_job_queue. */
const ORDER: Record<JobSort, string> = {
  status: "status_rank, created_at desc",
  newest: "created_at desc",
  oldest: "created_at asc",
  priority: "priority desc, created_at asc",
};

const DEFAULT_MAX_ATTEMPTS = 3;

/**
 * The durable queue on SQLite (docs/decisions/job-queue.md). Every method is one short synchronous statement or
 * transaction; the work itself runs in the worker (worker.ts) outside them, so the event loop is never held by a job.
 */
export class SqliteJobQueue implements JobQueue {
  private readonly s;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.s = {
      get: db.prepare<[string, string], Row>(`select ${COLUMNS} from jobs where queue = ? and id = ?`),
      insert: db.prepare(
        `insert into jobs (queue, id, status, priority, attempts, max_attempts, run_at, payload, customer_number, changed_at, created_at, updated_at)
         values (@queue, @id, 'queued', @priority, 0, @maxAttempts, @now, @payload, @customerNumber, @changedAt, @now, @now)
         on conflict (queue, id) do update set
           status = case when status = 'inprogress' and not @restart then status else 'requeued' end,
           priority = case when status = 'inprogress' and not @restart then priority else excluded.priority end,
           attempts = case when status = 'inprogress' and not @restart then attempts else 0 end,
           run_at = excluded.run_at,
           payload = excluded.payload,
           customer_number = coalesce(excluded.customer_number, customer_number),
           changed_at = coalesce(excluded.changed_at, changed_at),
           message = case when status = 'inprogress' and not @restart then message else null end,
           stack = case when status = 'inprogress' and not @restart then stack else null end,
           lease_owner = case when status = 'inprogress' and not @restart then lease_owner else null end,
           lease_until = case when status = 'inprogress' and not @restart then lease_until else null end,
           updated_at = excluded.updated_at`,
      ),
      requeue: db.prepare(
        `update jobs set status = 'requeued', attempts = 0, run_at = ?, message = null, stack = null, lease_owner = null,
         lease_until = null, updated_at = ? where queue = ? and id = ? and status != 'inprogress'`,
      ),
      remove: db.prepare(`delete from jobs where queue = ? and id = ? and status != 'inprogress'`),
      priority: db.prepare(
        `update jobs set priority = ?, updated_at = ? where queue = ? and id = ? and status in ('queued', 'requeued')`,
      ),
      customer: db.prepare(`update jobs set customer_number = ?, updated_at = ? where queue = ? and id = ?`),
      unmatched: db.prepare(`update jobs set is_unmatched = ?, updated_at = ? where queue = ? and id = ?`),
      requeueStatus: db.prepare(
        `update jobs set status = 'requeued', attempts = 0, run_at = ?, message = null, stack = null, lease_owner = null,
         lease_until = null, updated_at = ? where queue = ? and status = ?`,
      ),
      removeUnmatched: db.prepare(`delete from jobs where queue = ? and is_unmatched = 1 and status != 'inprogress'`),
      unmatchedCount: db.prepare<[string], { n: number }>(`select count(*) as n from jobs where queue = ? and is_unmatched = 1`),
      paused: db.prepare<[string], { paused: number }>(`select paused from job_queues where name = ?`),
      setPaused: db.prepare(
        `insert into job_queues (name, paused, updated_at) values (?, ?, ?)
         on conflict (name) do update set paused = excluded.paused, updated_at = excluded.updated_at`,
      ),
      recover: db.prepare(
        // The attempt the dead process made does not count against the job.
        `update jobs set status = 'requeued', attempts = max(attempts - 1, 0), lease_owner = null, lease_until = null,
         updated_at = ? where queue = ? and status = 'inprogress' and lease_until < ?`,
      ),
      runnable: db.prepare<[string, number, number], { id: string }>(
        `select id from jobs where queue = ? and status in ('queued', 'requeued', 'failed') and run_at <= ?
         and attempts < max_attempts order by priority desc, run_at limit ?`,
      ),
      take: db.prepare(
        `update jobs set status = 'inprogress', attempts = attempts + 1, lease_owner = ?, lease_until = ?, updated_at = ?
         where queue = ? and id = ?`,
      ),
      heartbeat: db.prepare(
        `update jobs set lease_until = ? where queue = ? and id = ? and lease_owner = ? and status = 'inprogress'`,
      ),
      complete: db.prepare(
        `update jobs set status = ?, message = ?, stack = null, lease_owner = null, lease_until = null, updated_at = ?
         where queue = ? and id = ? and lease_owner = ? and status = 'inprogress'`,
      ),
      fail: db.prepare(
        // No retry (a permanent error such as a missing setting): failed, and no automatic retry (attempts used up)
        // until someone requeues it. A retry while attempts remain: failed until run_at. Attempts used up: dead.
        `update jobs set status = case when @retry is not null and attempts >= max_attempts then 'dead' else 'failed' end,
         attempts = case when @retry is null then max_attempts else attempts end,
         run_at = @runAt, message = @message, stack = @stack, lease_owner = null, lease_until = null, updated_at = @now
         where queue = @queue and id = @id and lease_owner = @owner and status = 'inprogress'`,
      ),
      counts: db.prepare<[string], { status: JobStatus; n: number }>(
        `select status, count(*) as n from jobs where queue = ? group by status`,
      ),
      byCustomer: db.prepare<[string], { customer_number: string; status: JobStatus; n: number }>(
        `select customer_number, status, count(*) as n from jobs where queue = ? and customer_number is not null
         group by customer_number, status`,
      ),
    };
  }

  enqueue(queue: string, jobs: readonly EnqueueInput[], options: { restartRunning?: boolean } = {}): Job[] {
    const now = this.now();
    const restart = options.restartRunning ? 1 : 0;
    return this.db.transaction(() =>
      jobs.map((j) => {
        this.s.insert.run({
          queue,
          id: j.id,
          priority: j.priority ?? 0,
          maxAttempts: j.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
          now,
          payload: JSON.stringify(j.payload ?? {}),
          customerNumber: j.customerNumber ?? null,
          changedAt: j.applicationChangedAt ?? null,
          restart,
        });
        return this.get(queue, j.id)!;
      }),
    )();
  }

  get(queue: string, id: string): Job | null {
    const row = this.s.get.get(queue, id);
    return row ? toJob(row) : null;
  }

  requeue(queue: string, id: string): boolean {
    const now = this.now();
    return this.s.requeue.run(now, now, queue, id).changes > 0;
  }

  requeueStatus(queue: string, status: JobStatus): number {
    const now = this.now();
    return this.s.requeueStatus.run(now, now, queue, status).changes;
  }

  remove(queue: string, id: string): "deleted" | "not-found" | "in-progress" {
    const job = this.get(queue, id);
    if (!job) return "not-found";
    if (job.status === "inprogress") return "in-progress";
    return this.s.remove.run(queue, id).changes > 0 ? "deleted" : "in-progress";
  }

  setPriority(queue: string, id: string, priority: number): "updated" | "not-found" | "not-waiting" {
    if (this.s.priority.run(priority, this.now(), queue, id).changes > 0) return "updated";
    return this.get(queue, id) ? "not-waiting" : "not-found";
  }

  setCustomerNumber(queue: string, id: string, customerNumber: string): boolean {
    return this.s.customer.run(customerNumber, this.now(), queue, id).changes > 0;
  }

  setUnmatched(queue: string, ids: readonly string[], unmatched: boolean): number {
    const now = this.now();
    return this.db.transaction(() =>
      ids.reduce((n, id) => n + this.s.unmatched.run(unmatched ? 1 : 0, now, queue, id).changes, 0),
    )();
  }

  removeUnmatched(queue: string): number {
    return this.s.removeUnmatched.run(queue).changes;
  }

  unmatchedCount(queue: string): number {
    return this.s.unmatchedCount.get(queue)?.n ?? 0;
  }

  pause(queue: string): void {
    this.s.setPaused.run(queue, 1, this.now());
  }

  resume(queue: string): void {
    this.s.setPaused.run(queue, 0, this.now());
  }

  isPaused(queue: string): boolean {
    return this.s.paused.get(queue)?.paused === 1;
  }

  claim(queue: string, owner: string, n: number, leaseMs: number): Job[] {
    if (n <= 0) return [];
    const now = this.now();
    return this.db.transaction(() => {
      // A job whose lease ran out was held by a process that died (or hung): it goes back in line.
      this.s.recover.run(now, queue, now);
      if (this.isPaused(queue)) return [];
      const ids = this.s.runnable.all(queue, now, n).map((r) => r.id);
      for (const id of ids) this.s.take.run(owner, now + leaseMs, now, queue, id);
      return ids.map((id) => this.get(queue, id)!);
    })();
  }

  heartbeat(queue: string, owner: string, ids: readonly string[], leaseMs: number): void {
    const until = this.now() + leaseMs;
    this.db.transaction(() => {
      for (const id of ids) this.s.heartbeat.run(until, queue, id, owner);
    })();
  }

  complete(queue: string, id: string, owner: string, outcome: JobOutcome): void {
    this.s.complete.run(outcome.status ?? "completed", outcome.message ?? null, this.now(), queue, id, owner);
  }

  fail(queue: string, id: string, owner: string, error: { message: string; stack?: string | null }, retryInMs: number | null): void {
    const now = this.now();
    this.s.fail.run({
      queue,
      id,
      owner,
      now,
      retry: retryInMs,
      runAt: now + (retryInMs ?? 0),
      message: error.message.slice(0, 2000),
      stack: error.stack ? projectRelativeStack(error.stack).slice(0, 8000) : null,
    });
  }

  counts(queue: string): Record<JobStatus, number> {
    const counts = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as Record<JobStatus, number>;
    for (const r of this.s.counts.all(queue)) counts[r.status] = r.n;
    return counts;
  }

  countsByCustomer(queue: string) {
    const map = new Map<string, { customerNumber: string; counts: Partial<Record<JobStatus, number>>; total: number }>();
    for (const r of this.s.byCustomer.all(queue)) {
      const entry = map.get(r.customer_number) ?? { customerNumber: r.customer_number, counts: {}, total: 0 };
      entry.counts[r.status] = r.n;
      entry.total += r.n;
      map.set(r.customer_number, entry);
    }
    return [...map.values()].sort((a, b) => a.customerNumber.localeCompare(b.customerNumber));
  }

  page(queue: string, q: PageQuery): { data: Job[]; total: number } {
    const where = ["queue = @queue"];
    const params: Record<string, unknown> = { queue, limit: q.limit, skip: q.skip };
    if (q.statuses && q.statuses.length) {
      const names = q.statuses.map((s, i) => {
        params[`s${i}`] = s;
        return `@s${i}`;
      });
      where.push(`status in (${names.join(", ")})`);
    }
    if (q.isUnmatched) where.push("is_unmatched = 1");
    if (q.id) {
      // Ids are stored upper-case (enqueue); part of one finds it, `%` and `_` typed are taken literally.
      params.id = `%${q.id.toUpperCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.push("id like @id escape '\\'");
    }
    const clause = where.join(" and ");
    const total = (this.db.prepare(`select count(*) as n from jobs where ${clause}`).get(params) as { n: number }).n;
    const rows = this.db
      .prepare(`select ${COLUMNS} from jobs where ${clause} order by ${ORDER[q.sort]} limit @limit offset @skip`)
      .all(params) as Row[];
    return { data: rows.map(toJob), total };
  }
}
