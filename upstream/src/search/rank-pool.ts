/**
 * Ranking off the event loop, on every core: a broad query on a million applications must not hold the event loop.
 *
 * FTS5 ranks a query by computing bm25 for every matching row; a word in most of a million applications costs
 * hundreds of ms of one core, and better-sqlite3 runs it on the thread that called. A `RankPool` keeps a few worker
 * threads, each with its own read-only connection to the same database file (WAL: readers do not wait for each other
 * or for the writer), and runs one ranking query over disjoint rowid ranges, one range per worker, at the same time.
 * bm25's statistics (row count, average lengths, documents per phrase) are the whole table's whatever the range, so
 * each range's scores are exactly those of the single query and the merged top `n` is the same list. (bm25v, rank.ts,
 * keeps a word's count per connection until the index changes by 1%: between two such counts a worker's may be the
 * older one, within that 1%.) Each worker loads the ranking library the engine uses.
 *
 * The worker is a small CommonJS script given as text (`eval`), so the same code runs under tsx, vitest and the
 * bundled server; it loads better-sqlite3 from the path this module resolves.
 *
 * The pool is also the search's time budget: better-sqlite3 offers no way to interrupt a statement (no progress
 * handler), but a worker can be terminated. A statement still running `statementMs` after it started is given up:
 * its worker is terminated (SQLite stops with the thread; the connection was read-only), the next statement starts
 * a new one, and the caller gets a SearchTooCostly (a 400 saying why). Waiting in the queue does not count.
 */
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { SEARCH_MESSAGES } from "../../contract/portfolio";
import { SearchTooCostly } from "./ir";
import { RANK_ENTRY, RANK_SETUP_SQL } from "./rank";

export type RankedRow = { seq: number; s: number };

type Job = { sql: string; params: unknown[]; resolve: (rows: RankedRow[]) => void; reject: (error: Error) => void };
type Slot = { worker: Worker; busy: Job | null; deadline: NodeJS.Timeout | null };

const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma("busy_timeout = 5000");
if (workerData.rank) {
  db.loadExtension(workerData.rank.file, workerData.rank.entry);
  db.exec(workerData.rank.setup);
}
const statements = new Map();
parentPort.on("message", (job) => {
  try {
    let statement = statements.get(job.sql);
    if (!statement) {
      if (statements.size >= 64) statements.clear();
      statement = db.prepare(job.sql);
      statements.set(job.sql, statement);
    }
    parentPort.postMessage({ rows: statement.all(...job.params) });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
`;

/** The worker count a pool gets by default: every core, at most 4; none on a single core (nothing to gain). */
export function defaultRankWorkers(): number {
  const cores = availableParallelism();
  return cores < 2 ? 0 : Math.min(cores, 4);
}

export class RankPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private closed = false;

  constructor(
    private readonly file: string,
    readonly size: number,
    /** The ranking library each worker loads (search/rank.ts), or null. */
    private readonly rankExtension: string | null = null,
    /** How long one statement may run on a worker before it is given up (see above); null: no bound. */
    private readonly statementMs: number | null = null,
  ) {}

  /** Runs each query on a worker (at most `size` at once); answers in the order given. */
  runAll(queries: readonly { sql: string; params: unknown[] }[]): Promise<RankedRow[][]> {
    return Promise.all(queries.map((q) => this.run(q.sql, q.params)));
  }

  run(sql: string, params: unknown[]): Promise<RankedRow[]> {
    if (this.closed) return Promise.reject(new Error("the rank pool is closed"));
    return new Promise((resolve, reject) => {
      this.queue.push({ sql, params, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const slot of this.slots) if (slot.deadline) clearTimeout(slot.deadline);
    for (const job of this.queue.splice(0)) job.reject(new Error("the rank pool is closed"));
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  private pump() {
    while (this.queue.length) {
      let slot = this.slots.find((s) => !s.busy);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.busy = job;
      if (this.statementMs !== null) {
        const ms = this.statementMs;
        slot.deadline = setTimeout(() => this.giveUp(slot, ms), ms);
        slot.deadline.unref();
      }
      slot.worker.postMessage({ sql: job.sql, params: job.params });
    }
  }

  /** The statement on `slot` ran past its budget: its worker goes (with the statement), and its caller hears why. */
  private giveUp(slot: Slot, ms: number) {
    const job = slot.busy;
    slot.busy = null;
    slot.deadline = null;
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    void slot.worker.terminate();
    job?.reject(new SearchTooCostly(SEARCH_MESSAGES.tooSlow(ms), ""));
    this.pump();
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: {
        file: this.file,
        driver: createRequire(import.meta.url).resolve("better-sqlite3"),
        rank: this.rankExtension ? { file: this.rankExtension, entry: RANK_ENTRY, setup: RANK_SETUP_SQL } : null,
      },
    });
    // An idle pool never keeps the process alive.
    worker.unref();
    const slot: Slot = { worker, busy: null, deadline: null };
    const settled = () => {
      if (slot.deadline) clearTimeout(slot.deadline);
      slot.deadline = null;
    };
    worker.on("message", (message: { rows?: RankedRow[]; error?: string }) => {
      settled();
      const job = slot.busy;
      slot.busy = null;
      if (job) {
        if (message.error !== undefined) job.reject(new Error(message.error));
        else job.resolve(message.rows ?? []);
      }
      this.pump();
    });
    const fail = (error: Error) => {
      settled();
      const job = slot.busy;
      slot.busy = null;
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots.splice(index, 1);
      job?.reject(error);
      this.pump();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => {
      if (slot.busy || this.slots.includes(slot)) fail(new Error(`a rank worker exited (code ${code})`));
    });
    this.slots.push(slot);
    return slot;
  }
}
