/**
 * The portfolio's constants and messages (spec 2 §5, §8, §9), defined once and free of zod so a route module that
 * only needs a text or a page size does not ship zod to the browser. Re-exported by `portfolio.ts`.
 */

/** 'public' is the built-in portfolio (spec 2 §3); any other portfolio id is an organization id. */
export const PUBLIC_PORTFOLIO = "public";

/** Results per page of /portfolio (spec 2 §9): 50, 100, 250, 500; default 250; `from` defaults to 0. */
export const PORTFOLIO_PAGE_SIZES = [50, 100, 250, 500] as const;
export const DEFAULT_PORTFOLIO_PAGE_SIZE = 250;
/** `GET /api/search/csv` size (spec 2 §9). Also the most rows one export holds. */
export const CSV_DOWNLOAD_SIZE = 10_000;
/** `POST /api/search/advanced` defaults (spec 2 §7, §9: categorization default size 10, from 0). */
export const ADVANCED_DEFAULT_SIZE = 10;
/** The most hits one advanced search page returns (`size`). */
export const ADVANCED_MAX_SIZE = 1_000;
/** `from + size` may not go past this (Elasticsearch's `index.max_result_window`). */
export const MAX_RESULT_WINDOW = 10_000;
/**
 * How far a search counts its matches unless told otherwise (Elasticsearch's default `track_total_hits`): past it
 * the total is this figure and `totalRelation` is "gte". Counting every match of a broad query costs as much as a
 * third of ranking it, and the pages stop at MAX_RESULT_WINDOW anyway. A total the engine knows without counting
 * (a whole portfolio, one tag) is exact at any size.
 */
export const TRACK_TOTAL_HITS = 10_000;
/**
 * Bounds of one search's work (GET /api/search, POST /api/search/advanced, their CSV exports, categorization), checked
 * while the query is parsed, before any of it runs; `statementMs` is the backstop for what the structure cannot tell
 * (a few words in nearly every application). Measured on the demo portfolio (docs/decisions/search-engine.md,
 * "Bounds of one search"): each text term is a posting list FTS5 walks for every statement of the search, so 1,000
 * common words held the server for 44 s and 20,000 match clauses spent over a second in building the query alone.
 * Elasticsearch bounds the same things (`indices.query.bool.max_clause_count`, `max_expansions`, `timeout`).
 */
export const SEARCH_LIMITS = {
  /** Words of the query's text clauses, all together (a phrase counts each of its words; repeats count again). */
  terms: 100,
  /** Of those, prefix terms (`word*`): each one merges the index entries of every word it covers. */
  prefixes: 10,
  /** Clauses of one `bool` (must, should, must_not and filter together). */
  boolClauses: 1_024,
  /** Clauses of the whole query, nested ones and each value of `terms` and `ids` included. */
  clauses: 1_024,
  /** The longest one statement of a search may run before the search is stopped (milliseconds). */
  statementMs: 5_000,
} as const;

/** The reasons a search is refused as too costly (a 400; /portfolio shows them under the spec's 'Search failed' text). */
export const SEARCH_MESSAGES = {
  tooManyTerms: (max: number) =>
    `The query is too costly: it has more than ${max.toLocaleString("en-US")} search terms. Use fewer words or phrases.`,
  tooManyPrefixes: (max: number) =>
    `The query is too costly: it has more than ${max.toLocaleString("en-US")} prefix terms (word*). Use fewer prefixes.`,
  tooManyBoolClauses: (max: number) =>
    `The query is too costly: a bool may hold at most ${max.toLocaleString("en-US")} clauses.`,
  tooManyClauses: (max: number) =>
    `The query is too costly: it has more than ${max.toLocaleString("en-US")} clauses in all.`,
  tooSlow: (ms: number) =>
    `The query is too costly: it ran longer than ${ms / 1000} seconds and was stopped. Use fewer or rarer words, fewer prefixes, or a tag filter.`,
} as const;
/** Facet groups show 10 values, then 'show more' (spec 2 §2). */
export const FACET_VISIBLE_VALUES = 10;
/** How many tag buckets `GET /api/search` answers in `aggs.tags` (the facet's 'show more' reveals them). */
export const FACET_MAX_VALUES = 100;

/** Bounds of an application's fields (characters) and lists. */
export const APPLICATION_LIMITS = {
  id: 100,
  sourceId: 200,
  title: 2_000,
  abstract: 20_000,
  claims: 200_000,
  specification: 500_000,
  aiSummary: 50_000,
  /** One product's text fields. */
  productText: 500,
  productLongText: 10_000,
  products: 100,
  tags: 200,
  /** One tag name (contract TEXT_LIMITS.tag). */
  tag: 100,
  /** The search text (`query` of GET /api/search). */
  query: 2_000,
  /** Tags one search may filter on (repeated `tags`). */
  tagFilters: 20,
} as const;

