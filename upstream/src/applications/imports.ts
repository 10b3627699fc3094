/**
 * CSV imports as jobs kept in the database, all or nothing (docs/decisions/portfolio-import.md).
 *
 * 1. Staging: the file is parsed in slices and every row checked; the rows that pass go to `portfolio_import_rows`,
 *    the rejected ones to the report. Nothing of the portfolio changes, so a file over the row limit (or a parse
 *    that fails) is refused with nothing imported.
 * 2. Applying: the staged rows are written in file order, in steps of a few milliseconds, one transaction each. The
 *    same transaction journals each application's row as it was before the import first touched it
 *    (`portfolio_import_undo`, null for one the import creates), so what is committed can always be undone.
 * 3. Completed: the job says so; its staged rows and journal are deleted in steps.
 * A failure while applying, or a stop (kill -9 included; found at the next start), undoes the journal in steps and
 * the job reads failed, "nothing was imported". A whole transaction over the import is not possible: SQLite has one
 * writer, and 200,000 rows hold it for tens of seconds, which would stall every other write and the event loop.
 * While an import applies or is undone the portfolio's other writes answer 409 (an edit undone with it would be lost).
 */
import crypto from "node:crypto";
import { parse } from "csv-parse";
import {
  ApplicationCreate,
  CSV_IMPORT_LIMITS,
  CSV_IMPORT_MESSAGES,
  type Application,
  type CsvColumn,
  type CsvRejection,
  type ImportJob,
} from "../../contract/portfolio";
import type { Db } from "../db";
import { HttpError, isoNow } from "../lib/http";
import { EVENT_CODES } from "../../contract/workflow-contracts";
import { rowValues } from "./csv";
import { ApplicationsStore, normalizeProduct, rowToApplication, type ApplicationRow } from "./store";

type JobRow = {
  id: string;
  owner: string;
  actor: string | null;
  portfolio_id: string;
  columns: string;
  status: ImportJob["status"];
  phase: "staging" | "applying" | "undoing" | "done";
  processed: number;
  total: number | null;
  progress: number;
  staged: number;
  applied: number;
  updated: number;
  updated_ids: string;
  rejected_total: number;
  error: string | null;
  started_at: string;
  finished_at: string | null;
};

/** The longest a step holds the event loop (then it commits and lets requests through), and the pause after. */
const STEP_MS = 10;
const PAUSE_MS = 3;
const pause = () => new Promise<void>((resolve) => setTimeout(resolve, PAUSE_MS));
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Staged rows read per step, journal rows undone or deleted per statement. */
const READ_BATCH = 500;
/** Bytes of the file handed to the parser per turn of the event loop. */
const FEED_SLICE = 256 * 1024;
/** The ids listed in a completed job (the first ones, in file order). */
const LISTED_IDS = 1000;

/** A refusal of the whole file (the job's error): nothing was imported. */
class ImportRefused extends Error {}

/** The job as answered, read from the database; with its owner for the check. */
export type StoredImport = ImportJob & { owner: string };

export class ImportJobs {
  private readonly queue: { id: string; file: Buffer[]; bytes: number; done: () => void }[] = [];
  private readonly finished = new Map<string, Promise<void>>();
  private running = false;
  private busy: "applying" | "undoing" | null = null;

  constructor(
    private readonly db: Db,
    private readonly store: ApplicationsStore,
    private readonly now: () => number,
    private readonly log: (message: string) => void,
  ) {
    // Jobs a stop cut short (the process ended while they ran): undone, then failed, in the background.
    const cut = db.prepare("select id from portfolio_imports where status = 'running'").all() as { id: string }[];
    if (cut.length) {
      db.prepare("update portfolio_imports set phase = 'undoing' where status = 'running'").run();
      this.running = true;
      void turn()
        .then(async () => {
          for (const { id } of cut) await this.undo(id, CSV_IMPORT_MESSAGES.interrupted);
          await this.sweep();
        })
        .catch((error: unknown) => this.stopped(error, "undoing interrupted imports"))
        .finally(() => {
          this.running = false;
          void this.drain();
        });
    } else {
      void turn().then(() => this.sweep().catch((error: unknown) => this.stopped(error, "cleaning up imports")));
    }
  }

  /** Why a portfolio write must wait now (an import is being applied or undone), or null. */
  writing(): string | null {
    return this.busy ? "A CSV import is being written. Try again in a moment." : null;
  }

