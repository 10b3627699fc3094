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
 *
 * This module is the engine: it plans a search and runs its parts in order. Each part has a module of its own:
 * compiling the query (compile.ts), running its statements on this thread or the rank workers (statements.ts), the
 * total and the tag facet (counts.ts), the page's highlights (page-highlight.ts), the answer written out (answer.ts),
 * categorization's whole match sets (match-sets.ts) and the rebuild of the index (reindex.ts).
 */
import { ADVANCED_MAX_SIZE, SEARCH_LIMITS, type Application, type Highlight, type SearchResponse, type TermsAggregation } from "../../contract/portfolio";
import { ALL_COLUMNS, HIT_COLUMNS, rowToApplication, type ApplicationRow } from "../applications/store";
import type { Db } from "../db";
import { prepared } from "../lib/collection";
import { jsonOf, scoreOf, valueOf, type Answer } from "./answer";
import { compile, isScoreSort, type Plan } from "./compile";
import { Counts, cut, tagBuckets, type Facet, type FacetOfMatches, type Known } from "./counts";
import { parseSearchBody, type ParsedSearch, type SortKey } from "./dsl";
import type { Match, ReindexProgress, SearchEngine, SearchScope } from "./engine";
import { countMatches, matchAmong, scanMatches } from "./match-sets";
import { PageHighlighter } from "./page-highlight";
import { RankPool, defaultRankWorkers, type RankedRow } from "./rank-pool";
import { attachRank } from "./rank";
import { rebuildIndex } from "./reindex";
import { PlanStatements, byScore } from "./statements";

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
 * Hits read and highlighted in one turn of the event loop (see `answer`): the /portfolio page's default size, so its
 * pages take one turn as before; a larger page takes more.
 */
const PAGE_TURN = 250;
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Ranked on the calling thread, nothing counted yet. */
const NOT_BROAD = { pool: null, known: null } as const;