/** CSV import bounds (the upstream reads the file in chunks; see upstream/README.md "Portfolio"). */
export const CSV_IMPORT_LIMITS = {
  /** Decoded CSV bytes. The JSON body may be 4/3 of this (base64) plus a little. */
  bytes: 50 * 1024 * 1024,
  /** Data rows (the header line not counted). */
  rows: 200_000,
  /** Rejected rows listed in a report; `rejectedTotal` counts them all. */
  reportedRejections: 10_000,
  /** Imports waiting for the running one (one at a time; each file held in memory until its turn). */
  waiting: 3,
} as const;

/** What a CSV import answers when it refuses a file, and its job's `error` when it imported nothing. */
export const CSV_IMPORT_MESSAGES = {
  notBase64: "csvFileData: The file is not base64.",
  empty: "csvFileData: The CSV file is empty.",
  tooLarge: `The CSV file may be ${CSV_IMPORT_LIMITS.bytes / 1024 / 1024} MB at most.`,
  tooManyRows: `The file has more than ${CSV_IMPORT_LIMITS.rows.toLocaleString("en-US")} rows. Nothing was imported.`,
  /** A job the server's stop (or a crash) cut short, read after the restart: it was undone. */
  interrupted: "The import was interrupted (the server stopped). Nothing was imported.",
  failed: (reason: string) => `The import failed: ${reason} Nothing was imported.`,
  /** More files waiting than CSV_IMPORT_LIMITS.waiting (each is held in memory until its turn). */
  busy: "Too many CSV imports are waiting. Try again when the running one has finished.",
} as const;

/**
 * The CSV columns, in export order. Import needs `id`; every other column is optional and, when present, replaces
 * that field (an empty cell clears it; `tags` adds or re-scores, never removes). Header names are case-insensitive.
 * - `tags`: `name:score;name:score` (score optional, default 0; a name holds no comma, semicolon or colon).
 * - `products`: a JSON array of products (every §3 product field).
 * - `broadScore`, `detectableScore`: numbers or empty.
 * - `portfolioId`: 'public' or an organization id; empty or absent: the import's portfolio.
 */
export const CSV_COLUMNS = [
  "id",
  "sourceId",
  "portfolioId",
  "title",
  "abstract",
  "claims",
  "specification",
  "aiSummary",
  "products",
  "broadScore",
  "detectableScore",
  "tags",
  "createdAt",
  "updatedAt",
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** Messages of the application and tag rules (spec 2 §5) and the portfolio's toasts (spec 2 §8), verbatim. */
export const PORTFOLIO_MESSAGES = {
  /** Editing tags or fields of an unknown id (spec 2 §5). The upstream's 404 message starts with it. */
  notFound: "Unable to find application with id",
  /** Application creation (spec 2 §5). */
  createFailed: "Failed to save application. Check your input and try again.",
  idRequired: "Id is required",
  /** Add-tag form rules (spec 2 §5); the texts are ours, the rules the spec's. */
  tagRequired: "Tag is required",
  tagExists: "The application already has this tag",
  tagSeparators: "A tag cannot contain a comma or a semicolon",
  scoreNumber: "Score must be a number",
  /** Toasts (spec 2 §8). */
  importFailed: "Import failed",
  removeTagFailed: "Remove tag failed",
  addTagFailed: "Add Tag failed",
  importCompleted: (n: number) => `Import completed (${n} applications were updated)`,
  removeTagCompleted: "Remove Tag completed",
  addTagCompleted: "Add Tag completed",
  editFieldsCompleted: "Edit fields completed",
  /** The upstream has no such call yet (the prompt-chain work owns it). */
  vectorsNotImplemented: "Deleting application vectors is not available yet.",
} as const;

/** The 404 message for application `id`. */
export const applicationNotFound = (id: string) => `${PORTFOLIO_MESSAGES.notFound} ${id}`;

/** Characters a tag name may not hold (spec 2 §5: no comma or semicolon). */
export const TAG_FORBIDDEN = /[,;]/;

/** The sample of the 'New Application' JSON editor (spec 2 §2: an id and two tags). */
export const NEW_APPLICATION_SAMPLE = {
  id: "US20240123456A1",
  title: "",
  tags: [
    { name: "wireless", score: 0 },
    { name: "battery", score: 0 },
  ],
};

/** Default highlight tags (Elasticsearch's). Fragments are HTML-escaped text with these around each match. */
export const DEFAULT_PRE_TAG = "<em>";
export const DEFAULT_POST_TAG = "</em>";
