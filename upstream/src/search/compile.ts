/**
 * Query compilation: the parsed query (ir.ts) as one FTS5 expression every hit matches, ranked by bm25 with the
 * query's column weights, and SQL conditions on the joined row for what FTS5 cannot express
 * (docs/decisions/search-engine.md has the table); and a sort as an ORDER BY. No statement runs here.
 */
import { TEXT_COLUMNS, effectiveMsm, type Node, type TextNode } from "./ir";
import type { ParsedSearch, SortKey } from "./dsl";
import type { SearchScope } from "./engine";
import { prefixFlags } from "./rank";
import { ftsString, portfolioToken, tagToken } from "./tokens";

export type Sql = { sql: string; params: unknown[] };

/** The compiled query. */
export type Plan = {
  /** One FTS5 expression every hit matches (null: no text clause at the top level). */
  match: string | null;
  /** Further conditions on `a` (applications), ANDed. */
  where: Sql[];
  /** The top-level positive clauses, for the counts shortcuts. */
  positives: Node[];
  negatives: Node[];
  /** OR of every positive text leaf: what highlight marks. */
  highlight: string | null;
  /** Those leaves (distinct). */
  leaves: TextNode[];
  weights: number[];
  /** Whether top-level tag or portfolio filters are index tokens in `match`. */
  tokensInMatch: boolean;
  /**
   * A prefix (`"word"*`) is in a full-text expression: each MATCH started merges the index entries of every word it
   * covers (~0.25 s for `con*` at 1M applications), so its statements run on the rank workers when there are some.
   * So do those of a large query (`isLarge`), whose cost its structure cannot tell: there the time budget holds.
   */
  offThread: boolean;
};

/**
 * A query whose statements run on the rank workers, under the time budget (SEARCH_LIMITS.statementMs), whatever their
 * words: more words than this (each a posting list every statement walks: 30 common words held the event loop ~0.3 s
 * at 100,000 applications) or more clauses (a `should` of many tags or ids without text is tested on every row). The
 * bench's mix has at most 3 words and 3 clauses, and stays on the calling thread.
 */
const LARGE_QUERY = { terms: 4, clauses: 16 } as const;
const isLarge = (parsed: ParsedSearch) => parsed.ctx.terms > LARGE_QUERY.terms || parsed.ctx.clauses > LARGE_QUERY.clauses;

/** Whether an FTS5 expression among `values` has a phrase ending in a prefix (`"…"*`: rank.ts `prefixFlags`). */
const hasPrefix = (values: readonly unknown[]) => values.some((v) => typeof v === "string" && prefixFlags(v) !== "");

const SORT_COLUMNS: Record<string, string> = {
  id: "a.id",
  title: "a.title",
  broadScore: "a.broad_score",
  detectableScore: "a.detectable_score",
  createdAt: "a.created_at",
  updatedAt: "a.updated_at",
};

/**
 * `expr` without the rows any of `excluded` matches: one NOT of their OR, as `a NOT (b OR c)`. A NOT per exclusion
 * nests (FTS5's NOT takes two operands) and FTS5 refuses an expression deeper than 256: a must_not of 300 tags.
 */
const without = (expr: string, excluded: readonly string[]) => (excluded.length ? `(${expr}) NOT (${or([...excluded])})` : expr);

/** Conditions joined in one chain up to this many; more as a tree (`balanced`). */
const BALANCED_FROM = 64;

/**
 * SQL conditions joined by `op` as a balanced tree: SQLite refuses an expression deeper than 1,000, and a chain of
 * `a and b and …` (or `a + b + …`, a `should`'s count) is as deep as it is long — a bool of 1,000 clauses (within
 * SEARCH_LIMITS) would answer SQLite's error.
 */
function balanced(parts: readonly Sql[], op: " and " | " + "): Sql {
  if (parts.length <= BALANCED_FROM) return { sql: parts.map((p) => `(${p.sql})`).join(op), params: parts.flatMap((p) => p.params) };
  const half = Math.ceil(parts.length / 2);
  const a = balanced(parts.slice(0, half), op);
  const b = balanced(parts.slice(half), op);
  return { sql: `(${a.sql})${op}(${b.sql})`, params: [...a.params, ...b.params] };
}

const and = (parts: string[]) => (parts.length === 1 ? parts[0]! : parts.map((p) => `(${p})`).join(" AND "));
const or = (parts: string[]) => (parts.length === 1 ? parts[0]! : parts.map((p) => `(${p})`).join(" OR "));

function hasText(node: Node): boolean {
  if (node.kind === "text") return true;
  if (node.kind !== "bool") return false;
  return [...node.must, ...node.filter, ...node.should].some(hasText);
}

