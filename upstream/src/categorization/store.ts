import crypto from "node:crypto";
import type { Statement } from "better-sqlite3";
import {
  CATEGORIZATION_LIMITS,
  CATEGORIZATION_MESSAGES,
  DEFAULT_QUERY,
  type CategorizationJob,
  type CategorizationJobKind,
  type CategorizationQuery,
} from "../../contract/categorization";
import type { Db } from "../db";
import { CollectionStore, columns } from "../lib/collection-store";
import { conflict, isoNow } from "../lib/http";

/** Saved categorization queries (the resource kit): name in its column, tags and text in `data`. */
export class QueriesStore extends CollectionStore<CategorizationQuery> {
  private readonly all: Statement;
  private readonly count: Statement;

  constructor(db: Db, now: () => number) {
    super(db, now, {
      table: "categorization_queries",
      columns: { name: columns.text("name") },
      data: { tags: [], text: DEFAULT_QUERY.text },
      search: ["name"],
    });
    this.all = db.prepare("select * from categorization_queries order by lower(name), id limit ?");
    this.count = db.prepare("select count(*) as n from categorization_queries");
  }

  /** Deletes it; the last query stays (the screen always has one: spec 2 §2 deletes only when more than one exists). */
  override remove(id: string): boolean {
    if (!this.get(id)) return false;
    if ((this.count.get() as { n: number }).n <= 1) throw conflict(CATEGORIZATION_MESSAGES.lastQuery);
    return super.remove(id);
  }

  /** Every saved query, by name (apply-all, prune). */
  everyQuery(): CategorizationQuery[] {
    return (this.all.all(CATEGORIZATION_LIMITS.queries) as ({ id: string } & Record<string, unknown>)[]).map((r) => this.toItem(r));
  }
}

type JobRow = {
  id: string;
  kind: CategorizationJobKind;
  query_id: string | null;
  query_name: string | null;
  tags: string;
  status: CategorizationJob["status"];
  done: number;
  total: number | null;
  changed: number;
  skipped: string;
  error: string | null;
  created_at: string;
  created_by: string | null;
  started_at: string | null;
  finished_at: string | null;
};

const toJob = (r: JobRow): CategorizationJob => ({
  id: r.id,
  kind: r.kind,
  queryId: r.query_id,
  queryName: r.query_name,
  tags: JSON.parse(r.tags) as string[],
  status: r.status,
  done: r.done,
  total: r.total,
  changed: r.changed,
  skipped: JSON.parse(r.skipped) as CategorizationJob["skipped"],
  error: r.error,
  createdAt: r.created_at,
  createdBy: r.created_by,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
});

/** Categorization jobs and their progress, in the database (a reload, or a restart, still shows them). */
export class JobsStore {
  private readonly insert: Statement;
  private readonly select: Statement;
  private readonly latest: Statement;
  private readonly latestOf: Statement;
  private readonly progress: Statement;
  private readonly start: Statement;
  private readonly finish: Statement;
  private readonly skip: Statement;
  private readonly cancel: Statement;

  constructor(
    db: Db,
    private readonly now: () => number,
  ) {
    this.insert = db.prepare(
      `insert into categorization_jobs (id, kind, query_id, query_name, tags, status, created_at, created_by)
       values (?, ?, ?, ?, ?, 'queued', ?, ?)`,
    );
    this.select = db.prepare("select * from categorization_jobs where id = ?");
    this.latest = db.prepare("select * from categorization_jobs order by rowid desc limit ?");
    this.latestOf = db.prepare(
      "select * from categorization_jobs where query_id = ? or kind = 'applyAll' or (kind = 'prune' and query_id is null) order by rowid desc limit ?",
    );
    this.progress = db.prepare("update categorization_jobs set done = ?, total = ?, changed = ? where id = ?");
    this.start = db.prepare("update categorization_jobs set status = 'running', started_at = ? where id = ?");
    this.finish = db.prepare("update categorization_jobs set status = ?, error = ?, finished_at = ? where id = ?");
    this.skip = db.prepare("update categorization_jobs set skipped = ? where id = ?");
    this.cancel = db.prepare(
      "update categorization_jobs set status = 'cancelled', finished_at = ? where id = ? and status in ('queued', 'running')",
    );
    // Jobs a restart cut short: failed, saying so.
    db.prepare("update categorization_jobs set status = 'failed', error = ?, finished_at = ? where status in ('queued', 'running')").run(
      CATEGORIZATION_MESSAGES.interrupted,
      isoNow(now),
    );
  }

  create(kind: CategorizationJobKind, query: { id: string; name: string; tags: string[] } | null, actor: string | null): CategorizationJob {
    const id = crypto.randomUUID();
    this.insert.run(id, kind, query?.id ?? null, query?.name ?? null, JSON.stringify(query?.tags ?? []), isoNow(this.now), actor);
    return this.get(id)!;
  }

  get(id: string): CategorizationJob | null {
    const row = this.select.get(id) as JobRow | undefined;
    return row ? toJob(row) : null;
  }

  /** The latest jobs; with a query id, that query's and every apply-all or every-query prune. */
  list(queryId: string | undefined, limit: number): CategorizationJob[] {
    const rows = (queryId ? this.latestOf.all(queryId, limit) : this.latest.all(limit)) as JobRow[];
    return rows.map(toJob);
  }

  started(id: string): void {
    this.start.run(isoNow(this.now), id);
  }

  report(id: string, done: number, total: number | null, changed: number): void {
    this.progress.run(done, total, changed, id);
  }

  skipped(id: string, skipped: CategorizationJob["skipped"]): void {
    this.skip.run(JSON.stringify(skipped), id);
  }

  /** A queued or running job stopped on request (what it did so far is kept in its progress). */
  cancelled(id: string): void {
    this.cancel.run(isoNow(this.now), id);
  }

  finished(id: string, error: string | null): void {
    this.finish.run(error === null ? "completed" : "failed", error, isoNow(this.now), id);
  }
}
