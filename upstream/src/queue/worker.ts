import crypto from "node:crypto";
import type { Job, JobOutcome, JobQueue } from "./types";

/** Thrown by a handler for a failure that retrying cannot fix (a missing setting, a record that does not exist). */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PermanentJobError";
  }
}

type JobHandler = (job: Job, signal: AbortSignal) => Promise<JobOutcome | void>;

export type WorkerOptions = {
  queue: string;
  jobs: JobQueue;
  handler: JobHandler;
  /** Jobs run at once (default 2). */
  concurrency?: number;
  /** How long a claimed job is ours without a heartbeat (default 30 s); renewed every third of it. */
  leaseMs?: number;
  /** How often an idle worker looks for work (default 500 ms). */
  pollMs?: number;
  /** Delay before retry n (1-based): default 1 s, 4 s, 16 s … capped at 10 min. */
  backoffMs?: (attempt: number) => number;
  log?: (msg: string) => void;
};

export const defaultBackoff = (attempt: number) => Math.min(1000 * 4 ** (attempt - 1), 10 * 60_000);

/**
 * Runs jobs of one queue in this process: claims up to `concurrency` jobs, runs the async handler for each (network
 * calls; nothing here blocks the event loop), keeps their leases alive while they run, and records the outcome.
 * A job held by a process that died is claimed again once its lease runs out (sqlite-queue.ts `claim`).
 */
export class QueueWorker {
  readonly owner = `${process.pid}-${crypto.randomUUID()}`;
  private readonly running = new Map<string, AbortController>();
  private timer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private stopped = true;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly backoff: (attempt: number) => number;
  private idle: (() => void)[] = [];

  constructor(private readonly o: WorkerOptions) {
    this.concurrency = o.concurrency ?? 2;
    this.leaseMs = o.leaseMs ?? 30_000;
    this.pollMs = o.pollMs ?? 500;
    this.backoff = o.backoffMs ?? defaultBackoff;
    if (!Number.isInteger(this.concurrency) || this.concurrency < 1) throw new Error("concurrency must be a positive integer");
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
    this.heartbeatTimer = setInterval(() => this.beat(), Math.max(50, Math.floor(this.leaseMs / 3)));
    this.heartbeatTimer.unref();
  }

  /** Stops claiming; aborts running jobs unless `drain`, and resolves when none runs. */
  async stop(drain = false): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!drain) for (const c of this.running.values()) c.abort();
    if (this.running.size) await new Promise<void>((resolve) => this.idle.push(resolve));
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
  }

  /** Look for work now (after scheduling, resuming, requeueing). */
  poke(): void {
    if (!this.stopped) this.schedule(0);
  }

  get active(): number {
    return this.running.size;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), ms);
    this.timer.unref();
  }

  private beat(): void {
    if (!this.running.size) return;
    try {
      this.o.jobs.heartbeat(this.o.queue, this.owner, [...this.running.keys()], this.leaseMs);
    } catch (error) {
      this.o.log?.(`queue ${this.o.queue}: heartbeat failed: ${String(error)}`);
    }
  }

  private tick(): void {
    this.timer = null;
    if (this.stopped) return;
    let claimed: Job[] = [];
    try {
      claimed = this.o.jobs.claim(this.o.queue, this.owner, this.concurrency - this.running.size, this.leaseMs);
    } catch (error) {
      this.o.log?.(`queue ${this.o.queue}: claim failed: ${String(error)}`);
    }
    for (const job of claimed) this.run(job);
    // Full or nothing to do: wait; a finishing job looks again at once.
    if (!claimed.length || this.running.size >= this.concurrency) this.schedule(this.pollMs);
    else this.schedule(0);
  }

  private run(job: Job): void {
    const controller = new AbortController();
    this.running.set(job.id, controller);
    const { jobs, queue, handler } = this.o;
    void (async () => {
      try {
        const outcome = (await handler(job, controller.signal)) ?? {};
        if (!(this.stopped && controller.signal.aborted)) jobs.complete(queue, job.id, this.owner, outcome);
      } catch (error) {
        if (this.stopped && controller.signal.aborted) return; // shutting down: the lease brings it back
        const e = error instanceof Error ? error : new Error(String(error));
        const retry = e instanceof PermanentJobError ? null : this.backoff(job.attempts);
        try {
          jobs.fail(queue, job.id, this.owner, { message: e.message, stack: e.stack ?? null }, retry);
        } catch (inner) {
          this.o.log?.(`queue ${queue}: recording the failure of ${job.id} failed: ${String(inner)}`);
        }
      } finally {
        this.running.delete(job.id);
        if (!this.running.size) for (const resolve of this.idle.splice(0)) resolve();
        this.schedule(0);
      }
    })();
  }
}
