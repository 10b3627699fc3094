/**
 * The embedded search engine: SQLite FTS5 over the applications table (schema in applications/schema.ts).
 *
 * Compilation (docs/decisions/search-engine.md has the table): the query's top-level conjunction is split into the
 * clauses FTS5 can express (text leaves, and tag and portfolio filters as index tokens, combined with AND / OR /
 * NOT) — one `MATCH` ranked by bm25 with the query's column weights — and the rest (ids, ranges, pure negations,
 * minimum_should_match above 1, a should mixing text and non-text) as SQL conditions on the joined row, where a
 * nested text clause becomes `seq IN (SELECT rowid … MATCH …)`. Without any text clause the query runs on the
 * table's indexes, newest first. Totals and the tag facet use the maintained counts when the query is only a
 * portfolio (and a tag); otherwise they count the match, the facet every match up to `facetSample`, past it the
 * query's first `facetFirst` hits in its order (flagged `partial`).
 */
import {
  ADVANCED_MAX_SIZE,
  SEARCH_LIMITS,
  type Application,
  type ApplicationTag,
  type Highlight,
  type SearchHit,
  type SearchResponse,
  type TermsAggregation,
} from "../../contract/portfolio";
import { FTS_COLUMNS, FTS_TOKENIZE } from "../applications/schema";
import { ALL_COLUMNS, HIT_COLUMNS, markedFields, rowOfValues, rowToApplication, withStoredJson, type ApplicationRow } from "../applications/store";
import type { Db } from "../db";
import { prepared } from "../lib/collection";
import { parseSearchBody, type HighlightField, type ParsedSearch, type SortKey } from "./dsl";
import type { Match, ReindexProgress, SearchEngine, SearchScope } from "./engine";
import { RankPool, defaultRankWorkers, type RankedRow } from "./rank-pool";
import { MARK_END, MARK_START, fragmentsFrom, fragmentsOf } from "./highlight";
import { QueryError, TEXT_COLUMNS, effectiveMsm, type Node, type TextColumn, type TextNode } from "./ir";
import { markerOf, type Span } from "./marks";
import { attachRank, prefixFlags, scoreSql } from "./rank";
import { ftsString, portfolioToken, tagToken } from "./tokens";

type Sql = { sql: string; params: unknown[] };

