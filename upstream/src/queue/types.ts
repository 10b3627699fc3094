/**
 * The job queue behind the processing and USPTO dashboards (spec 2 §3, §4; docs/decisions/job-queue.md). The SQLite
 * implementation (sqlite-queue.ts) is the one in use; a Redis/BullMQ backend would implement the same interface.
 */

export const JOB_STATUSES = ["queued", "requeued", "inprogress", "failed", "completed", "dead", "delete", "warning"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export type Job = {
  queue: string;
  id: string;
  status: JobStatus;
  priority: number;
  attempts: number;
  maxAttempts: number;
  /** When a queued or failed job may run next (ms since the epoch). */
  runAt: number;
  payload: Record<string, unknown>;
  message: string | null;
  stack: string | null;
  customerNumber: string | null;
  applicationChangedAt: string | null;
  isUnmatched: boolean;
  createdAt: number;
  updatedAt: number;
};

export type EnqueueInput = {
  id: string;
  priority?: number;
  payload?: Record<string, unknown>;
  customerNumber?: string | null;
  applicationChangedAt?: string | null;
  maxAttempts?: number;
};

export type JobSort = "status" | "newest" | "oldest" | "priority";

export type PageQuery = {
  statuses?: readonly JobStatus[];
  isUnmatched?: boolean;
  /** Part of an application id (case-insensitive). */
  id?: string;
  sort: JobSort;
  skip: number;
  limit: number;
};

/** What a handler reports for a job that did not throw. */
export type JobOutcome = { status?: "completed" | "warning" | "delete"; message?: string | null };

export interface JobQueue {
  /**
   * Adds jobs. An id already in the queue is requeued; one in progress is left running, unless `restartRunning`:
   * then it is requeued too and the running attempt's outcome is discarded. Returns the resulting jobs.
   */
  enqueue(queue: string, jobs: readonly EnqueueInput[], options?: { restartRunning?: boolean }): Job[];
  get(queue: string, id: string): Job | null;
  /** Puts a job back in line as `requeued` (attempts reset). False when unknown or in progress. */
  requeue(queue: string, id: string): boolean;
  /** Puts every job of `status` back in line as `requeued` (attempts reset); returns how many. */
  requeueStatus(queue: string, status: JobStatus): number;
  /** Deletes a job unless it is in progress. "not-found" | "in-progress" | "deleted". */
  remove(queue: string, id: string): "deleted" | "not-found" | "in-progress";
  setPriority(queue: string, id: string, priority: number): "updated" | "not-found" | "not-waiting";
  setCustomerNumber(queue: string, id: string, customerNumber: string): boolean;
  setUnmatched(queue: string, ids: readonly string[], unmatched: boolean): number;
  removeUnmatched(queue: string): number;
  pause(queue: string): void;
  resume(queue: string): void;
  isPaused(queue: string): boolean;
  /** Claims up to `n` runnable jobs for `owner` with a lease of `leaseMs`; none while paused. */
  claim(queue: string, owner: string, n: number, leaseMs: number): Job[];
  /** Extends the lease of jobs still held by `owner`. */
  heartbeat(queue: string, owner: string, ids: readonly string[], leaseMs: number): void;
  complete(queue: string, id: string, owner: string, outcome: JobOutcome): void;
  /** Records a failure: `failed` with a backoff while attempts remain, else `dead`. */
  fail(queue: string, id: string, owner: string, error: { message: string; stack?: string | null }, retryInMs: number | null): void;
  counts(queue: string): Record<JobStatus, number>;
  countsByCustomer(queue: string): { customerNumber: string; counts: Partial<Record<JobStatus, number>>; total: number }[];
  page(queue: string, query: PageQuery): { data: Job[]; total: number };
  unmatchedCount(queue: string): number;
}
