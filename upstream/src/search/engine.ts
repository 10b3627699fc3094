/**
 * The search engine behind /api/search (docs/decisions/search-engine.md). The routes speak only to this interface with
 * the Elasticsearch DSL subset of the contract, so an OpenSearch/Elasticsearch backend can implement it unchanged
 * (pass the body through, map the answer); the embedded one is SQLite FTS5 (sqlite.ts).
 */
import type { Application, SearchResponse } from "../../contract/portfolio";

export type SearchScope = {
  /** Only this portfolio ('public' or an organization id); every portfolio when absent. */
  portfolioId?: string;
  /** `list`: hits without claims and specification (GET /api/search); `all` (default): every field. */
  hitFields?: "list" | "all";
  /** Bound of `size` (default ADVANCED_MAX_SIZE) and its default when the body has none (default 10). */
  maxSize?: number;
  defaultSize?: number;
};

export type ReindexProgress = (processed: number, total: number) => void;

/** One match of a query: the application's id and its relevance (null when the query does not score). */
export type Match = { id: string; score: number | null };

export interface SearchEngine {
  /** Runs a DSL body. Throws QueryError (→ 400 naming the clause and its JSON path) outside the subset. */
  search(body: unknown, scope: SearchScope): Promise<SearchResponse>;
  /**
   * `search`'s answer as the JSON text `JSON.stringify(await search(body, scope))` would be (an engine may do just
   * that): the HTTP API's answer, written without making the objects first where the engine can.
   */
  searchJson(body: unknown, scope: SearchScope): Promise<string>;
  /**
   * Every hit of `body` in its order, up to `limit`, in batches of whole applications: the CSV export. Validates
   * before yielding anything (a bad body throws at the first `next()`).
   */
  scan(body: unknown, scope: SearchScope, limit: number): AsyncGenerator<Application[]>;
  /**
   * Categorization: every match of the body's `query` (size, from, sort, highlight and aggs ignored), in
   * batches of at most `batch`, in index order, a turn of the event loop between batches. Rows changed after their
   * batch was yielded are not yielded again. Validates before yielding (QueryError at the first `next()`).
   */
  scanMatches(body: unknown, scope: SearchScope, batch: number): AsyncGenerator<Match[]>;
  /**
   * Categorization: how many applications the body's `query` matches, counted a window of the index at
   * a time with a turn of the event loop between two (a broad match on a cold cache never holds the loop long).
   */
  countMatches(body: unknown, scope: SearchScope): Promise<number>;
  /** Categorization: which of `ids` the body's `query` matches, with their relevance. */
  matchAmong(body: unknown, scope: SearchScope, ids: readonly string[]): Promise<Map<string, number | null>>;
  /** One application by id, every field; null when unknown. */
  get(id: string): Promise<Application | null>;
  /**
   * Rebuilds the index (and the tag counts) from the stored applications, reporting progress; a second call while one
   * runs gets the same promise. Meanwhile `scanMatches`, `countMatches` and `matchAmong` wait for it (between two
   * steps, so a categorization never reads a half-built index: a cleanup would take tags off applications not yet
   * indexed again); `search` and `scan` answer from the index as it is.
   */
  reindex(onProgress: ReindexProgress): Promise<void>;
}
