/**
 * The query link's sandbox (docs/decisions/chain-query.md): one read-only SELECT over the chains' corpus, in a child
 * process of its own, stopped when it runs too long.
 *
 * Why a process: better-sqlite3 cannot interrupt a statement (no progress handler, no sqlite3_interrupt), and a worker
 * thread stuck inside SQLite ignores `terminate()` (measured: a recursive CTE kept its thread, and the process, alive).
 * A child process is killed with SIGKILL, whatever it is doing. It stays up between statements (its start, ~100 ms,
 * is paid once) and runs one statement at a time; a statement past `statementMs` kills it, and the next one starts a
 * new process. The child opens the corpus read-only, refuses what SQLite says is not one read-only statement
 * answering rows, caps SQLite's heap, and reads at most `rows` rows and `resultChars` characters.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { CHAIN_QUERY_LIMITS, CHAIN_QUERY_MESSAGES, querySqlProblem, type QueryResult } from "../../contract/chain-query";

export type QueryParams = Record<string, string | number | null>;

/** A query refused or stopped: the message is for the user (the link's output pane, the save's field error). */
export class QueryRefused extends Error {}

type Limits = { [K in keyof typeof CHAIN_QUERY_LIMITS]: number };
type Job = { sql: string; params: QueryParams; resolve: (result: QueryResult) => void; reject: (error: Error) => void };
type Reply = { ok: true; result: QueryResult } | { ok: false; message: string; memory?: boolean };

const CHILD = `
const Database = require(process.env.SANDBOX_DRIVER);
const limits = JSON.parse(process.env.SANDBOX_LIMITS);
const db = new Database(process.env.SANDBOX_FILE, { readonly: true, fileMustExist: true });
db.pragma("busy_timeout = 1000");
db.pragma("hard_heap_limit = " + limits.heapBytes);
db.pragma("query_only = 1");
db.function("match_any", { deterministic: true }, (text) => {
  const words = String(text ?? "").match(/[\\p{L}\\p{N}]+/gu) ?? [];
  const kept = [...new Set(words.map((w) => w.toLowerCase()))].slice(0, limits.matchWords);
  return kept.length ? kept.map((w) => '"' + w + '"').join(" OR ") : '""';
});
const cell = (value) => {
  if (value === null || typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  if (Buffer.isBuffer(value)) return "[" + value.length + " bytes]";
  const text = String(value);
  return text.length > limits.cellChars ? text.slice(0, limits.cellChars) : text;
};
process.on("message", ({ sql, params }) => {
  try {
    const statement = db.prepare(sql);
    if (!statement.reader || !statement.readonly) throw new Error("not a read-only SELECT");
    const names = new Set((sql.match(/[:@$][A-Za-z_][A-Za-z0-9_]*/g) ?? []).map((n) => n.slice(1)));
    const bound = {};
    for (const name of names) bound[name] = Object.prototype.hasOwnProperty.call(params, name) ? params[name] : null;
    const columns = statement.columns().map((c) => c.name);
    const rows = [];
    let size = 0;
    let truncated = false;
    for (const row of statement.raw(true).iterate(...(names.size ? [bound] : []))) {
      if (rows.length >= limits.rows || size > limits.resultChars) {
        truncated = true;
        break;
      }
      const values = row.map(cell);
      for (const v of values) size += typeof v === "string" ? v.length : 8;
      rows.push(values);
    }
    process.send({ ok: true, result: { columns, rows, truncated } });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.send({ ok: false, message, memory: /out of memory|SQLITE_NOMEM/i.test(message) });
  }
});
process.send({ ready: true });
`;

export class QuerySandbox {
  private readonly limits: Limits;
  private child: ChildProcess | null = null;
  private ready: Promise<ChildProcess> | null = null;
  private running: Job | null = null;
  private readonly waiting: Job[] = [];
  private closed = false;

  private readonly precheck: (sql: string) => string | null;

  /** `precheck`: the rule applied before a statement reaches the process (tests pass none, to reach SQLite's own). */
  constructor(
    private readonly file: string,
    limits: Partial<Limits> = {},
    options: { precheck?: (sql: string) => string | null } = {},
  ) {
    this.limits = { ...CHAIN_QUERY_LIMITS, ...limits };
    this.precheck = options.precheck ?? querySqlProblem;
  }