  /** Starts an import of `file` (checked: its header's `columns`): answers its job, running. */
  start(file: Buffer[], bytes: number, columns: (CsvColumn | null)[], options: { owner: string; actor: string | null; portfolioId: string }): StoredImport {
    if (this.queue.length >= CSV_IMPORT_LIMITS.waiting) throw new HttpError(429, CSV_IMPORT_MESSAGES.busy);
    const id = crypto.randomUUID();
    this.db
      .prepare(
        `insert into portfolio_imports (id, owner, actor, portfolio_id, columns, status, phase, started_at)
         values (?, ?, ?, ?, ?, 'running', 'staging', ?)`,
      )
      .run(id, options.owner, options.actor, options.portfolioId, JSON.stringify(columns), isoNow(this.now));
    this.finished.set(id, new Promise<void>((done) => this.queue.push({ id, file, bytes, done })));
    void this.drain();
    return this.get(id)!;
  }

  /** Resolves once the job has ended (tests, `?wait=true`). */
  async whenDone(id: string): Promise<void> {
    await this.finished.get(id);
  }

  get(id: string): StoredImport | null {
    const row = this.db.prepare("select * from portfolio_imports where id = ?").get(id) as JobRow | undefined;
    if (!row) return null;
    const rejected = this.db
      .prepare("select line, reason from portfolio_import_rejections where job_id = ? order by n")
      .all(id) as CsvRejection[];
    return {
      id: row.id,
      owner: row.owner,
      status: row.status,
      processed: row.processed,
      total: row.total,
      progress: row.progress,
      updated: row.updated,
      updatedIds: JSON.parse(row.updated_ids) as string[],
      rejected,
      rejectedTotal: row.rejected_total,
      error: row.error,
      startedAt: row.started_at,
      finishedAt: row.finished_at,
    };
  }

