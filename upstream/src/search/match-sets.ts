/**
 * Categorization's calls on whole match sets (engine.ts `scanMatches`, `countMatches`, `matchAmong`): every match of a
 * query's `query`, a window of the index at a time, each waiting for a rebuild under way (`indexWhole`).
 */
import { ADVANCED_MAX_SIZE } from "../../contract/portfolio";
import { prepared } from "../lib/collection";
import { scoreOf } from "./answer";
import { compile } from "./compile";
import { parseSearchBody } from "./dsl";
import type { Match, SearchScope } from "./engine";
import type { PlanStatements } from "./statements";

/** Only the body's query: what a whole-match-set scan honours. */
function queryOnly(body: unknown): unknown {
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  const query = (body as { query?: unknown }).query;
  return query === undefined ? {} : { query };
}

export async function* scanMatches(statements: PlanStatements, indexWhole: () => Promise<void>, body: unknown, scope: SearchScope, batch: number): AsyncGenerator<Match[]> {
  const plan = compile(parseSearchBody(queryOnly(body), { maxSize: ADVANCED_MAX_SIZE }), scope);
  const where = plan.where.map((w) => ` and (${w.sql})`).join("");
  const params = plan.where.flatMap((w) => w.params);
  // A window of seqs per step bounds the work of one step even when few rows of it match.
  const window = 20_000;
  // (a prefix's steps run on the rank workers: see statements.ts `all`)
  const sql = plan.match
    ? `select applications_fts.rowid as seq, a.id as id, ${statements.score(plan)} as s
       from applications_fts join applications a on a.seq = applications_fts.rowid
       where applications_fts match ? and applications_fts.rowid > cast(? as integer) and applications_fts.rowid <= cast(? as integer)${where}
       order by applications_fts.rowid limit ?`
    : `select a.seq as seq, a.id as id, null as s from applications a where a.seq > ? and a.seq <= ?${where} order by a.seq limit ?`;
  const end = (prepared(statements.db, "select coalesce(max(seq), 0) as m from applications").get() as { m: number }).m;
  let last = 0;
  while (last < end) {
    await indexWhole();
    const hi = Math.min(last + window, end);
    const rows = await statements.all<{ seq: number; id: string; s: number | null }>(
      plan,
      sql,
      plan.match ? [plan.match, last, hi, ...params, batch] : [last, hi, ...params, batch],
    );
    last = rows.length === batch ? rows[rows.length - 1]!.seq : hi;
    if (rows.length) yield rows.map((r) => ({ id: r.id, score: scoreOf(r.s) }));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export async function countMatches(statements: PlanStatements, indexWhole: () => Promise<void>, body: unknown, scope: SearchScope): Promise<number> {
  const plan = compile(parseSearchBody(queryOnly(body), { maxSize: ADVANCED_MAX_SIZE }), scope);
  const where = plan.where.map((w) => ` and (${w.sql})`).join("");
  const params = plan.where.flatMap((w) => w.params);
  const sql = plan.match
    ? `select count(*) as n from applications_fts join applications a on a.seq = applications_fts.rowid
       where applications_fts match ? and applications_fts.rowid > cast(? as integer) and applications_fts.rowid <= cast(? as integer)${where}`
    : `select count(*) as n from applications a where a.seq > ? and a.seq <= ?${where}`;
  const end = (prepared(statements.db, "select coalesce(max(seq), 0) as m from applications").get() as { m: number }).m;
  const window = 50_000;
  let total = 0;
  for (let last = 0; last < end; last += window) {
    await indexWhole();
    const hi = Math.min(last + window, end);
    const [row] = await statements.all<{ n: number }>(plan, sql, plan.match ? [plan.match, last, hi, ...params] : [last, hi, ...params]);
    total += row!.n;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return total;
}

export async function matchAmong(
  statements: PlanStatements,
  indexWhole: () => Promise<void>,
  body: unknown,
  scope: SearchScope,
  ids: readonly string[],
): Promise<Map<string, number | null>> {
  const plan = compile(parseSearchBody(queryOnly(body), { maxSize: ADVANCED_MAX_SIZE }), scope);
  const out = new Map<string, number | null>();
  if (!ids.length) return out;
  await indexWhole();
  const where = plan.where.map((w) => ` and (${w.sql})`).join("");
  const params = plan.where.flatMap((w) => w.params);
  const list = JSON.stringify(ids);
  const rows = plan.match
    ? await statements.all<{ id: string; s: number | null }>(
        plan,
        `select a.id as id, ${statements.score(plan)} as s
         from applications_fts join applications a on a.seq = applications_fts.rowid
         where applications_fts match ?
           and applications_fts.rowid in (select seq from applications where id in (select value from json_each(?)))${where}`,
        [plan.match, list, ...params],
      )
    : (prepared(statements.db, `select a.id as id, null as s from applications a where a.id in (select value from json_each(?))${where}`).all(
        list,
        ...params,
      ) as { id: string; s: number | null }[]);
  for (const r of rows) out.set(r.id, scoreOf(r.s));
  return out;
}
