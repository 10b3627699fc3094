/**
 * A compiled plan's statements and where they run: on this thread, or on the rank workers (rank-pool.ts) when the
 * plan says so (`offThread`); its source statement, scored or not, its page (on one thread, or ranked by the workers
 * a rowid range each), its count, and the rows of its hits.
 */
import { rowOfValues, type ApplicationRow } from "../applications/store";
import type { Db } from "../db";
import { prepared } from "../lib/collection";
import { orderBy, type Plan, type Sql } from "./compile";
import type { SortKey } from "./dsl";
import { QueryError } from "./ir";
import { scoreSql } from "./rank";
import type { RankPool, RankedRow } from "./rank-pool";

/** The page of a `_score` sort: bm25 ascending (best first), then the newest row. */
export const byScore = (a: RankedRow, b: RankedRow) => a.s - b.s || b.seq - a.seq;

export class PlanStatements {
  constructor(
    readonly db: Db,
    private readonly pool: RankPool | null,
    /** The ranking library loaded (bm25v), or null: FTS5's bm25. */
    private readonly rankExtension: string | null,
  ) {}

  /** A MATCH row's score, lower first (see rank.ts). */
  score(plan: Plan): string {
    return scoreSql(this.rankExtension !== null, plan.match ?? "", plan.weights);
  }

  /** Those of `rows` (the plan's MATCH's) whose application meets the plan's other conditions. */
  async kept(plan: Plan, rows: RankedRow[]): Promise<RankedRow[]> {
    if (!plan.where.length || !rows.length) return rows;
    const keep = await this.all<{ seq: number }>(
      plan,
      `select a.seq as seq from applications a where a.seq in (select value from json_each(?))${plan.where.map((w) => ` and (${w.sql})`).join("")}`,
      [JSON.stringify(rows.map((r) => r.seq)), ...plan.where.flatMap((w) => w.params)],
    );
    const seqs = new Set(keep.map((r) => r.seq));
    return rows.filter((r) => seqs.has(r.seq));
  }

  /**
   * A statement that starts a MATCH: on this thread, or on a rank worker when the plan has a prefix (`offThread`) and
   * there are workers. A worker that fails (or a closed pool) leaves it to this thread, which answers or throws as it
   * would have.
   */
  async all<T>(plan: Plan, sql: string, params: unknown[]): Promise<T[]> {
    if (plan.offThread && this.pool) {
      try {
        return (await this.pool.run(sql, params)) as T[];
      } catch (error) {
        // Past its time budget: not again here, where nothing could stop it.
        if (error instanceof QueryError) throw error;
        // On this thread, below.
      }
    }
    return prepared(this.db, sql).all(...params) as T[];
  }

  source(plan: Plan, select: string, needsRow: boolean, scored: boolean): Sql {
    const where = plan.where.map((w) => w.sql);
    const params = plan.where.flatMap((w) => w.params);
    if (plan.match) {
      const score = scored ? `, ${this.score(plan)} as s` : ", null as s";
      const join = needsRow || where.length ? " join applications a on a.seq = applications_fts.rowid" : "";
      return {
        sql: `select ${select}${score} from applications_fts${join} where applications_fts match ?${where.map((w) => ` and (${w})`).join("")}`,
        params: [plan.match, ...params],
      };
    }
    return { sql: `select ${select}, null as s from applications a${where.length ? ` where ${where.map((w) => `(${w})`).join(" and ")}` : ""}`, params };
  }

  /**
   * The first `limit` hits of a `_score` sort, ranked by the pool: the rows split into one rowid range per worker,
   * each range's best `limit`, merged. The same rows in the same order as `page` (bm25's statistics are the table's).
   */
  async pageParallel(pool: RankPool, plan: Plan, limit: number): Promise<RankedRow[]> {
    // Two subqueries: min() and max() in one select would scan the table instead of reading each end of the index.
    const bounds = prepared(
      this.db,
      "select coalesce((select min(seq) from applications), 1) - 1 as lo, coalesce((select max(seq) from applications), 0) as hi",
    ).get() as { lo: number; hi: number };
    const src = this.source(plan, "applications_fts.rowid as seq", false, true);
    const sql = `${src.sql} and applications_fts.rowid > cast(? as integer) and applications_fts.rowid <= cast(? as integer)
      order by s asc, applications_fts.rowid desc limit ?`;
    const step = Math.ceil((bounds.hi - bounds.lo) / pool.size);
    const parts: { sql: string; params: unknown[] }[] = [];
    for (let lo = bounds.lo; lo < bounds.hi; lo += step) parts.push({ sql, params: [...src.params, lo, Math.min(lo + step, bounds.hi), limit] });
    try {
      const ranked = await pool.runAll(parts);
      return ranked.flat().sort(byScore).slice(0, limit);
    } catch (error) {
      if (error instanceof QueryError) throw error;
      // A worker that failed (it logs nothing: the same query on this thread answers or throws as it would have).
      return (await this.page(plan, null, limit, 0)) as RankedRow[];
    }
  }

  page(plan: Plan, sort: SortKey[] | null, size: number, from: number): Promise<{ seq: number; s: number | null }[]> {
    const order = orderBy(plan, sort);
    const src = this.source(plan, plan.match ? "applications_fts.rowid as seq" : "a.seq as seq", order.needsRow, order.scored);
    return this.all(plan, `${src.sql} order by ${order.sql} limit ? offset ?`, [...src.params, size, from]);
  }

  /** At most `limit` of the query's matches, counted (-1: all of them). */
  async countUpTo(plan: Plan, limit: number): Promise<number> {
    const src = this.source(plan, "1", false, false);
    const [row] = await this.all<{ n: number }>(plan, `select count(*) as n from (${src.sql} limit ?)`, [...src.params, limit]);
    return row!.n;
  }

  /** The rows of these seqs (by seq): `columns` of them, HIT_COLUMNS or ALL_COLUMNS. */
  hydrate(seqs: readonly { seq: number }[], columns: string): Map<number, ApplicationRow> {
    const out = new Map<number, ApplicationRow>();
    if (!seqs.length) return out;
    const stmt = prepared(this.db, `select ${columns} from applications where seq in (select value from json_each(?))`).raw(true);
    for (const values of stmt.all(JSON.stringify(seqs.map((s) => s.seq))) as unknown[][]) {
      const row = rowOfValues(values);
      out.set(row.seq, row);
    }
    return out;
  }
}