export class SqliteSearchEngine implements SearchEngine {
  private readonly reindexBatch: number;
  private readonly pool: RankPool | null;
  private readonly parallelFrom: number;
  private readonly narrowFrom: number;
  private readonly statements: PlanStatements;
  private readonly counts: Counts;
  private readonly highlighter: PageHighlighter;
  /** The ranking library loaded (bm25v), or null: FTS5's bm25. */
  readonly rankExtension: string | null;
  /** Why the built ranking library is not in use, when it was looked for and is not (the upstream logs it). */
  readonly rankProblem: string | null;
  /** The rebuild under way: the whole-match-set calls wait for it (a half-built index would miss matches). */
  private rebuilding: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    options: SqliteEngineOptions = {},
  ) {
    const facetSample = options.facetSample ?? 20_000;
    const facetFirst = Math.min(options.facetFirst ?? 1_000, facetSample);
    this.reindexBatch = options.reindexBatch ?? 2_000;
    this.parallelFrom = options.parallelFrom ?? 20_000;
    this.narrowFrom = options.narrowFrom ?? 1_000;
    ({ file: this.rankExtension, problem: this.rankProblem } = attachRank(db, options.rankExtension));
    const workers = options.rankWorkers ?? defaultRankWorkers();
    const budget = options.statementMs === undefined ? SEARCH_LIMITS.statementMs : options.statementMs;
    this.pool = workers > 0 && !db.memory && db.name ? new RankPool(db.name, workers, this.rankExtension, budget) : null;
    this.statements = new PlanStatements(db, this.pool, this.rankExtension);
    this.counts = new Counts(this.statements, facetSample, facetFirst);
    this.highlighter = new PageHighlighter(db, options.highlightScanFactor ?? 20, options.highlightCopy ?? true, options.highlightInJs ?? true);
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
    const first = await this.counts.facetDepth(parsed, plan, known);
    const depth = first ? Math.max(parsed.from + parsed.size, first) : parsed.from + parsed.size;
    const ranked = pool && depth > 0 ? this.statements.pageParallel(pool, plan, depth) : null;
    // Started before waiting for the ranking: on this thread, they run meanwhile.
    const counted = this.counts.matches(plan, known, parsed.trackTotalHits);
    const whole = parsed.aggs.length && !first ? counted.then((m) => this.counts.facet(plan, m, null)) : null;
    // Awaited below; should the ranking throw first, their failure must not go unhandled (it would end the process).
    counted.catch(() => undefined);
    whole?.catch(() => undefined);
    // The first `depth` hits: the page is their end, the facet (when it counts the first hits) their start.
    const rows = ranked ? await ranked : depth > 0 ? await this.statements.page(plan, parsed.sort, depth, 0) : [];
    const matches = await counted;
    const facet = first ? await this.counts.facet(plan, matches, rows.slice(0, first)) : await whole;
    return this.answer(parsed, plan, scope, rows.slice(parsed.from, parsed.from + parsed.size), matches, facet, started);
  }

  /**
   * A query of at most `narrowFrom` matches of its MATCH, by relevance: one statement scores them all (ranking a page
   * scores every match anyway), and the total and the facet are those rows' — no count, no facet statement of their
   * own. `scored`: the MATCH's matches already scored by `plan`, the plan's conditions still to test on their rows.
   */
  private async searchFew(parsed: ParsedSearch, plan: Plan, scope: SearchScope, started: number, scored: RankedRow[] | null): Promise<Answer> {
    const src = this.statements.source(plan, "applications_fts.rowid as seq", false, true);
    const all = (scored ? await this.statements.kept(plan, scored) : await this.statements.all<RankedRow>(plan, src.sql, src.params)).sort(byScore);
    const page = all.slice(parsed.from, parsed.from + parsed.size);
    // The facet counts the tags the page's hits are read with; a statement counts the other matches' (none when the
    // page holds them all, the usual few): a row's page is read once, not again for its tags.
    const facet = parsed.aggs.length ? { rest: [...all.slice(0, parsed.from), ...all.slice(parsed.from + parsed.size)] } : null;
    return this.answer(parsed, plan, scope, page, { n: all.length, exact: true }, facet, started);
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
      const partRows = this.statements.hydrate(part, scope.hitFields === "list" ? HIT_COLUMNS : ALL_COLUMNS);
      for (const [seq, row] of partRows) rows.set(seq, row);
      if (!parsed.highlight.length) continue;
      for (const [seq, h] of this.highlighter.highlight(plan, part.map((s) => s.seq), parsed.highlight, matches.n, partRows)) highlights.set(seq, h);
    }
    const counted =
      facet && "rest" in facet
        ? { buckets: tagBuckets(rows.values(), facet.rest.length ? this.counts.tagCounts(facet.rest) : []), partial: false, sampled: rows.size + facet.rest.length }
        : facet;
    const aggs: Record<string, TermsAggregation> = {};
    if (counted) for (const agg of parsed.aggs) aggs[agg.name] = cut(counted, agg.size);
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
    const page = pool ? (await this.statements.pageParallel(pool, plan, parsed.from + size)).slice(parsed.from) : await this.statements.page(plan, parsed.sort, size, parsed.from);
    const seqs = page.map((s) => s.seq);
    for (let i = 0; i < seqs.length; i += 500) {
      const chunk = seqs.slice(i, i + 500);
      const rows = this.statements.hydrate(chunk.map((seq) => ({ seq })), ALL_COLUMNS);
      yield chunk.flatMap((seq) => {
        const row = rows.get(seq);
        return row ? [rowToApplication(row)] : [];
      });
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  // ------------------------------------------------------------------ categorization: whole match sets

  scanMatches(body: unknown, scope: SearchScope, batch: number): AsyncGenerator<Match[]> {
    return scanMatches(this.statements, () => this.indexWhole(), body, scope, batch);
  }

  countMatches(body: unknown, scope: SearchScope): Promise<number> {
    return countMatches(this.statements, () => this.indexWhole(), body, scope);
  }

  matchAmong(body: unknown, scope: SearchScope, ids: readonly string[]): Promise<Map<string, number | null>> {
    return matchAmong(this.statements, () => this.indexWhole(), body, scope, ids);
  }

  async get(id: string): Promise<Application | null> {
    const row = prepared(this.db, `select ${ALL_COLUMNS} from applications where id = ?`).get(id) as ApplicationRow | undefined;
    return row ? rowToApplication(row) : null;
  }

  reindex(onProgress: ReindexProgress): Promise<void> {
    if (this.rebuilding) return this.rebuilding;
    const run = rebuildIndex(this.db, this.reindexBatch, onProgress).finally(() => {
      this.rebuilding = null;
    });
    this.rebuilding = run;
    return run;
  }

  /** Resolves when no rebuild is under way (at once when none is). */
  private async indexWhole(): Promise<void> {
    while (this.rebuilding) await this.rebuilding.catch(() => undefined);
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
    const fewIn = async (p: Plan) => p.match !== null && (await this.statements.countUpTo({ ...p, where: [] }, this.narrowFrom + 1)) <= this.narrowFrom;
    if (!plan.tokensInMatch) return { ...none, few: await fewIn(plan) };
    const text = compile(parsed, scope, "sql");
    if (await fewIn(text)) return { plan: text, few: true, scored: null };
    // Only when that is another MATCH than both (a tag's token, not the portfolio's). Its walk is the costly one, so
    // it is walked once: its matches scored, up to one past `narrowFrom`.
    const tagged = plan.offThread ? null : compile(parsed, scope, "tags");
    if (!tagged || tagged.match === text.match || tagged.match === plan.match) return none;
    const src = this.statements.source({ ...tagged, where: [] }, "applications_fts.rowid as seq", false, true);
    const scored = await this.statements.all<RankedRow>(tagged, `${src.sql} limit ?`, [...src.params, this.narrowFrom + 1]);
    return scored.length <= this.narrowFrom ? { plan: tagged, few: true, scored } : none;
  }

  /**
   * The workers, for a full-text query sorted by relevance with at least `parallelFrom` matches ("broad": its
   * matches are counted up to the threshold only, so a broad query stops early). Below it, no workers, and the
   * count is the query's total.
   */
  private async workersFor(plan: Plan, sort: SortKey[] | null): Promise<{ pool: RankPool | null; known: Known | null }> {
    if (!this.pool || !plan.match || !isScoreSort(sort)) return NOT_BROAD;
    // One past the threshold: a broad query is then known to pass the facet's sample too (same default).
    const seen = await this.statements.countUpTo(plan, this.parallelFrom + 1);
    return { pool: seen >= this.parallelFrom ? this.pool : null, known: { n: seen, exact: seen <= this.parallelFrom } };
  }
}
