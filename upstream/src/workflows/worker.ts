/**
 * The docket engine's worker on the job queue (queue "workflows"). A burst of events is drained in batches: each batch
 * is ONE transaction that claims a few events' jobs, applies each event in its own savepoint together with its job's
 * completion, and commits once. Between batches the worker yields to the event loop (`setImmediate`), so requests are
 * served while a burst drains.
 *
 * What a batch keeps:
 * - An event is processed once: its work, its "processed" mark and its job's completion commit together; an event
 *   already marked (the same idempotency key twice) is not processed again (engine.ts `apply`).
 * - A process killed mid-batch loses whole events only: nothing of the batch is committed, its claims included, so
 *   its jobs are still waiting and the next worker processes them.
 * - An event that fails rolls back its own savepoint only; its neighbours commit, and it is retried alone later (the
 *   queue's backoff, then `dead` once its attempts are used up).
 */
import crypto from "node:crypto";
import type { Db } from "../db";
import type { Job, JobQueue } from "../queue/types";
import { defaultBackoff } from "../queue/worker";
import type { WorkflowEngine } from "./engine";
import { WORKFLOW_QUEUE } from "./events";

export type EngineWorkerOptions = {
  db: Db;
  engine: WorkflowEngine;
  jobs: JobQueue;
  /** The most events one batch claims (default 50). */
  maxBatch?: number;
  /** About how much CPU time one batch may take (default 10 ms): sizes the next claim. */
  budgetMs?: number;
  /** How often an idle worker looks for work (default 1 s); an event queued in this process pokes it at once. */
  pollMs?: number;
  /** A claim's lease: only matters to a batch that never commits (its claim is rolled back with it). */
  leaseMs?: number;
  log?: (msg: string) => void;
  /** Test hook: after each batch commits, the ids it processed and those that failed. */
  afterBatch?: (done: string[], failed: string[]) => void;
};

export class EngineWorker {
  readonly owner = `${process.pid}-${crypto.randomUUID()}`;
  private readonly maxBatch: number;
  private readonly budgetMs: number;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  /**
   * CPU milliseconds per event, smoothed over the batches: how many events fit the budget. CPU time, not the wall
   * clock: on a loaded machine the wall clock counts the time other processes ran, and batches sized by it shrink to
   * one event each, paying a commit per event when commits matter most.
   */
  private perEvent = 1;
  private stopped = true;
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;

  constructor(private readonly o: EngineWorkerOptions) {
    this.maxBatch = o.maxBatch ?? 50;
    this.budgetMs = o.budgetMs ?? 10;
    this.pollMs = o.pollMs ?? 1_000;
    this.leaseMs = o.leaseMs ?? 30_000;
    if (!Number.isInteger(this.maxBatch) || this.maxBatch < 1) throw new Error("maxBatch must be a positive integer");
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.next(0);
  }

  /** Stops taking batches; a batch is synchronous, so none is ever half run when this returns. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
  }

  /** An event was queued: look now unless a batch is already due. */
  poke(): void {
    if (!this.stopped && !this.immediate) this.next(0);
  }

  private next(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (ms === 0) {
      if (!this.immediate) this.immediate = setImmediate(() => this.turn());
      return;
    }
    if (this.immediate) return;
    this.timer = setTimeout(() => this.turn(), ms);
    this.timer.unref();
  }

  private turn(): void {
    this.immediate = null;
    this.timer = null;
    if (this.stopped) return;
    let claimed = 0;
    try {
      claimed = this.runBatch();
    } catch (error) {
      this.o.log?.(`queue ${WORKFLOW_QUEUE}: a batch failed: ${String(error)}`);
      this.next(this.pollMs);
      return;
    }
    // A full claim: more are likely waiting. Otherwise the queue is drained (or paused) until a poke or the poll.
    this.next(claimed > 0 ? 0 : this.pollMs);
  }

  /** One batch: claims, applies and completes up to `size` events in one transaction; how many it claimed. */
  runBatch(): number {
    const size = Math.max(1, Math.min(this.maxBatch, Math.floor(this.budgetMs / this.perEvent)));
    const { engine, jobs } = this.o;
    const done: string[] = [];
    const failed: string[] = [];
    const c0 = process.cpuUsage();
    const claimed = engine.batch(() => {
      const taken = jobs.claim(WORKFLOW_QUEUE, this.owner, size, this.leaseMs);
      for (const job of taken) this.one(job, done, failed);
      return taken.length;
    });
    if (claimed) {
      const cpu = process.cpuUsage(c0);
      const each = (cpu.user + cpu.system) / 1000 / claimed;
      this.perEvent = Math.max(0.05, 0.7 * this.perEvent + 0.3 * each);
    }
    this.o.afterBatch?.(done, failed);
    return claimed;
  }

  /** One event in its own savepoint: its work and its job's completion, or neither and the job's failure. */
  private one(job: Job, done: string[], failed: string[]): void {
    const { db, engine, jobs } = this.o;
    try {
      db.transaction(() => {
        engine.apply(job.id);
        jobs.complete(WORKFLOW_QUEUE, job.id, this.owner, { status: "completed" });
      })();
      done.push(job.id);
    } catch (error) {
      // A statement that ended the whole transaction (SQLite does so on some errors) fails the batch: nothing of it
      // is committed, and its events are claimed again.
      if (!db.inTransaction) throw error;
      const e = error instanceof Error ? error : new Error(String(error));
      this.o.log?.(`queue ${WORKFLOW_QUEUE}: event ${job.id} failed: ${e.message}`);
      jobs.fail(WORKFLOW_QUEUE, job.id, this.owner, { message: e.message, stack: e.stack ?? null }, defaultBackoff(job.attempts));
      failed.push(job.id);
    }
  }
}