  /** One job at a time (each applies over what the previous one left). */
  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length && this.db.open) {
        const next = this.queue.shift()!;
        try {
          await this.run(next.id, next.file, next.bytes);
        } catch (error) {
          if (!this.db.open) return; // closed under the job: the next start undoes it
          const refused = error instanceof ImportRefused;
          if (!refused) this.log(`upstream: CSV import failed: ${(error as Error).stack ?? String(error)}`);
          const reason = refused ? (error as Error).message : CSV_IMPORT_MESSAGES.failed((error as Error).message ?? String(error));
          await this.undo(next.id, reason).catch((e: unknown) => this.stopped(e, "undoing an import"));
        } finally {
          next.done();
        }
        if (this.db.open) await this.sweep().catch((error: unknown) => this.stopped(error, "cleaning up imports"));
      }
    } finally {
      this.running = false;
      this.busy = null;
    }
  }

  private stopped(error: unknown, what: string): void {
    if (this.db.open) this.log(`upstream: ${what} failed: ${(error as Error).stack ?? String(error)}`);
  }

  private async run(id: string, file: Buffer[], bytes: number): Promise<void> {
    const job = this.db.prepare("select * from portfolio_imports where id = ?").get(id) as JobRow;
    const columns = JSON.parse(job.columns) as (CsvColumn | null)[];
    const portfolios = new Map<string, boolean>();
    const known = (portfolioId: string) => {
      if (!portfolios.has(portfolioId)) portfolios.set(portfolioId, this.store.portfolioExists(portfolioId));
      return portfolios.get(portfolioId)!;
    };

    // 1. Staging.
    let processed = 0;
    let staged = 0;
    let rejectedTotal = 0;
    let progress = 0;
    const rejections: CsvRejection[] = [];
    const rows: { n: number; line: number; id: string; row: string }[] = [];
    const reject = (r: CsvRejection) => {
      rejectedTotal++;
      if (rejectedTotal <= CSV_IMPORT_LIMITS.reportedRejections) rejections.push(r);
    };
    const addRow = this.db.prepare("insert into portfolio_import_rows (job_id, n, line, app_id, row) values (?, ?, ?, ?, ?)");
    const addRejection = this.db.prepare("insert into portfolio_import_rejections (job_id, n, line, reason) values (?, ?, ?, ?)");
    const report = this.db.prepare("update portfolio_imports set processed = ?, progress = ?, staged = ?, rejected_total = ? where id = ?");
    let listed = 0; // rejections written to the report
    const flush = this.db.transaction(() => {
      for (const r of rows.splice(0)) addRow.run(id, r.n, r.line, r.id, r.row);
      for (const r of rejections.splice(0)) addRejection.run(id, ++listed, r.line, r.reason);
      report.run(processed, progress, staged, rejectedTotal, id);
    });
    const parser = parse({
      bom: true,
      from_line: 2,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      info: true,
      max_record_size: 2 * 1024 * 1024,
    });
    // A line CSV cannot read (an unclosed quote, a record over 2 MB) is reported and skipped.
    parser.on("skip", (error: Error & { lines?: number }) => {
      processed++;
      reject({ line: error.lines ?? 0, reason: `Not valid CSV: ${error.message}` });
    });
    const feeding = (async () => {
      for (const piece of file) {
        for (let at = 0; at < piece.length; at += FEED_SLICE) {
          if (!parser.write(piece.subarray(at, at + FEED_SLICE))) await new Promise((resolve) => parser.once("drain", resolve));
          await turn();
        }
      }
      parser.end();
    })();
    // Awaited below; when the rows' loop ends first (a refusal, a closed database) its end must not go unhandled.
    feeding.catch(() => undefined);
    let records = 0;
    let stepStart = performance.now();
    for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number; bytes: number } }>) {
      if (++records > CSV_IMPORT_LIMITS.rows) {
        parser.destroy();
        throw new ImportRefused(CSV_IMPORT_MESSAGES.tooManyRows);
      }
      processed++;
      progress = Math.min(1, item.info.bytes / Math.max(1, bytes)) / 2;
      const checked = rowValues(item.record, columns);
      if (typeof checked === "string") reject({ line: item.info.lines, reason: checked });
      else if (checked.values.portfolioId !== undefined && !known(checked.values.portfolioId)) {
        reject({ line: item.info.lines, reason: `portfolioId: Unknown portfolio "${checked.values.portfolioId}"` });
      } else {
        rows.push({ n: ++staged, line: item.info.lines, id: checked.values.id, row: JSON.stringify({ values: checked.values, given: [...checked.given] }) });
      }
      if (performance.now() - stepStart > STEP_MS) {
        flush();
        await pause();
        stepStart = performance.now();
      }
    }
    await feeding;
    flush();
    this.db.prepare("update portfolio_imports set total = ?, phase = 'applying' where id = ?").run(processed, id);

    // 2. Applying, each step journaled in its own transaction.
    this.busy = "applying";
    const readRows = this.db.prepare("select n, line, row from portfolio_import_rows where job_id = ? and n > ? order by n limit ?");
    const select = this.db.prepare("select * from applications where id = ?");
    const journal = this.db.prepare("insert or ignore into portfolio_import_undo (job_id, app_id, n, before) values (?, ?, ?, ?)");
    const progressed = this.db.prepare("update portfolio_imports set applied = ?, progress = ?, rejected_total = ? where id = ?");
    const updated = new Set<string>();
    const updatedIds: string[] = [];
    let applied = 0;
    const applyRow = (n: number, line: number, text: string) => {
      const { values, given: list } = JSON.parse(text) as { values: Exclude<ReturnType<typeof rowValues>, string>["values"]; given: CsvColumn[] };
      const given = new Set(list);
      const existing = select.get(values.id) as (ApplicationRow & Record<string, unknown>) | undefined;
      const portfolioId = values.portfolioId ?? existing?.portfolio_id ?? job.portfolio_id;
      if (!known(portfolioId)) {
        reject({ line, reason: `portfolioId: Unknown portfolio "${portfolioId}"` });
        return;
      }
      journal.run(id, values.id, n, existing ? JSON.stringify(existing) : null);
      if (existing) {
        const app = rowToApplication(existing);
        const tags = new Map(app.tags.map((t) => [t.name, t.score]));
        for (const t of values.tags ?? []) tags.set(t.name, t.score);
        const next: Application = {
          ...app,
          ...(given.has("sourceId") && values.source ? { source: values.source } : {}),
          ...(given.has("title") ? { title: values.title ?? "" } : {}),
          ...(given.has("abstract") ? { abstract: values.abstract ?? "" } : {}),
          ...(given.has("claims") ? { claims: values.claims ?? "" } : {}),
          ...(given.has("specification") ? { specification: values.specification ?? "" } : {}),
          ...(given.has("aiSummary") ? { aiSummary: values.aiSummary ?? "" } : {}),
          ...(given.has("products") ? { products: (values.products ?? []).map(normalizeProduct) } : {}),
          ...(given.has("broadScore") ? { broadScore: values.broadScore ?? null } : {}),
          ...(given.has("detectableScore") ? { detectableScore: values.detectableScore ?? null } : {}),
          tags: [...tags].map(([name, score]) => ({ name, score })),
          portfolioId,
        };
        this.store.replace(existing, next, job.actor);
      } else {
        const full = ApplicationCreate.parse({ ...values, portfolioId });
        const at = isoNow(this.now);
        this.store.insert(ApplicationsStore.fromValues(full), { createdAt: at, updatedAt: at, createdBy: job.actor, updatedBy: job.actor });
        this.store.emit(rowToApplication(select.get(values.id) as ApplicationRow), EVENT_CODES.applicationCreated);
      }
      if (!updated.has(values.id)) {
        updated.add(values.id);
        if (updatedIds.length < LISTED_IDS) updatedIds.push(values.id);
      }
    };
    for (;;) {
      const batch = readRows.all(id, applied, READ_BATCH) as { n: number; line: number; row: string }[];
      if (!batch.length) break;
      for (let i = 0; i < batch.length; ) {
        const start = performance.now();
        this.db.transaction(() => {
          while (i < batch.length && performance.now() - start < STEP_MS) {
            const r = batch[i++]!;
            applyRow(r.n, r.line, r.row);
            applied = r.n;
          }
          for (const r of rejections.splice(0)) addRejection.run(id, ++listed, r.line, r.reason);
          progressed.run(applied, 0.5 + applied / Math.max(1, staged) / 2, rejectedTotal, id);
        })();
        await pause();
      }
    }

    // 3. Completed: one statement says so; the staged rows and the journal go afterwards.
    this.db
      .prepare(
        `update portfolio_imports set status = 'completed', phase = 'done', progress = 1, updated = ?, updated_ids = ?,
         finished_at = ? where id = ?`,
      )
      .run(updated.size, JSON.stringify(updatedIds), isoNow(this.now), id);
    this.busy = null;
  }

  /** Undoes what the job applied (its journal, newest first, in steps), then marks it failed with `reason`. */
  private async undo(id: string, reason: string): Promise<void> {
    this.busy = "undoing";
    this.db.prepare("update portfolio_imports set phase = 'undoing' where id = ?").run(id);
    const next = this.db.prepare("select app_id, before from portfolio_import_undo where job_id = ? order by n desc limit ?");
    const forget = this.db.prepare("delete from portfolio_import_undo where job_id = ? and app_id = ?");
    const drop = this.db.prepare("delete from applications where id = ?");
    const current = this.db.prepare("select seq from applications where id = ?");
    const cols = (this.db.prepare("pragma table_info(applications)").all() as { name: string }[]).map((c) => c.name).filter((c) => c !== "seq");
    const update = this.db.prepare(`update applications set ${cols.map((c) => `${c} = @${c}`).join(", ")} where seq = @seq`);
    const insert = this.db.prepare(`insert into applications (seq, ${cols.join(", ")}) values (@seq, ${cols.map((c) => `@${c}`).join(", ")})`);
    const clearTags = this.db.prepare("delete from application_tags where app_seq = ?");
    const addTag = this.db.prepare("insert into application_tags (app_seq, name, portfolio_id, score) values (?, ?, ?, ?)");
    for (;;) {
      const batch = next.all(id, READ_BATCH) as { app_id: string; before: string | null }[];
      if (!batch.length) break;
      for (let i = 0; i < batch.length; ) {
        const start = performance.now();
        this.db.transaction(() => {
          while (i < batch.length && performance.now() - start < STEP_MS) {
            const { app_id: appId, before } = batch[i++]!;
            const now = current.get(appId) as { seq: number } | undefined;
            if (before === null) {
              drop.run(appId);
            } else {
              const row = JSON.parse(before) as ApplicationRow & Record<string, unknown>;
              if (now && now.seq !== row.seq) drop.run(appId);
              if (now?.seq === row.seq) update.run(row);
              else insert.run(row);
              clearTags.run(row.seq);
              for (const t of rowToApplication(row).tags) addTag.run(row.seq, t.name, row.portfolio_id, t.score);
            }
            forget.run(id, appId);
          }
        })();
        await pause();
      }
    }
    this.db
      .prepare(
        `update portfolio_imports set status = 'failed', phase = 'done', error = ?, updated = 0, updated_ids = '[]',
         finished_at = ? where id = ?`,
      )
      .run(reason, isoNow(this.now), id);
    this.busy = null;
  }

  /** Deletes, in steps, the staged rows and journals of jobs that have ended. */
  private async sweep(): Promise<void> {
    const ended = "(select id from portfolio_imports where phase = 'done')";
    for (const table of ["portfolio_import_rows", "portfolio_import_undo"]) {
      const key = table === "portfolio_import_rows" ? "n" : "app_id";
      const step = this.db.prepare(
        `delete from ${table} where (job_id, ${key}) in (select job_id, ${key} from ${table} where job_id in ${ended} limit ${READ_BATCH * 4})`,
      );
      while (this.db.open && step.run().changes > 0) await pause();
    }
  }
}