/** The compiled query. */
type Plan = {
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
 * tokens into the MATCH and tests the portfolio on the row (see the engine's `plan`).
 */
function compile(parsed: ParsedSearch, scope: SearchScope, tokens: "match" | "sql" | "tags" = "match"): Plan {
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
const isScoreSort = (sort: SortKey[] | null) => !sort || (sort.length === 1 && sort[0]!.field === "_score" && sort[0]!.order === "desc");

function orderBy(plan: Plan, sort: SortKey[] | null): { sql: string; needsRow: boolean; scored: boolean } {
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

export type SqliteEngineOptions = {
  /**
   * The facet counts every match up to this many (default 20,000). Past it, it counts the query's first `facetFirst`
   * hits in its order — the most relevant, or the first by the sort asked — flagged `partial` with `sampled`.
   */
  facetSample?: number;
  /** How many of a query's first hits the facet counts past `facetSample` matches (default 1,000; at most that). */
  facetFirst?: number;
  /** Rows per step of reindex. Default 2,000. */
  reindexBatch?: number;
  /**
   * Worker threads that rank a broad query's rowid ranges at the same time, off the event loop (rank-pool.ts).
   * Default: one per core, at most 4, none on one core; 0 ranks on the calling thread. An in-memory database has none.
   */
  rankWorkers?: number;
  /**
   * From this many matches a relevance-sorted query is ranked by the workers (default 20,000). Below it one thread is
   * quicker: a worker round trip costs more than ranking a few thousand rows, and the total is counted first to know.
   * (With FTS5's bm25 rather than bm25v, every range also pays for counting each phrase's documents in the whole
   * table: see rank.ts.)
   */
  parallelFrom?: number;
  /**
   * Up to this many text matches (default 1,000), a query's top-level tag and portfolio filters are tested on the
   * joined rows rather than ANDed into the MATCH as index tokens (see `plan`). 0: always as tokens.
   */
  narrowFrom?: number;
  /**
   * Highlights are marked in one pass over the matches between a page's first and last rowid when those are at most
   * this many per hit (default 20); else on the page's copy (`highlightCopy`). 0: never in that pass.
   */
  highlightScanFactor?: number;
  /**
   * Outside that pass, the page's highlighted text is copied into a small FTS5 table of the connection and marked
   * there by one MATCH (default true). false: one MATCH per hit on the index itself — the reference the tests compare
   * with, and slow for a broad query (a prefix in most documents: ~80 ms a hit at 1M applications).
   */
  highlightCopy?: boolean;
  /**
   * Marks found in JavaScript in the page's text where that is exact (search/marks.ts: ASCII text, no NEAR), FTS5
   * marking the rest (default true). false: FTS5 marks every hit.
   */
  highlightInJs?: boolean;
  /**
   * The compiled ranking library (bm25v), loaded into this connection and the workers' (search/rank.ts
   * `attachRank`). Default: SEARCH_RANK_EXTENSION, else the built one when it loads; null ranks with FTS5's bm25.
   */
  rankExtension?: string | null;
  /**
   * How long one statement may run on a rank worker before the search is stopped with a SearchTooCostly (default
   * SEARCH_LIMITS.statementMs; null: no bound). Statements on the calling thread cannot be stopped: the structural
   * bounds and `offThread` keep them short.
   */
  statementMs?: number | null;
};

/**
 * What is known of a query's match count: exactly `n`, or (not `exact`) at least `n`. `free`: the maintained counts
 * gave it (answered whatever track_total_hits says).
 */
type Known = { n: number; exact: boolean; free?: boolean };

/** A tag facet before its cut to the size asked. */
type Facet = { buckets: { key: string; doc_count: number }[]; partial: boolean; sampled: number };

/**
 * The facet of a query whose every match is known: its page's tags counted from the hits' rows as they are read
 * (`answer`), the other matches' (`rest`, none when the page holds them all) by `tagCounts`.
 */
type FacetOfMatches = { rest: readonly { seq: number }[] };

/**
 * The tag counts of these rows and `more` (counts of other rows), most first, then by name in SQLite's BINARY order
 * (UTF-8 bytes, which is code point order), as `tagCounts` answers them.
 */
function tagBuckets(rows: Iterable<ApplicationRow>, more: Facet["buckets"] = []): Facet["buckets"] {
  const counts = new Map<string, number>();
  for (const row of rows) for (const tag of JSON.parse(row.tags) as ApplicationTag[]) counts.set(tag.name, (counts.get(tag.name) ?? 0) + 1);
  for (const b of more) counts.set(b.key, (counts.get(b.key) ?? 0) + b.doc_count);
  return [...counts]
    .map(([key, doc_count]) => ({ key, doc_count }))
    .sort((a, b) => b.doc_count - a.doc_count || byCodePoint(a.key, b.key));
}

/** Code point order: JavaScript's `<` compares UTF-16 units, which puts U+10000 and above before U+E000–U+FFFF. */
function byCodePoint(a: string, b: string): number {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/**
 * Hits read and highlighted in one turn of the event loop (see `answer`): the /portfolio page's default size, so its
 * pages take one turn as before; a larger page takes more.
 */
const PAGE_TURN = 250;
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Ranked on the calling thread, nothing counted yet. */
const NOT_BROAD = { pool: null, known: null } as const;

/** The page of a `_score` sort: bm25 ascending (best first), then the newest row. */
const byScore = (a: RankedRow, b: RankedRow) => a.s - b.s || b.seq - a.seq;

export class SqliteSearchEngine implements SearchEngine {
  private readonly facetSample: number;
  private readonly facetFirst: number;
  private readonly reindexBatch: number;
  private readonly pool: RankPool | null;
  private readonly parallelFrom: number;
  private readonly narrowFrom: number;
  private readonly highlightScanFactor: number;
  private readonly highlightCopy: boolean;
  private readonly highlightInJs: boolean;
  /** The ranking library loaded (bm25v), or null: FTS5's bm25. */
  readonly rankExtension: string | null;
  /** Why the built ranking library is not in use, when it was looked for and is not (the upstream logs it). */
  readonly rankProblem: string | null;
  /** Whether the connection's table for the page's copy (`temp.page_text`) was created. */
  private pageTable = false;
  /** The rebuild under way: the whole-match-set calls wait for it (a half-built index would miss matches). */
  private rebuilding: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    options: SqliteEngineOptions = {},
  ) {
    this.facetSample = options.facetSample ?? 20_000;
    this.facetFirst = Math.min(options.facetFirst ?? 1_000, this.facetSample);
    this.reindexBatch = options.reindexBatch ?? 2_000;
    this.parallelFrom = options.parallelFrom ?? 20_000;
    this.narrowFrom = options.narrowFrom ?? 1_000;
    this.highlightScanFactor = options.highlightScanFactor ?? 20;
    this.highlightCopy = options.highlightCopy ?? true;
    this.highlightInJs = options.highlightInJs ?? true;
    ({ file: this.rankExtension, problem: this.rankProblem } = attachRank(db, options.rankExtension));
    const workers = options.rankWorkers ?? defaultRankWorkers();
    const budget = options.statementMs === undefined ? SEARCH_LIMITS.statementMs : options.statementMs;
    this.pool = workers > 0 && !db.memory && db.name ? new RankPool(db.name, workers, this.rankExtension, budget) : null;
  }

  /** A MATCH row's score, lower first (see rank.ts). */
  private score(plan: Plan): string {
    return scoreSql(this.rankExtension !== null, plan.match ?? "", plan.weights);
  }

  /** Stops the rank workers (the database stays open: its owner closes it). */
  async close(): Promise<void> {
    await this.pool?.close();
  }

  async search(body: unknown, scope: SearchScope): Promise<SearchResponse> {
    return valueOf(await this.run(body, scope));
  }

  async searchJson(body: unknown, scope: SearchScope): Promise<string> {
    return jsonOf(await this.run(body, scope));
  }

  private async run(body: unknown, scope: SearchScope): Promise<Answer> {
    const started = performance.now();
    const parsed = parseSearchBody(body, { maxSize: scope.maxSize ?? ADVANCED_MAX_SIZE, defaultSize: scope.defaultSize });
    const { plan, few, scored } = await this.plan(parsed, scope);
    // Hits or a facet asked for (else only the total).
    const ranks = parsed.size > 0 || parsed.aggs.length > 0;
    if (ranks && few && isScoreSort(parsed.sort)) return this.searchFew(parsed, plan, scope, started, scored);
    // A broad query is ranked by the workers while this thread counts (up to track_total_hits).
    const { pool, known } = ranks ? await this.workersFor(plan, parsed.sort) : NOT_BROAD;
    const first = await this.facetDepth(parsed, plan, known);
    const depth = first ? Math.max(parsed.from + parsed.size, first) : parsed.from + parsed.size;
    const ranked = pool && depth > 0 ? this.pageParallel(pool, plan, depth) : null;
    // Started before waiting for the ranking: on this thread, they run meanwhile.
    const counted = this.matches(plan, known, parsed.trackTotalHits);
    const whole = parsed.aggs.length && !first ? counted.then((m) => this.facet(plan, m, null)) : null;
    // Awaited below; should the ranking throw first, their failure must not go unhandled (it would end the process).
    counted.catch(() => undefined);
    whole?.catch(() => undefined);
    // The first `depth` hits: the page is their end, the facet (when it counts the first hits) their start.
    const rows = ranked ? await ranked : depth > 0 ? await this.page(plan, parsed.sort, depth, 0) : [];
    const matches = await counted;
    const facet = first ? await this.facet(plan, matches, rows.slice(0, first)) : await whole;
    return this.answer(parsed, plan, scope, rows.slice(parsed.from, parsed.from + parsed.size), matches, facet, started);
  }

  /**
   * A query of at most `narrowFrom` matches of its MATCH, by relevance: one statement scores them all (ranking a page
   * scores every match anyway), and the total and the facet are those rows' — no count, no facet statement of their
   * own. `scored`: the MATCH's matches already scored by `plan`, the plan's conditions still to test on their rows.
   */
  private async searchFew(parsed: ParsedSearch, plan: Plan, scope: SearchScope, started: number, scored: RankedRow[] | null): Promise<Answer> {
    const src = this.source(plan, "applications_fts.rowid as seq", false, true);
    const all = (scored ? await this.kept(plan, scored) : await this.all<RankedRow>(plan, src.sql, src.params)).sort(byScore);
    const page = all.slice(parsed.from, parsed.from + parsed.size);
    // The facet counts the tags the page's hits are read with; a statement counts the other matches' (none when the
    // page holds them all, the usual few): a row's page is read once, not again for its tags.
    const facet = parsed.aggs.length ? { rest: [...all.slice(0, parsed.from), ...all.slice(parsed.from + parsed.size)] } : null;
    return this.answer(parsed, plan, scope, page, { n: all.length, exact: true }, facet, started);
  }

  /**
   * How many first hits the facet counts: `facetFirst` when the query has more than `facetSample` matches, else 0
   * (it counts them all, or the maintained counts answer).
   */
  private async facetDepth(parsed: ParsedSearch, plan: Plan, known: Known | null): Promise<number> {
    if (!parsed.aggs.length) return 0;
    const counts = this.countsOnly(plan);
    if (counts && counts.tag === null) return 0;
    const n = known && (known.exact || known.n > this.facetSample) ? known.n : await this.countUpTo(plan, this.facetSample + 1);
    return n > this.facetSample ? this.facetFirst : 0;
  }

  private async answer(
    parsed: ParsedSearch,
    plan: Plan,
    scope: SearchScope,
    seqs: readonly { seq: number; s: number | null }[],
    matches: Known,
    facet: Facet | FacetOfMatches | null,
    started: number,
  ): Promise<Answer> {
    // The page's rows are read and marked PAGE_TURN hits at a time, a turn of the event loop between two: a page of
    // 1,000 hits with their claims and specification, highlighted, held the loop for over a second in one go.
    const rows = new Map<number, ApplicationRow>();
    const highlights = new Map<number, Highlight>();
    for (let i = 0; i < seqs.length; i += PAGE_TURN) {
      if (i > 0) await turn();
      const part = seqs.slice(i, i + PAGE_TURN);
      const partRows = this.hydrate(part, scope.hitFields === "list" ? HIT_COLUMNS : ALL_COLUMNS);
      for (const [seq, row] of partRows) rows.set(seq, row);
      if (!parsed.highlight.length) continue;
      for (const [seq, h] of this.highlight(plan, part.map((s) => s.seq), parsed.highlight, matches.n, partRows)) highlights.set(seq, h);
    }
    const counted =
      facet && "rest" in facet
        ? { buckets: tagBuckets(rows.values(), facet.rest.length ? this.tagCounts(facet.rest) : []), partial: false, sampled: rows.size + facet.rest.length }
        : facet;
    const aggs: Record<string, TermsAggregation> = {};
    if (counted) for (const agg of parsed.aggs) aggs[agg.name] = this.cut(counted, agg.size);
    // Past track_total_hits: that figure and "gte", as Elasticsearch answers, unless the maintained counts gave it.
    const capped = !matches.free && (!matches.exact || matches.n > parsed.trackTotalHits);
    const total = capped ? Math.min(matches.n, parsed.trackTotalHits) : matches.n;
    const hits = seqs.flatMap(({ seq, s }) => {
      const row = rows.get(seq);
      return row ? [{ row, score: scoreOf(s), highlight: highlights.get(seq) ?? {} }] : [];
    });
    const took = Math.round(performance.now() - started);
    return { hits, list: scope.hitFields === "list", source: parsed.source, total, totalRelation: capped ? "gte" : "eq", aggs, took };
  }

  async *scan(body: unknown, scope: SearchScope, limit: number): AsyncGenerator<Application[]> {
    const parsed = parseSearchBody(body, { maxSize: limit, defaultSize: limit });
    const plan = compile(parsed, scope);
    // One turn of the event loop first: what the caller sent before asking (the CSV header) leaves before the query.
    await new Promise((resolve) => setImmediate(resolve));
    const size = Math.min(parsed.size, limit);
    const { pool } = await this.workersFor(plan, parsed.sort);
    const page = pool ? (await this.pageParallel(pool, plan, parsed.from + size)).slice(parsed.from) : await this.page(plan, parsed.sort, size, parsed.from);
    const seqs = page.map((s) => s.seq);
    for (let i = 0; i < seqs.length; i += 500) {
      const chunk = seqs.slice(i, i + 500);
      const rows = this.hydrate(chunk.map((seq) => ({ seq })), ALL_COLUMNS);
      yield chunk.flatMap((seq) => {
        const row = rows.get(seq);
        return row ? [rowToApplication(row)] : [];
      });
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  // ------------------------------------------------------------------ categorization: whole match sets

  async *scanMatches(body: unknown, scope: SearchScope, batch: number): AsyncGenerator<Match[]> {
    const plan = compile(parseSearchBody(queryOnly(body), { maxSize: ADVANCED_MAX_SIZE }), scope);
    const where = plan.where.map((w) => ` and (${w.sql})`).join("");
    const params = plan.where.flatMap((w) => w.params);
    // A window of seqs per step bounds the work of one step even when few rows of it match.
    const window = 20_000;
    // (a prefix's steps run on the rank workers: see `all`)
    const sql = plan.match
      ? `select applications_fts.rowid as seq, a.id as id, ${this.score(plan)} as s
         from applications_fts join applications a on a.seq = applications_fts.rowid
         where applications_fts match ? and applications_fts.rowid > cast(? as integer) and applications_fts.rowid <= cast(? as integer)${where}
         order by applications_fts.rowid limit ?`
      : `select a.seq as seq, a.id as id, null as s from applications a where a.seq > ? and a.seq <= ?${where} order by a.seq limit ?`;
    const end = (prepared(this.db, "select coalesce(max(seq), 0) as m from applications").get() as { m: number }).m;
    let last = 0;
    while (last < end) {
      await this.indexWhole();
      const hi = Math.min(last + window, end);
      const rows = await this.all<{ seq: number; id: string; s: number | null }>(
        plan,
        sql,
        plan.match ? [plan.match, last, hi, ...params, batch] : [last, hi, ...params, batch],
      );
      last = rows.length === batch ? rows[rows.length - 1]!.seq : hi;
      if (rows.length) yield rows.map((r) => ({ id: r.id, score: scoreOf(r.s) }));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async countMatches(body: unknown, scope: SearchScope): Promise<number> {
    const plan = compile(parseSearchBody(queryOnly(body), { maxSize: ADVANCED_MAX_SIZE }), scope);
    const where = plan.where.map((w) => ` and (${w.sql})`).join("");
    const params = plan.where.flatMap((w) => w.params);
    const sql = plan.match
      ? `select count(*) as n from applications_fts join applications a on a.seq = applications_fts.rowid
         where applications_fts match ? and applications_fts.rowid > cast(? as integer) and applications_fts.rowid <= cast(? as integer)${where}`
      : `select count(*) as n from applications a where a.seq > ? and a.seq <= ?${where}`;
    const end = (prepared(this.db, "select coalesce(max(seq), 0) as m from applications").get() as { m: number }).m;
    const window = 50_000;
    let total = 0;
    for (let last = 0; last < end; last += window) {
      await this.indexWhole();
      const hi = Math.min(last + window, end);
      const [row] = await this.all<{ n: number }>(plan, sql, plan.match ? [plan.match, last, hi, ...params] : [last, hi, ...params]);
      total += row!.n;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return total;
  }

  async matchAmong(body: unknown, scope: SearchScope, ids: readonly string[]): Promise<Map<string, number | null>> {
    const plan = compile(parseSearchBody(queryOnly(body), { maxSize: ADVANCED_MAX_SIZE }), scope);
    const out = new Map<string, number | null>();
    if (!ids.length) return out;
    await this.indexWhole();
    const where = plan.where.map((w) => ` and (${w.sql})`).join("");
    const params = plan.where.flatMap((w) => w.params);
    const list = JSON.stringify(ids);
    const rows = plan.match
      ? await this.all<{ id: string; s: number | null }>(
          plan,
          `select a.id as id, ${this.score(plan)} as s
           from applications_fts join applications a on a.seq = applications_fts.rowid
           where applications_fts match ?
             and applications_fts.rowid in (select seq from applications where id in (select value from json_each(?)))${where}`,
          [plan.match, list, ...params],
        )
      : (prepared(this.db, `select a.id as id, null as s from applications a where a.id in (select value from json_each(?))${where}`).all(
          list,
          ...params,
        ) as { id: string; s: number | null }[]);
    for (const r of rows) out.set(r.id, scoreOf(r.s));
    return out;
  }

  async get(id: string): Promise<Application | null> {
    const row = prepared(this.db, `select ${ALL_COLUMNS} from applications where id = ?`).get(id) as ApplicationRow | undefined;
    return row ? rowToApplication(row) : null;
  }

  reindex(onProgress: ReindexProgress): Promise<void> {
    if (this.rebuilding) return this.rebuilding;
    const run = this.rebuild(onProgress).finally(() => {
      this.rebuilding = null;
    });
    this.rebuilding = run;
    return run;
  }

  /** Resolves when no rebuild is under way (at once when none is). */
  private async indexWhole(): Promise<void> {
    while (this.rebuilding) await this.rebuilding.catch(() => undefined);
  }

  private async rebuild(onProgress: ReindexProgress): Promise<void> {
    const total = (prepared(this.db, "select count(*) as n from applications").get() as { n: number }).n;
    // Rows added while this runs are indexed by the triggers: stop at today's last one (writers wait: see routes).
    const end = (prepared(this.db, "select coalesce(max(seq), 0) as m from applications").get() as { m: number }).m;
    onProgress(0, total);
    this.db.exec("insert into applications_fts (applications_fts) values ('delete-all')");
    const bound = prepared(this.db, "select max(seq) as hi, count(*) as n from (select seq from applications where seq > ? and seq <= ? order by seq limit ?)");
    const step = prepared(
      this.db,
      `insert into applications_fts (rowid, title, abstract, claims, specification, ai_text, products_text, tag_tokens, portfolio_token)
       select seq, title, abstract, claims, specification, ai_text, products_text, tag_tokens, portfolio_token
       from applications where seq > ? and seq <= ?`,
    );
    let last = 0;
    let done = 0;
    for (;;) {
      const { hi, n } = bound.get(last, end, this.reindexBatch) as { hi: number | null; n: number };
      if (hi === null || n === 0) break;
      this.db.transaction(() => step.run(last, hi))();
      last = hi;
      done += n;
      onProgress(Math.min(done, total), total);
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.db.transaction(() => {
      this.db.exec("delete from tag_counts");
      this.db.exec("insert into tag_counts (portfolio_id, name, count) select portfolio_id, name, count(*) from application_tags group by portfolio_id, name");
      this.db.exec("delete from portfolio_counts");
      this.db.exec("insert into portfolio_counts (portfolio_id, count) select portfolio_id, count(*) from applications group by portfolio_id");
    })();
    onProgress(total, total);
  }

  // ------------------------------------------------------------------------------------------------- internals

  /**
   * The query's plan, and whether its MATCH has at most `narrowFrom` matches (`few`). A tag or portfolio token ANDed
   * into the MATCH has FTS5 walk that token's entries alongside the text's (the public portfolio's: 600,000 at 1M
   * applications), and FTS5's bm25 (not bm25v: rank.ts) counts its documents too (~12 ms). So when the text alone
   * has few matches those filters are tested on the joined rows instead (~1.5 µs a row), for the same hits, scores
   * and order. Past ~1,000 text matches the tokens are quicker with bm25v (search-engine.md) — but when the text and
   * the tags' tokens together have few, only the portfolio (the largest token) is tested on the rows: a word in
   * 30,000 applications under a tag in none of them then costs one walk of the two (~1 ms), not of the three (~5 ms)
   * once per statement. A plan without such tokens but with a prefix is not counted: the count would merge the
   * prefix's words once more.
   */
  private async plan(parsed: ParsedSearch, scope: SearchScope): Promise<{ plan: Plan; few: boolean; scored: RankedRow[] | null }> {
    const plan = compile(parsed, scope);
    const none = { plan, few: false, scored: null };
    if (!plan.match || !this.narrowFrom || (!plan.tokensInMatch && plan.offThread)) return none;
    const fewIn = async (p: Plan) => p.match !== null && (await this.countUpTo({ ...p, where: [] }, this.narrowFrom + 1)) <= this.narrowFrom;
    if (!plan.tokensInMatch) return { ...none, few: await fewIn(plan) };
    const text = compile(parsed, scope, "sql");
    if (await fewIn(text)) return { plan: text, few: true, scored: null };
    // Only when that is another MATCH than both (a tag's token, not the portfolio's). Its walk is the costly one, so
    // it is walked once: its matches scored, up to one past `narrowFrom`.
    const tagged = plan.offThread ? null : compile(parsed, scope, "tags");
    if (!tagged || tagged.match === text.match || tagged.match === plan.match) return none;
    const src = this.source({ ...tagged, where: [] }, "applications_fts.rowid as seq", false, true);
    const scored = await this.all<RankedRow>(tagged, `${src.sql} limit ?`, [...src.params, this.narrowFrom + 1]);
    return scored.length <= this.narrowFrom ? { plan: tagged, few: true, scored } : none;
  }

  /** Those of `rows` (the plan's MATCH's) whose application meets the plan's other conditions. */
  private async kept(plan: Plan, rows: RankedRow[]): Promise<RankedRow[]> {
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
  private async all<T>(plan: Plan, sql: string, params: unknown[]): Promise<T[]> {
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

  private source(plan: Plan, select: string, needsRow: boolean, scored: boolean): Sql {
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
  private async pageParallel(pool: RankPool, plan: Plan, limit: number): Promise<RankedRow[]> {
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

  private page(plan: Plan, sort: SortKey[] | null, size: number, from: number): Promise<{ seq: number; s: number | null }[]> {
    const order = orderBy(plan, sort);
    const src = this.source(plan, plan.match ? "applications_fts.rowid as seq" : "a.seq as seq", order.needsRow, order.scored);
    return this.all(plan, `${src.sql} order by ${order.sql} limit ? offset ?`, [...src.params, size, from]);
  }

  /** Only a portfolio (or every portfolio), and at most one tag, no text: the maintained counts answer. */
  private countsOnly(plan: Plan): { portfolio: string | null; tag: string | null } | null {
    if (plan.negatives.length || plan.match) return null;
    let portfolio: string | null = null;
    let tag: string | null = null;
    for (const n of plan.positives) {
      if (n.kind === "portfolio" && portfolio === null) portfolio = n.id;
      else if (n.kind === "tag" && tag === null) tag = n.name;
      else return null;
    }
    return { portfolio, tag };
  }

  /**
   * The workers, for a full-text query sorted by relevance with at least `parallelFrom` matches ("broad": its
   * matches are counted up to the threshold only, so a broad query stops early). Below it, no workers, and the
   * count is the query's total.
   */
  private async workersFor(plan: Plan, sort: SortKey[] | null): Promise<{ pool: RankPool | null; known: Known | null }> {
    if (!this.pool || !plan.match || !isScoreSort(sort)) return NOT_BROAD;
    // One past the threshold: a broad query is then known to pass the facet's sample too (same default).
    const seen = await this.countUpTo(plan, this.parallelFrom + 1);
    return { pool: seen >= this.parallelFrom ? this.pool : null, known: { n: seen, exact: seen <= this.parallelFrom } };
  }

  /** At most `limit` of the query's matches, counted (-1: all of them). */
  private async countUpTo(plan: Plan, limit: number): Promise<number> {
    const src = this.source(plan, "1", false, false);
    const [row] = await this.all<{ n: number }>(plan, `select count(*) as n from (${src.sql} limit ?)`, [...src.params, limit]);
    return row!.n;
  }

  /**
   * What the query's match count is known to be: counted up to one past `track` (track_total_hits), unless a count
   * already taken or the maintained counts tell.
   */
  private async matches(plan: Plan, known: Known | null, track: number): Promise<Known> {
    if (known && (known.exact || known.n > track)) return known;
    const free = this.maintainedTotal(plan);
    if (free !== null) return { n: free, exact: true, free: true };
    if (track === Infinity) return { n: await this.countUpTo(plan, -1), exact: true };
    const n = await this.countUpTo(plan, track + 1);
    return { n, exact: n <= track };
  }

  /** The total the maintained counts answer (a portfolio, or every one, and at most one tag, no text), else null. */
  private maintainedTotal(plan: Plan): number | null {
    const counts = this.countsOnly(plan);
    if (counts && counts.tag === null) {
      const row = counts.portfolio === null
        ? prepared(this.db, "select coalesce(sum(count), 0) as n from portfolio_counts").get()
        : prepared(this.db, "select coalesce(sum(count), 0) as n from portfolio_counts where portfolio_id = ?").get(counts.portfolio);
      return (row as { n: number }).n;
    }
    if (counts && counts.tag !== null) {
      const row = counts.portfolio === null
        ? prepared(this.db, "select coalesce(sum(count), 0) as n from tag_counts where name = ?").get(counts.tag)
        : prepared(this.db, "select coalesce(sum(count), 0) as n from tag_counts where portfolio_id = ? and name = ?").get(counts.portfolio, counts.tag);
      return (row as { n: number }).n;
    }
    return null;
  }

  /**
   * The tag facet: the maintained counts when they answer; else `first` (the query's first hits, when it has more
   * matches than `facetSample`: see `facetDepth`) or every match.
   */
  private async facet(plan: Plan, matches: Known, first: readonly { seq: number }[] | null): Promise<Facet> {
    const counts = this.countsOnly(plan);
    if (counts && counts.tag === null) {
      const rows = counts.portfolio === null
        ? prepared(this.db, "select name as key, sum(count) as doc_count from tag_counts group by name order by doc_count desc, name").all()
        : prepared(this.db, "select name as key, count as doc_count from tag_counts where portfolio_id = ? order by count desc, name").all(counts.portfolio);
      return { buckets: rows as { key: string; doc_count: number }[], partial: false, sampled: matches.n };
    }
    if (first) return { buckets: this.tagCounts(first), partial: true, sampled: first.length };
    // At most `facetSample` matches (facetDepth counted them when nothing else did): all of them.
    const src = this.source(plan, plan.match ? "applications_fts.rowid as seq" : "a.seq as seq", false, false);
    const rows = await this.all<{ key: string; doc_count: number }>(
      plan,
      `select t.name as key, count(*) as doc_count from (${src.sql} limit ?) m join application_tags t on t.app_seq = m.seq
       group by t.name order by doc_count desc, t.name`,
      [...src.params, this.facetSample],
    );
    return { buckets: rows, partial: false, sampled: matches.n };
  }

  /** The tag counts of these rows, most first. */
  private tagCounts(rows: readonly { seq: number }[]): Facet["buckets"] {
    return prepared(
      this.db,
      `select name as key, count(*) as doc_count from application_tags where app_seq in (select value from json_each(?))
       group by name order by doc_count desc, name`,
    ).all(JSON.stringify(rows.map((r) => r.seq))) as Facet["buckets"];
  }

  private cut(facet: Facet, size: number): TermsAggregation {
    const buckets = facet.buckets.slice(0, size);
    const other = facet.buckets.slice(size).reduce((sum, b) => sum + b.doc_count, 0);
    return { buckets, sum_other_doc_count: other, ...(facet.partial ? { partial: true, sampled: facet.sampled } : {}) };
  }

  /** The rows of these seqs (by seq): `columns` of them, HIT_COLUMNS or ALL_COLUMNS. */
  private hydrate(seqs: readonly { seq: number }[], columns: string): Map<number, ApplicationRow> {
    const out = new Map<number, ApplicationRow>();
    if (!seqs.length) return out;
    const stmt = prepared(this.db, `select ${columns} from applications where seq in (select value from json_each(?))`).raw(true);
    for (const values of stmt.all(JSON.stringify(seqs.map((s) => s.seq))) as unknown[][]) {
      const row = rowOfValues(values);
      out.set(row.seq, row);
    }
    return out;
  }

  /** `hits`: the query's match count (or a lower bound); `rows`: the hits' rows as read (their texts are marked). */
  private highlight(plan: Plan, seqs: readonly number[], fields: readonly HighlightField[], hits: number, rows: ReadonlyMap<number, ApplicationRow>): Map<number, Highlight> {
    const out = new Map<number, Highlight>();
    if (!seqs.length) return out;
    const cols = fields.map((f) => TEXT_COLUMNS.indexOf(f.column));
    // The page's highlighted texts, marked here where that is exact (marks.ts); FTS5 marks the other hits.
    const marker = this.highlightInJs && plan.highlight ? markerOf(plan.leaves) : null;
    const found = new Map<number, { texts: string[]; spans: Span[][] }>();
    let toFts = seqs;
    if (marker) {
      // The columns the hits were read without (the products' text; claims and specification in a list) read now.
      const first = rows.get(seqs[0]!) as Record<string, unknown> | undefined;
      const missing = [...new Set(fields.map((f) => f.column))].filter((c) => typeof first?.[c] !== "string");
      const more = new Map<number, Record<string, unknown>>();
      if (missing.length) {
        const stmt = prepared(this.db, `select seq, ${missing.join(", ")} from applications where seq in (select value from json_each(?))`);
        for (const row of stmt.all(JSON.stringify(seqs)) as (Record<string, unknown> & { seq: number })[]) more.set(row.seq, row);
      }
      const textOf = (seq: number, column: TextColumn) => {
        const value = (missing.includes(column) ? more.get(seq) : (rows.get(seq) as Record<string, unknown> | undefined))?.[column];
        return typeof value === "string" ? value : null;
      };
      for (const seq of seqs) {
        const texts = fields.map((f) => textOf(seq, f.column));
        if (texts.some((t) => t === null)) continue;
        const spans = fields.map((f, i) => marker(f.column, texts[i]!));
        if (spans.every((s) => s !== null)) found.set(seq, { texts: texts as string[], spans: spans as Span[][] });
      }
      toFts = seqs.filter((seq) => !found.has(seq));
    }
    const marked = plan.highlight && toFts.length ? this.ftsMarks(plan, toFts, cols, hits) : new Map<number, (string | null)[]>();
    const needPlain = fields.some((f) => f.noMatchSize > 0);
    const plainStmt = needPlain ? prepared(this.db, `select ${TEXT_COLUMNS.join(", ")} from applications where seq = ?`) : null;
    for (const seq of seqs) {
      const h: Highlight = {};
      const js = found.get(seq);
      const m = marked.get(seq);
      let plain: Record<TextColumn, string> | null = null;
      fields.forEach((f, i) => {
        let fragments: string[] | null;
        if (js) fragments = fragmentsFrom(js.texts[i]!, js.spans[i]!, f);
        else {
          const text = m?.[i] ?? null;
          const hasMark = text !== null && text.includes(MARK_START);
          if (!hasMark && f.noMatchSize > 0 && plainStmt) plain ??= plainStmt.get(seq) as Record<TextColumn, string>;
          fragments = fragmentsOf(hasMark ? text : null, plain?.[f.column] ?? "", f);
        }
        if (fragments) (h as Record<string, string[]>)[f.field] = fragments;
      });
      out.set(seq, h);
    }
    return out;
  }

  /** FTS5's marked text of these hits' columns `cols` (by seq; a hit that does not match has none). */
  private ftsMarks(plan: Plan, seqs: readonly number[], cols: readonly number[], hits: number): Map<number, (string | null)[]> {
    const marksOf = (table: string) => cols.map((c, i) => `highlight(${table}, ${c}, '${MARK_START}', '${MARK_END}') as h${i}`).join(", ");
    const marks = marksOf("applications_fts");
    // The casts matter: better-sqlite3 binds a number as REAL, and FTS5 then ignores a rowid constraint (every call
    // would scan every match).
    const range = "applications_fts match ? and rowid >= cast(? as integer) and rowid <= cast(? as integer)";
    const lo = Math.min(...seqs);
    const hi = Math.max(...seqs);
    // With few matches between the page's first and last rowid, one pass over them keeps the page's rows (the unary
    // + keeps SQLite from making the IN one lookup per value). Not counted when the query has more hits than the
    // pass may take, nor for a prefix (its MATCH would merge every word it covers on this thread): the copy then.
    const scanUpTo = seqs.length * this.highlightScanFactor;
    const onePass =
      scanUpTo > 0 &&
      hits <= scanUpTo &&
      !plan.offThread &&
      (prepared(this.db, `select count(*) as n from (select 1 from applications_fts where ${range} limit ?)`).get(plan.highlight, lo, hi, scanUpTo + 1) as { n: number }).n <=
        scanUpTo;
    type Marked = Record<string, string | null> & { seq: number };
    let rows: Marked[];
    if (onePass) {
      const stmt = prepared(this.db, `select rowid as seq, ${marks} from applications_fts where ${range} and +rowid in (select value from json_each(?))`);
      rows = stmt.all(plan.highlight, lo, hi, JSON.stringify(seqs)) as Marked[];
    } else if (this.highlightCopy) {
      rows = this.markCopy(plan.highlight!, seqs, cols, marksOf("page_text")) as Marked[];
    } else {
      const stmt = prepared(this.db, `select rowid as seq, ${marks} from applications_fts where ${range}`);
      rows = seqs.flatMap((seq) => stmt.all(plan.highlight, seq, seq) as Marked[]);
    }
    return new Map(rows.map((row) => [row.seq, cols.map((_, i) => row[`h${i}`] ?? null)]));
  }

  /**
   * The page's marks, from a copy: one MATCH per hit on the index pays, per hit, the start of the whole expression
   * (each term's segments; every term of a prefix merged), ~45 µs for a broad word and ~80 ms for a prefix in most of
   * a million applications. So the page's highlighted columns are copied into `temp.page_text` (the index's columns
   * and tokenizer, this connection's alone, emptied after) and marked by one MATCH there: ~4 ms for 250 hits.
   * The marks are the index's: every highlighted leaf is one phrase, prefix or NEAR group (query-string.ts), whose
   * instances in a column depend on that column's text alone; a hit whose copy does not match has no instance to mark.
   */
  private markCopy(expr: string, seqs: readonly number[], cols: readonly number[], marks: string): unknown[] {
    if (!this.pageTable) {
      this.db.exec(`create virtual table if not exists temp.page_text using fts5(${FTS_COLUMNS}, tokenize = '${FTS_TOKENIZE}')`);
      this.pageTable = true;
    }
    const columns = [...new Set(cols)].map((c) => TEXT_COLUMNS[c]!).join(", ");
    // One transaction: should the MATCH throw, the copy is rolled back with it.
    return this.db.transaction(() => {
      prepared(this.db, `insert into temp.page_text (rowid, ${columns}) select seq, ${columns} from applications where seq in (select value from json_each(?))`).run(
        JSON.stringify(seqs),
      );
      const rows = prepared(this.db, `select rowid as seq, ${marks} from temp.page_text where page_text match ?`).all(expr);
      prepared(this.db, "delete from temp.page_text").run();
      return rows;
    })();
  }
}

/** The engine's relevance of a bm25 value (as the search answers it). */
const scoreOf = (s: number | null) => (s === null ? null : Math.round(-s * 1e6) / 1e6);

/** Only the body's query: what a whole-match-set scan honours. */
function queryOnly(body: unknown): unknown {
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  const query = (body as { query?: unknown }).query;
  return query === undefined ? {} : { query };
}

function pickFields(hit: SearchHit, fields: Set<string>): SearchHit {
  const out: Record<string, unknown> = { score: hit.score, highlight: hit.highlight };
  for (const [key, value] of Object.entries(hit)) if (fields.has(key)) out[key] = value;
  return out as SearchHit;
}

/** A search's answer before it is written out: the page's rows as read, for `valueOf` or `jsonOf`. */
type Answer = {
  hits: { row: ApplicationRow; score: number | null; highlight: Highlight }[];
  /** Hits without claims and specification (SearchScope `hitFields: "list"`). */
  list: boolean;
  /** The `_source` fields asked, if any. */
  source: Set<string> | null;
  total: number;
  totalRelation: SearchResponse["totalRelation"];
  aggs: Record<string, TermsAggregation>;
  took: number;
};

function valueOf(a: Answer): SearchResponse {
  const data = a.hits.map(({ row, score, highlight }) => {
    const app = rowToApplication(row);
    // Left out by a rest, not `delete`: JSON.stringify writes objects that never lost a property ~20% quicker.
    const { claims: _claims, specification: _specification, ...listed } = app;
    const hit = { ...(a.list ? listed : app), score, highlight } as SearchHit;
    return a.source ? pickFields(hit, a.source) : hit;
  });
  return { data, total: a.total, totalRelation: a.totalRelation, aggs: a.aggs, took: a.took };
}

/**
 * `JSON.stringify(valueOf(a))`: unless `_source` picks fields, one JSON.stringify of the hits' fields as read, their
 * stored products and tags put in after (store.ts `markedFields`, `withStoredJson`).
 */
function jsonOf(a: Answer): string {
  if (a.source) return JSON.stringify(valueOf(a));
  const data = a.hits.map(({ row, score, highlight }) => {
    const hit = markedFields(row, a.list);
    hit.score = score;
    hit.highlight = highlight;
    return hit;
  });
  const rows = a.hits.map((h) => h.row);
  return withStoredJson(JSON.stringify({ data, total: a.total, totalRelation: a.totalRelation, aggs: a.aggs, took: a.took }), rows);
}