/** The node as an FTS5 expression, or null when FTS5 cannot express it. */
function ftsOf(node: Node): string | null {
  switch (node.kind) {
    case "text":
      return node.expr;
    case "tag":
      return `tag_tokens : ${ftsString(tagToken(node.name))}`;
    case "portfolio":
      return `portfolio_token : ${ftsString(portfolioToken(node.id))}`;
    case "bool": {
      const msm = effectiveMsm(node);
      const required = [...node.must, ...node.filter].filter((n) => n.kind !== "all");
      if ([...node.must, ...node.filter].some((n) => n.kind === "none")) return null;
      const parts: string[] = [];
      for (const n of required) {
        const f = ftsOf(n);
        if (f === null) return null;
        parts.push(f);
      }
      if (msm > 1) return null;
      if (msm === 1) {
        const alternatives: string[] = [];
        for (const n of node.should) {
          if (n.kind === "none") continue;
          const f = ftsOf(n);
          if (f === null) return null;
          alternatives.push(f);
        }
        if (!alternatives.length) return null;
        parts.push(or(alternatives));
      }
      if (!parts.length) return null;
      const excluded: string[] = [];
      for (const n of node.mustNot) {
        const f = ftsOf(n);
        if (f === null) return null;
        excluded.push(f);
      }
      return without(and(parts), excluded);
    }
    default:
      return null;
  }
}

/** The node as an SQL condition on `a`. */
function sqlOf(node: Node): Sql {
  switch (node.kind) {
    case "all":
      return { sql: "1", params: [] };
    case "none":
      return { sql: "0", params: [] };
    case "text":
      return { sql: "a.seq in (select rowid from applications_fts where applications_fts match ?)", params: [node.expr] };
    case "tag":
      return { sql: "exists (select 1 from application_tags t where t.app_seq = a.seq and t.name = ?)", params: [node.name] };
    case "portfolio":
      return { sql: "a.portfolio_id = ?", params: [node.id] };
    case "ids":
      if (!node.values.length) return { sql: "0", params: [] };
      return { sql: `a.${node.column} in (select value from json_each(?))`, params: [JSON.stringify(node.values)] };
    case "range":
      return { sql: node.bounds.map((b) => `a.${node.column} ${b.op} ?`).join(" and "), params: node.bounds.map((b) => b.value) };
    case "bool": {
      const parts: Sql[] = [];
      for (const n of [...node.must, ...node.filter]) parts.push(sqlOf(n));
      const msm = effectiveMsm(node);
      if (msm > 0) {
        const should = msm === 1 ? anyOf(node.should) : node.should.map(sqlOf);
        const sum = balanced(should.map((s) => ({ sql: `coalesce((${s.sql}), 0)`, params: s.params })), " + ");
        parts.push({ sql: `(${sum.sql}) >= ${msm}`, params: sum.params });
      }
      for (const n of node.mustNot) {
        const s = sqlOf(n);
        parts.push({ sql: `not coalesce((${s.sql}), 0)`, params: s.params });
      }
      if (!parts.length) return { sql: "1", params: [] };
      return balanced(parts, " and ");
    }
  }
}

/**
 * The conditions of a `should` of which one clause must match, its tags gathered into one condition, and so its ids
 * and its portfolios: `terms` on 1,000 tags tests one `name in (…)` per row, not 1,000 lookups (over 5 s for 3,000
 * applications).
 */
function anyOf(should: readonly Node[]): Sql[] {
  const tags: string[] = [];
  const portfolios: string[] = [];
  const ids = { id: [] as string[], source_id: [] as string[] };
  const rest: Node[] = [];
  for (const n of should) {
    if (n.kind === "tag") tags.push(n.name);
    else if (n.kind === "portfolio") portfolios.push(n.id);
    else if (n.kind === "ids") ids[n.column].push(...n.values);
    else rest.push(n);
  }
  if (tags.length + portfolios.length + ids.id.length + ids.source_id.length <= 1) return should.map(sqlOf);
  const out: Sql[] = [];
  const list = (values: string[]) => [JSON.stringify(values)];
  if (tags.length) out.push({ sql: "exists (select 1 from application_tags t where t.app_seq = a.seq and t.name in (select value from json_each(?)))", params: list(tags) });
  if (portfolios.length) out.push({ sql: "a.portfolio_id in (select value from json_each(?))", params: list(portfolios) });
  for (const column of ["id", "source_id"] as const) if (ids[column].length) out.push(sqlOf({ kind: "ids", column, values: ids[column] }));
  return [...out, ...rest.map(sqlOf)];
}

