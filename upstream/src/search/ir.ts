import { SEARCH_LIMITS, SEARCH_MESSAGES } from "../../contract/portfolio";

/**
 * The engine's query tree: what the DSL and the Lucene query strings are parsed into, before the SQLite engine
 * compiles it (search/compile.ts). Text leaves already hold their FTS5 expression (column filter included).
 */

/** FTS5 columns of the text fields, in the index's order (bm25 weights follow it; the last two are tokens). */
export const TEXT_COLUMNS = ["title", "abstract", "claims", "specification", "ai_text", "products_text"] as const;
export type TextColumn = (typeof TEXT_COLUMNS)[number];

/** API field name → FTS5 column. `products.*` sub-fields all search the products' text. */
export const FIELD_COLUMNS: Record<string, TextColumn> = {
  title: "title",
  abstract: "abstract",
  claims: "claims",
  specification: "specification",
  aiSummary: "ai_text",
  products: "products_text",
  "products.name": "products_text",
  "products.company": "products_text",
  "products.summary": "products_text",
  "products.ultimateParentCompany": "products_text",
  "products.similarityAssessment": "products_text",
};

/** The API field of each column (highlight keys). */
export const COLUMN_FIELDS: Record<TextColumn, string> = {
  title: "title",
  abstract: "abstract",
  claims: "claims",
  specification: "specification",
  ai_text: "aiSummary",
  products_text: "products",
};

/** Default bm25 weights (a boost on a field replaces its weight for that query). */
const DEFAULT_WEIGHTS: Record<TextColumn, number> = {
  title: 2,
  abstract: 1.5,
  claims: 1,
  specification: 0.75,
  ai_text: 1,
  products_text: 1,
};

export type RangeField = "broad_score" | "detectable_score" | "created_at" | "updated_at";
export const RANGE_COLUMNS: Record<string, RangeField> = {
  broadScore: "broad_score",
  detectableScore: "detectable_score",
  createdAt: "created_at",
  updatedAt: "updated_at",
};

/**
 * One text match: the analyzed `tokens` as a phrase (its last token a prefix when `prefix`), or, with `near`, a NEAR
 * group of one-token phrases at most `near` tokens apart (FTS5's NEAR distance).
 */
export type Phrase = { tokens: readonly string[]; prefix: boolean; near: number | null };

export type Bound = { op: ">" | ">=" | "<" | "<="; value: number | string };

export type Node =
  | { kind: "all" }
  | { kind: "none" }
  /**
   * A full-text match: `expr` is its FTS5 expression restricted to text columns; `phrase` and `columns` the same match
   * as data (what highlighting in JavaScript reads, search/marks.ts).
   */
  | { kind: "text"; expr: string; phrase: Phrase; columns: readonly TextColumn[] }
  | { kind: "tag"; name: string }
  | { kind: "portfolio"; id: string }
  | { kind: "ids"; column: "id" | "source_id"; values: string[] }
  | { kind: "range"; column: RangeField; bounds: Bound[] }
  | { kind: "bool"; must: Node[]; should: Node[]; mustNot: Node[]; filter: Node[]; msm: number | null };

/** A full-text leaf of the tree. */
export type TextNode = Extract<Node, { kind: "text" }>;

/** The should-clauses a bool needs: its `minimum_should_match`, else 1 without must/filter, else 0. */
export function effectiveMsm(node: Extract<Node, { kind: "bool" }>): number {
  if (node.msm !== null) return Math.min(node.msm, node.should.length);
  return node.must.length || node.filter.length ? 0 : node.should.length ? 1 : 0;
}

/**
 * Per-query state the parsers fill: column weights from boosts, and the query's size so far, which refuses a query
 * past SEARCH_LIMITS as soon as the parse gets there (before the rest of it is parsed, and before anything runs).
 */
export class QueryContext {
  readonly weights: Record<TextColumn, number> = { ...DEFAULT_WEIGHTS };
  private boosted = new Set<TextColumn>();
  /** Words of the text clauses (each a posting list every statement walks) and, of them, prefixes. */
  terms = 0;
  prefixes = 0;
  clauses = 0;

  /** Counts `n` clauses at `path`. */
  clause(path: string, n = 1): void {
    this.clauses += n;
    if (this.clauses > SEARCH_LIMITS.clauses) throw new SearchTooCostly(SEARCH_MESSAGES.tooManyClauses(SEARCH_LIMITS.clauses), path);
  }

  /** Counts the words of a text clause at `path` (`prefixes` of them prefixes), before its leaves are made. */
  words(path: string, words: number, prefixes = 0): void {
    this.terms += words;
    this.prefixes += prefixes;
    if (this.terms > SEARCH_LIMITS.terms) throw new SearchTooCostly(SEARCH_MESSAGES.tooManyTerms(SEARCH_LIMITS.terms), path);
    if (this.prefixes > SEARCH_LIMITS.prefixes) throw new SearchTooCostly(SEARCH_MESSAGES.tooManyPrefixes(SEARCH_LIMITS.prefixes), path);
  }

  /** Counts a phrase's words (see `words`). */
  phrase(path: string, phrase: Phrase): void {
    this.words(path, phrase.tokens.length, phrase.prefix ? 1 : 0);
  }

  /** A boost on these columns becomes their bm25 weight (the largest boost given wins). */
  boost(columns: readonly TextColumn[], boost: number): void {
    for (const column of columns) {
      const base = this.boosted.has(column) ? this.weights[column] : 0;
      this.weights[column] = Math.max(base, boost * DEFAULT_WEIGHTS[column]);
      this.boosted.add(column);
    }
  }
}

/** A 400 naming the clause and its JSON path. */
export class QueryError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(path ? `${message} at ${path}` : message);
    this.name = "QueryError";
  }
}

/**
 * A query refused as too costly (SEARCH_LIMITS): a QueryError, so every caller answers it as the 400 it is — the
 * query, not the server, is at fault, and a 408 would invite a client to send it again as it is.
 */
export class SearchTooCostly extends QueryError {
  constructor(message: string, path: string) {
    super(message, path);
    this.name = "SearchTooCostly";
  }
}
