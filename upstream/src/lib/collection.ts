import type { Statement } from "better-sqlite3";
import type { ListQuery, Page } from "../../contract";
import type { Db } from "../db";

/** Prepared statements by SQL text, per database: `db.prepare` once, not per call (preparing is not free). */
const statements = new WeakMap<Db, Map<string, Statement>>();
/** The SQL of lists is the developer's (a handful of shapes per collection): the bound is only a safety net. */
const MAX_CACHED_STATEMENTS = 500;

/** `db.prepare(sql)`, prepared once per database and SQL text and reused after. */
export function prepared(db: Db, sql: string): Statement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let statement = cache.get(sql);
  if (!statement) {
    if (cache.size >= MAX_CACHED_STATEMENTS) cache.clear();
    cache.set(sql, (statement = db.prepare(sql)));
  }
  return statement;
}

/**
 * How to list one collection. Every string here is SQL written by the developer (never user input); user input only
 * reaches the database as bound parameters.
 *
 * Example (users):
 *   { from: "users u", select: "u.*", id: "u.id", createdAt: "u.created_at",
 *     search: ["u.email", "u.first_name", "u.last_name", "u.first_name || ' ' || u.last_name"],
 *     nameOrder: "lower(u.first_name || ' ' || u.last_name), lower(u.email)" }
 */
export type CollectionSource = {
  /** FROM clause, with joins if needed: "organizations o". */
  from: string;
  /** SELECT list: "o.*". */
  select: string;
  /** Expressions `q` is searched in: case-insensitive substring match on any of them. */
  search: readonly string[];
  /** ORDER BY for sort=name (the id is appended as the final tie-break). */
  nameOrder: string;
  /** Creation timestamp column (ISO 8601 text sorts chronologically) for sort=newest/oldest. */
  createdAt: string;
  /** Id column: the final tie-break of every sort, so pages are stable. */
  id: string;
  /** Extra filter ANDed to the search, e.g. `{ sql: "t.assistants_team = ?", params: [1] }`. */
  where?: { sql: string; params: readonly unknown[] };
};

/** ORDER BY for the contract's sort names. */
function orderBy(source: CollectionSource, sort: ListQuery["sort"]): string {
  switch (sort) {
    case "newest":
      return `${source.createdAt} desc, ${source.id} desc`;
    case "oldest":
      return `${source.createdAt} asc, ${source.id} asc`;
    case "name":
      return `${source.nameOrder}, ${source.id} asc`;
  }
}

/**
 * `limit N`, N written into the SQL. SQLite's planner reads the value bound to a LIMIT parameter, and a statement whose
 * planner read a parameter is compiled again on its next run once that parameter is bound again, even to the same
 * value: better-sqlite3 binds on every call, so `limit ?` meant a fresh parse and plan on every run (~12 µs for the
 * users page, 1.5% of `/people` under load). A page size is one of a few values: one statement each.
 */
export function limitOf(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`A LIMIT must be a non-negative integer, not ${n}`);
  return `limit ${n}`;
}

/**
 * One page of a collection with search and sort, plus the total matching rows: the contract's `pageOf` shape.
 * `toItem` maps a database row to the answered item: an object by column name, or with `raw` an array of the
 * `select` list's values in order (no object built per row only to be copied into the item).
 */
export function listPage<Row, Item>(
  db: Db,
  source: CollectionSource,
  query: ListQuery,
  toItem: (row: Row) => Item,
  options: { raw?: boolean } = {},
): Page<Item> {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (source.where) {
    conditions.push(`(${source.where.sql})`);
    params.push(...source.where.params);
  }
  const q = query.q.trim().toLowerCase();
  if (q && source.search.length) {
    conditions.push(`(${source.search.map((expr) => `instr(lower(${expr}), ?) > 0`).join(" or ")})`);
    params.push(...source.search.map(() => q));
  }
  const where = conditions.length ? `where ${conditions.join(" and ")}` : "";
  const total = (prepared(db, `select count(*) as n from ${source.from} ${where}`).get(...params) as { n: number }).n;
  const rows = prepared(
    db,
    `select ${source.select} from ${source.from} ${where} order by ${orderBy(source, query.sort)} ${limitOf(query.pageSize)} offset ?`,
  )
    // Set on every call: prepared statements are shared by their SQL text.
    .raw(options.raw === true)
    .all(...params, (query.page - 1) * query.pageSize) as Row[];
  return { items: rows.map(toItem), total, page: query.page, pageSize: query.pageSize };
}