/** The top-level conjunction: positive clauses (ANDed) and negative ones. */
function conjuncts(node: Node): { positives: Node[]; negatives: Node[] } {
  if (node.kind === "all") return { positives: [], negatives: [] };
  if (node.kind !== "bool") return { positives: [node], negatives: [] };
  const positives: Node[] = [];
  const negatives: Node[] = [...node.mustNot];
  for (const n of [...node.must, ...node.filter]) {
    const inner = conjuncts(n);
    positives.push(...inner.positives);
    negatives.push(...inner.negatives);
  }
  const msm = effectiveMsm(node);
  if (msm === 1 && node.should.length === 1) {
    const inner = conjuncts(node.should[0]!);
    positives.push(...inner.positives);
    negatives.push(...inner.negatives);
  } else if (msm > 0) {
    positives.push({ kind: "bool", must: [], should: node.should, mustNot: [], filter: [], msm });
  }
  return { positives, negatives };
}

/** Every positive text leaf (not under a must_not): what the highlighter marks. */
function textLeaves(node: Node, out: TextNode[] = []): TextNode[] {
  if (node.kind === "text") out.push(node);
  else if (node.kind === "bool") for (const n of [...node.must, ...node.filter, ...node.should]) textLeaves(n, out);
  return out;
}

/**
 * `tokens`: where the top-level tag and portfolio filters go. "match" (the default) ANDs their index tokens into the
 * MATCH, which suits any number of text matches; "sql" tests them on the joined row instead; "tags" ANDs the tags'
 * tokens into the MATCH and tests the portfolio on the row (see sqlite.ts `plan`).
 */
export function compile(parsed: ParsedSearch, scope: SearchScope, tokens: "match" | "sql" | "tags" = "match"): Plan {
  const query: Node = scope.portfolioId
    ? { kind: "bool", must: [parsed.query], should: [], mustNot: [], filter: [{ kind: "portfolio", id: scope.portfolioId }], msm: null }
    : parsed.query;
  const { positives, negatives } = conjuncts(query);
  const weights = [...TEXT_COLUMNS.map((c) => parsed.ctx.weights[c]), 0, 0];
  const leaves = [...new Map(textLeaves(query).map((l) => [l.expr, l])).values()];
  const highlight = leaves.length ? or(leaves.map((l) => l.expr)) : null;
  const where: Sql[] = [];
  const matchParts: string[] = [];
  const textual = positives.filter((n) => hasText(n) && ftsOf(n) !== null);
  const isToken = (n: Node) => n.kind === "tag" || n.kind === "portfolio";
  // A tag or portfolio filter that goes into the MATCH as its index token.
  const asToken = (n: Node) => (n.kind === "tag" && tokens !== "sql") || (n.kind === "portfolio" && tokens === "match");
  let tokensInMatch = false;
  if (textual.length) {
    for (const n of positives) {
      const f = ftsOf(n);
      if (f !== null && (hasText(n) || asToken(n))) {
        matchParts.push(f);
        tokensInMatch ||= isToken(n);
      } else where.push(sqlOf(n));
    }
  } else {
    for (const n of positives) where.push(sqlOf(n));
  }
  let match = matchParts.length ? and(matchParts) : null;
  const excluded: string[] = [];
  for (const n of negatives) {
    const f = match && (!isToken(n) || asToken(n)) ? ftsOf(n) : null;
    tokensInMatch ||= f !== null && isToken(n);
    if (f !== null) excluded.push(f);
    else {
      const s = sqlOf(n);
      where.push({ sql: `not coalesce((${s.sql}), 0)`, params: s.params });
    }
  }
  if (match) match = without(match, excluded);
  // Many conditions (a must of 1,000 ranges) as one: see `balanced`.
  if (where.length > BALANCED_FROM) where.splice(0, where.length, balanced(where, " and "));
  const offThread = isLarge(parsed) || hasPrefix([match, ...where.flatMap((w) => w.params)]);
  return { match, where, positives, negatives, highlight, leaves, weights, tokensInMatch, offThread };
}

/** No sort, or `_score` descending alone: the engine's relevance order. */
export const isScoreSort = (sort: SortKey[] | null) => !sort || (sort.length === 1 && sort[0]!.field === "_score" && sort[0]!.order === "desc");

export function orderBy(plan: Plan, sort: SortKey[] | null): { sql: string; needsRow: boolean; scored: boolean } {
  const keys = sort ?? [{ field: "_score", order: "desc" }];
  const parts: string[] = [];
  let needsRow = false;
  let scored = false;
  for (const key of keys) {
    if (key.field === "_score") {
      if (!plan.match) continue;
      scored = true;
      parts.push(key.order === "desc" ? "s asc" : "s desc");
    } else {
      needsRow = true;
      const column = SORT_COLUMNS[key.field]!;
      parts.push(key.order === "desc" ? `${column} desc` : `${column} is null, ${column} asc`);
    }
  }
  parts.push(plan.match ? "applications_fts.rowid desc" : "a.seq desc");
  return { sql: parts.join(", "), needsRow, scored };
}
