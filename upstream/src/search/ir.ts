/**
 * The engine's query tree: what the DSL and the Lucene query strings are parsed into, before the SQLite engine
 * compiles it (search/sqlite.ts). Text leaves already hold their FTS5 expression (column filter included).
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
export const DEFAULT_WEIGHTS: Record<TextColumn, number> = {
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

/** Per-query state the parsers fill: column weights from boosts. */
export class QueryContext {
  readonly weights: Record<TextColumn, number> = { ...DEFAULT_WEIGHTS };
  private boosted = new Set<TextColumn>();

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