  /** Runs `sql` with the run's variables bound by name; rejects with QueryRefused (the user's message). */
  run(sql: string, params: QueryParams = {}): Promise<QueryResult> {
    const problem = this.precheck(sql);
    if (problem) return Promise.reject(new QueryRefused(problem));
    if (this.closed) return Promise.reject(new QueryRefused(CHAIN_QUERY_MESSAGES.busy));
    if (this.running && this.waiting.length >= this.limits.queue) return Promise.reject(new QueryRefused(CHAIN_QUERY_MESSAGES.busy));
    return new Promise<QueryResult>((resolve, reject) => {
      this.waiting.push({ sql, params, resolve, reject });
      this.next();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.reject(new QueryRefused(CHAIN_QUERY_MESSAGES.busy));
    this.kill();
  }

  private next(): void {
    if (this.running || !this.waiting.length) return;
    const job = this.waiting.shift()!;
    this.running = job;
    void this.start().then(
      (child) => this.send(child, job),
      (error: unknown) => this.finish(job, { ok: false, message: error instanceof Error ? error.message : String(error) }),
    );
  }

  private send(child: ChildProcess, job: Job): void {
    const deadline = setTimeout(() => {
      this.kill();
      this.finish(job, null, CHAIN_QUERY_MESSAGES.tooSlow(this.limits.statementMs));
    }, this.limits.statementMs);
    const onMessage = (reply: Reply) => {
      clearTimeout(deadline);
      child.off("message", onMessage);
      child.off("exit", onExit);
      this.finish(job, reply);
    };
    const onExit = () => {
      clearTimeout(deadline);
      child.off("message", onMessage);
      // Killed by the kernel or dead of SQLite's heap bound: the statement was too big.
      this.finish(job, null, CHAIN_QUERY_MESSAGES.tooBig);
    };
    child.on("message", onMessage);
    child.once("exit", onExit);
    child.send({ sql: job.sql, params: job.params });
  }

  private finish(job: Job, reply: Reply | null, failure?: string): void {
    if (this.running !== job) return;
    this.running = null;
    if (reply?.ok) job.resolve(reply.result);
    else if (reply) job.reject(new QueryRefused(reply.memory ? CHAIN_QUERY_MESSAGES.tooBig : sqliteFailure(reply.message)));
    else job.reject(new QueryRefused(failure ?? CHAIN_QUERY_MESSAGES.busy));
    this.next();
  }

  private start(): Promise<ChildProcess> {
    if (this.ready) return this.ready;
    const child = spawn(process.execPath, ["--max-old-space-size=256", "-e", CHILD], {
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      // Nothing of the server's environment (its secrets) reaches the process that runs users' SQL.
      env: {
        NODE_ENV: "production",
        SANDBOX_DRIVER: createRequire(import.meta.url).resolve("better-sqlite3"),
        SANDBOX_FILE: this.file,
        SANDBOX_LIMITS: JSON.stringify(this.limits),
      },
    });
    this.child = child;
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      if (stderr.length < 4_000) stderr += chunk.toString("utf8");
    });
    this.ready = new Promise<ChildProcess>((resolve, reject) => {
      const onReady = (message: { ready?: boolean }) => {
        if (!message.ready) return;
        child.off("message", onReady);
        resolve(child);
      };
      child.on("message", onReady);
      child.once("exit", (code) => {
        if (this.child === child) {
          this.child = null;
          this.ready = null;
        }
        reject(new Error(`the sandbox stopped (${code ?? "killed"}): ${stderr.trim().split("\n").pop() ?? ""}`));
      });
    });
    // Nothing waits on a child that fails to start but the job; an unobserved rejection must not reach the process.
    this.ready.catch(() => {});
    return this.ready;
  }

  private kill(): void {
    const child = this.child;
    this.child = null;
    this.ready = null;
    if (child && child.exitCode === null) child.kill("SIGKILL");
  }
}

/** The user's text for what SQLite refused (they read it beside their SQL). */
function sqliteFailure(message: string): string {
  if (/more than one statement/i.test(message)) return CHAIN_QUERY_MESSAGES.oneStatement;
  if (/not a read-only SELECT|readonly|read-only/i.test(message)) return CHAIN_QUERY_MESSAGES.selectOnly;
  return CHAIN_QUERY_MESSAGES.failed(message.replace(/^SqliteError:\s*/, "").slice(0, 300));
}
