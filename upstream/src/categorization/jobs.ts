import {
  CATEGORIZATION_BATCH,
  type CategorizationJob,
  type CategorizationJobKind,
  type CategorizationQuery,
} from "../../contract/categorization";
import type { SearchEngine } from "../search/engine";
import { QueryError } from "../search/ir";
import type { JobsStore, QueriesStore } from "./store";
import type { Tagger } from "./tagging";

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
/**
 * Between two write steps: a short pause, not just a turn of the loop. A request needs several turns (the router,
 * the upstream's fetch handler, the response): with only setImmediate each of its turns would wait a whole step.
 */
const pause = () => new Promise<void>((resolve) => setTimeout(resolve, PAUSE_MS));

/** The longest a write step holds the event loop (then it commits and lets requests through), and the pause after. */
const STEP_MS = 10;
const PAUSE_MS = 3;

/** The stored text of a query as a search body (JSON checked when saved; null if it is not an object any more). */
function bodyOf(query: Pick<CategorizationQuery, "text">): Record<string, unknown> | null {
  try {
    const body = JSON.parse(query.text) as unknown;
    return body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Runs categorization jobs in the background, one at a time, in the order triggered. A job walks the whole match set
 * in batches of CATEGORIZATION_BATCH (one transaction each, a turn of the event loop between two), reporting
 * progress to the jobs table after each batch.
 */
export class CategorizationRunner {
  private readonly queue: { job: CategorizationJob; work: (job: CategorizationJob) => Promise<void> }[] = [];
  private running = false;
  private stopped = false;
  /** Resolves when the queue is empty (tests, the bench). */
  private idle: Promise<void> = Promise.resolve();
  private wake: (() => void) | null = null;
  /** The job running now, and what its end resolves (a cancel waits for it). */
  private current: { id: string; ended: Promise<void> } | null = null;
  /** Jobs asked to stop: the running job checks this between steps. */
  private readonly cancelling = new Set<string>();

  constructor(
    private readonly deps: {
      jobs: JobsStore;
      queries: QueriesStore;
      engine: SearchEngine;
      tagger: Tagger;
      log: (message: string) => void;
      batch?: number;
    },
  ) {}

  private get batch() {
    return this.deps.batch ?? CATEGORIZATION_BATCH;
  }

  /**
   * Counts what the query matches (in windows, yielding); throws QueryError when the engine refuses its JSON.
   */
  async count(query: CategorizationQuery): Promise<number> {
    return this.deps.engine.countMatches(await this.check(query), {});
  }

  /** The query's body once the engine accepts it (QueryError otherwise): no search runs, the trigger answers at once. */
  async check(query: CategorizationQuery): Promise<Record<string, unknown>> {
    const body = bodyOf(query);
    if (!body) throw new QueryError("The query must be a JSON object", "");
    await this.deps.engine.matchAmong(body, {}, []);
    return body;
  }

  /** Queues a job and answers it (queued). */
  trigger(kind: CategorizationJobKind, query: CategorizationQuery | null, actor: string | null): CategorizationJob {
    const job = this.deps.jobs.create(kind, query ? { id: query.id, name: query.name, tags: query.tags } : null, actor);
    const work = {
      apply: (j: CategorizationJob) => this.tagQueries(j, [{ query: query! }], "apply"),
      remove: (j: CategorizationJob) => this.tagQueries(j, [{ query: query! }], "remove"),
      applyAll: (j: CategorizationJob) => this.applyAll(j),
      prune: (j: CategorizationJob) => this.prune(j, query),
    }[kind];
    this.queue.push({ job, work });
    // From the next turn: the trigger's answer leaves first (the job's first step may read a cold disk).
    if (!this.running) {
      this.running = true;
      this.idle = turn()
        .then(() => this.drain())
        .catch((error: unknown) => this.deps.log(`upstream: categorization: ${String(error)}`));
    }
    return job;
  }

  /** Resolves once every queued job has finished. */
  whenIdle(): Promise<void> {
    return this.idle;
  }

  /**
   * Cancels a queued job at once, or stops the running one after the step under way and waits for it to end. False
   * when the runner does not hold the job (finished, or unknown).
   */
  async cancel(id: string): Promise<boolean> {
    const queued = this.queue.findIndex((q) => q.job.id === id);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.deps.jobs.cancelled(id);
      return true;
    }
    if (this.current?.id !== id) return false;
    this.cancelling.add(id);
    await this.current.ended;
    return true;
  }

  /** True once the runner is stopping, or `job` was cancelled: the job's loops return at the next step. */
  private halted(job: CategorizationJob): boolean {
    return this.stopped || this.cancelling.has(job.id);
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length && !this.stopped) {
        const { job, work } = this.queue.shift()!;
        let end = () => {};
        this.current = { id: job.id, ended: new Promise<void>((resolve) => (end = resolve)) };
        try {
          this.deps.jobs.started(job.id);
          await work(job);
          if (this.cancelling.has(job.id)) this.deps.jobs.cancelled(job.id);
          else if (!this.stopped) this.deps.jobs.finished(job.id, null);
        } catch (error) {
          // Closing the database under a running job ends it (it reads as interrupted at the next start).
          if (this.stopped) return;
          const message = error instanceof Error ? error.message : String(error);
          if (!(error instanceof QueryError)) this.deps.log(`upstream: categorization ${job.kind} failed: ${(error as Error).stack ?? message}`);
          this.deps.jobs.finished(job.id, message);
        } finally {
          this.cancelling.delete(job.id);
          this.current = null;
          end();
        }
        await turn();
      }
    } finally {
      this.running = false;
    }
  }

  /**
   * Apply or remove the tags of `queries` over each one's whole match set (`count`: what it matched when the job
   * started, counted here when not given). A query deleted while it is being applied is not applied further: Apply all
   * goes on with the next one, its own Add tag(s) job ends cancelled. Removing goes on (it only takes tags off).
   */
  private async tagQueries(job: CategorizationJob, queries: { query: CategorizationQuery; count?: number }[], mode: "apply" | "remove"): Promise<void> {
    const { engine, tagger, jobs } = this.deps;
    const counted: { query: CategorizationQuery; count: number }[] = [];
    for (const q of queries) counted.push({ query: q.query, count: q.count ?? (await this.count(q.query)) });
    let total = counted.reduce((sum, q) => sum + q.count, 0);
    let done = 0;
    let changed = 0;
    jobs.report(job.id, 0, total, 0);
    for (const { query, count } of counted) {
      const body = bodyOf(query);
      if (!body || !query.tags.length) continue;
      let walked = 0;
      for await (const batch of engine.scanMatches(body, {}, this.batch)) {
        if (this.halted(job)) return;
        if (mode === "apply" && !this.deps.queries.get(query.id)) {
          if (job.kind === "apply") {
            this.cancelling.add(job.id);
            return;
          }
          total -= Math.max(0, count - walked);
          break;
        }
        // Written in steps of at most STEP_MS each, a turn of the event loop between two.
        for (let i = 0; i < batch.length; ) {
          const rest = batch.slice(i);
          const step =
            mode === "apply"
              ? tagger.apply(rest, query.tags, job.createdBy, STEP_MS)
              : tagger.remove(rest.map((m) => m.id), query.tags, job.createdBy, STEP_MS);
          i += step.processed;
          walked += step.processed;
          changed += step.changed;
          done += step.processed;
          // The set may grow while it is walked: the total follows.
          jobs.report(job.id, done, Math.max(total, done), changed);
          await pause();
          if (this.halted(job)) return;
        }
      }
    }
    jobs.report(job.id, done, done, changed);
  }

  /** The saved queries a job may use: with tags and JSON the engine accepts (the others are reported as skipped). */
  private async usable(job: CategorizationJob): Promise<{ queries: { query: CategorizationQuery; count: number }[] }> {
    const skipped: CategorizationJob["skipped"] = [];
    const queries: { query: CategorizationQuery; count: number }[] = [];
    for (const query of this.deps.queries.everyQuery()) {
      if (this.halted(job)) break;
      if (!query.tags.length) {
        skipped.push({ name: query.name, reason: "no tags" });
        continue;
      }
      try {
        queries.push({ query, count: await this.count(query) });
      } catch (error) {
        if (!(error instanceof QueryError)) throw error;
        skipped.push({ name: query.name, reason: error.message });
      }
      await turn();
    }
    this.deps.jobs.skipped(job.id, skipped);
    return { queries };
  }

  private async applyAll(job: CategorizationJob): Promise<void> {
    await this.tagQueries(job, (await this.usable(job)).queries, "apply");
  }

  /**
   * Removes each tag of `only` (or of every saved query) from the applications that carry it but match no saved
   * query giving that tag (so a tag two queries give stays where either matches).
   */
  private async prune(job: CategorizationJob, only: CategorizationQuery | null): Promise<void> {
    const { tagger, engine, jobs } = this.deps;
    const { queries } = await this.usable(job);
    const targets = only ? queries.filter((q) => q.query.id === only.id).map((q) => q.query) : queries.map((q) => q.query);
    const tags = [...new Set(targets.flatMap((q) => q.tags))];
    const total = tags.reduce((sum, t) => sum + tagger.carryingCount(t), 0);
    let done = 0;
    let changed = 0;
    jobs.report(job.id, 0, total, 0);
    for (const tag of tags) {
      const givers = queries.filter((q) => q.query.tags.includes(tag)).map((q) => bodyOf(q.query)!);
      let after = 0;
      for (;;) {
        if (this.halted(job)) return;
        const batch = tagger.carrying(tag, after, this.batch);
        if (!batch.length) break;
        after = batch[batch.length - 1]!.seq;
        let rest = batch.map((r) => r.id);
        for (const body of givers) {
          if (!rest.length) break;
          const matched = await engine.matchAmong(body, {}, rest);
          rest = rest.filter((id) => !matched.has(id));
        }
        for (let i = 0; i < rest.length; ) {
          const step = tagger.remove(rest.slice(i), [tag], job.createdBy, STEP_MS);
          i += step.processed;
          changed += step.changed;
          await pause();
          if (this.halted(job)) return jobs.report(job.id, done, Math.max(total, done), changed);
        }
        done += batch.length;
        jobs.report(job.id, done, Math.max(total, done), changed);
        await turn();
      }
    }
    jobs.report(job.id, done, done, changed);
  }
}
