/**
 * The portfolio (spec 2 §2 Portfolio, §3, §4, §5, §7, §8, §9): applications, their tags and fields, search (a
 * documented subset of the Elasticsearch query DSL), CSV import and export, reindex. Served by the embedded upstream
 * (upstream/src/search, upstream/src/applications); the decisions are in docs/decisions/search-engine.md.
 *
 * Stable for the back office: changes here are additive only.
 */
import { z } from "zod";
import { LIMIT_MESSAGES, limitText } from "./common";
import { APPLICATION_LIMITS as L, CSV_IMPORT_LIMITS, CSV_IMPORT_MESSAGES, PORTFOLIO_MESSAGES as M, TAG_FORBIDDEN } from "./portfolio-constants";

export * from "./portfolio-constants";

// ---------------------------------------------------------------------------------------------------------------
// The application aggregate (spec 2 §3)
// ---------------------------------------------------------------------------------------------------------------

/** A product in an application (spec 2 §3). `source` is a number, default 0. */
export type Product = {
  name: string;
  company: string;
  score: number | null;
  similarityAssessment: string;
  summary: string;
  ultimateParentCompany: string;
  source: number;
  isInternal: boolean;
  isCompetitor: boolean;
};

/** A tag on an application: its name and score (default 0). */
export type ApplicationTag = { name: string; score: number };

/** 'public' or an organization id. */
type PortfolioId = string;

/** A portfolio application (spec 2 §3). `aiSummary` is HTML, sanitized by the upstream when written. */
export type Application = {
  id: string;
  source: { id: string };
  title: string;
  abstract: string;
  claims: string;
  specification: string;
  aiSummary: string;
  products: Product[];
  broadScore: number | null;
  detectableScore: number | null;
  tags: ApplicationTag[];
  portfolioId: PortfolioId;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
  updatedBy: string | null;
};

const text = (label: string, max: number, multiline = true) => limitText(z.string(), label, max, { multiline });
const finite = (label: string) =>
  z.number({ invalid_type_error: `${label} must be a number` }).finite(`${label} must be a number`);

/** The id every write names: a non-empty string (spec 2 §5). */
export const ApplicationId = limitText(
  z.string({ required_error: M.idRequired, invalid_type_error: M.idRequired }).trim().min(1, M.idRequired),
  "Id",
  L.id,
);

/** A tag name: trimmed, non-empty, no comma or semicolon (spec 2 §5), at most 100 characters. */
export const TagName = limitText(
  z.string({ required_error: M.tagRequired, invalid_type_error: M.tagRequired }).trim().min(1, M.tagRequired),
  "Tag",
  L.tag,
).refine((name) => !TAG_FORBIDDEN.test(name), M.tagSeparators);

/** A tag's score: a number, default 0. */
export const TagScore = finite("Score").default(0);

const ApplicationTagInput = z.object({ name: TagName, score: TagScore });

/** A product as a client sends it: every field optional except the name. */
export const ProductInput = z.object({
  name: text("Product name", L.productText, false),
  company: text("Company", L.productText, false).default(""),
  score: finite("Product score").nullable().default(null),
  similarityAssessment: text("Similarity assessment", L.productLongText).default(""),
  summary: text("Product summary", L.productLongText).default(""),
  ultimateParentCompany: text("Ultimate parent company", L.productText, false).default(""),
  source: finite("Product source").default(0),
  isInternal: z.boolean().default(false),
  isCompetitor: z.boolean().default(false),
});
export type ProductInput = z.input<typeof ProductInput>;

const ProductsInput = z.array(ProductInput).max(L.products, LIMIT_MESSAGES.tooMany("products", L.products));
const TagsInput = z
  .array(ApplicationTagInput)
  .max(L.tags, LIMIT_MESSAGES.tooMany("tags", L.tags))
  // The last score of a repeated name wins, in the first one's place.
  .transform((tags) => {
    const byName = new Map<string, number>();
    for (const tag of tags) byName.set(tag.name, tag.score);
    return [...byName].map(([name, score]) => ({ name, score }));
  });

const Score = (label: string) => finite(label).nullable();

/**
 * `POST /api/applications` (needs `portfolio`): create an application (spec 2 §2 'New Application'; the spec leaves
 * the path open). Only `id` is required. 201 with the `Application`; 409 `"An application with id X already
 * exists."`; 400 naming the field. `portfolioId` defaults to 'public' and must be 'public' or an organization id.
 */
export const ApplicationCreate = z.object({
  id: ApplicationId,
  source: z.object({ id: text("Source id", L.sourceId, false) }).default({ id: "" }),
  title: text("Title", L.title).default(""),
  abstract: text("Abstract", L.abstract).default(""),
  claims: text("Claims", L.claims).default(""),
  specification: text("Specification", L.specification).default(""),
  aiSummary: text("AI summary", L.aiSummary).default(""),
  products: ProductsInput.default([]),
  broadScore: Score("Broad score").default(null),
  detectableScore: Score("Detectable score").default(null),
  tags: TagsInput.default([]),
  portfolioId: text("Portfolio", L.id, false).default("public"),
});
export type ApplicationCreate = z.input<typeof ApplicationCreate>;

/**
 * `PUT /api/applications/{id}` (needs `portfolio`): one of three changes, told apart by `action` (spec 2 §7: "with
 * tags or fields"). `applicationId` must equal the path's id (400 otherwise). Answers 200 with the updated
 * `Application`; an unknown id answers 404 `"Unable to find application with id {id}"`.
 *
 * - addTag `{action, applicationId, tag, score}`: appends the tag, or replaces its score when the name is already
 *   there (spec 2 §4); the portfolio's count for the tag goes up by one only when it was appended.
 * - removeTag `{action, applicationId, tag}`: removes it; the count goes down, the count's entry is deleted at zero.
 *   A tag the application does not have: 404 `"The application has no tag X."`.
 * - editFields `{action, applicationId, aiSummary?, broadScore?, detectableScore?, products?}`: only the fields
 *   sent change; aiSummary is sanitized HTML (sanitize-html; scripts, event handlers, styles and unknown tags dropped).
 */
export const AddTag = z.object({
  action: z.literal("addTag"),
  applicationId: ApplicationId,
  tag: TagName,
  score: TagScore,
});
export const RemoveTag = z.object({
  action: z.literal("removeTag"),
  applicationId: ApplicationId,
  tag: TagName,
});
export const EditFields = z.object({
  action: z.literal("editFields"),
  applicationId: ApplicationId,
  aiSummary: text("AI summary", L.aiSummary).optional(),
  broadScore: Score("Broad score").optional(),
  detectableScore: Score("Detectable score").optional(),
  products: ProductsInput.optional(),
});
export const ApplicationChange = z.discriminatedUnion("action", [AddTag, RemoveTag, EditFields], {
  errorMap: () => ({ message: 'action must be "addTag", "removeTag" or "editFields"' }),
});
export type AddTag = z.input<typeof AddTag>;
export type RemoveTag = z.input<typeof RemoveTag>;
export type EditFields = z.input<typeof EditFields>;
export type ApplicationChange = z.input<typeof ApplicationChange>;

// ---------------------------------------------------------------------------------------------------------------
// Search
// ---------------------------------------------------------------------------------------------------------------

/** Highlighted fields: fragments of HTML-escaped text with the pre/post tags (default `<em>`) around matches. */
export type Highlight = Partial<Record<"title" | "abstract" | "claims" | "specification" | "aiSummary" | "products", string[]>>;

/**
 * One hit: the application (for `GET /api/search` without `claims` and `specification`, which can be long: read them
 * with `GET /api/search/{id}`), its relevance `score` (bm25, higher is better; null when the query does not score,
 * e.g. match_all or a sort by field) and `highlight`.
 */
export type SearchHit = Omit<Application, "claims" | "specification"> &
  Partial<Pick<Application, "claims" | "specification">> & { score: number | null; highlight: Highlight };

/** A terms aggregation's answer, Elasticsearch's shape. */
export type TermsAggregation = {
  buckets: { key: string; doc_count: number }[];
  /** Documents in buckets not listed (past `size`). */
  sum_other_doc_count: number;
  /**
   * True when the counts were taken over the query's first `sampled` hits only, in its order (most relevant first, or
   * the sort asked): a query with more matches than the engine counts (see docs/decisions/search-engine.md). Absent
   * or false: exact.
   */
  partial?: boolean;
  sampled?: number;
};

/** `{data, total, aggs}` of GET /api/search and POST /api/search/advanced. `aggs.tags` is the tag facet. */
export type SearchResponse = {
  data: SearchHit[];
  /**
   * The matching applications: exact when `totalRelation` is "eq"; with "gte", more than this many match (the
   * search counted up to `track_total_hits`, TRACK_TOTAL_HITS unless the body or `trackTotalHits` says otherwise).
   */
  total: number;
  totalRelation: "eq" | "gte";
  aggs: Record<string, TermsAggregation>;
  /** Milliseconds the engine spent (Elasticsearch's `took`). */
  took: number;
};

/** Sortable fields (`sort`): `_score` (relevance; the default when there is a query) or one of these. */
export const SORT_FIELDS = ["_score", "id", "title", "broadScore", "detectableScore", "createdAt", "updatedAt"] as const;
export type SortField = (typeof SORT_FIELDS)[number];

/**
 * `GET /api/search?query=&size=&from=&sort=&portfolioId=&tags=a&tags=b` (needs `portfolio.read`).
 * - `query`: Lucene query-string syntax (as `query_string`, over title, abstract, claims, specification, aiSummary
 *   and products); empty: every application, newest first.
 * - `size` 1–500 (default 250), `from` ≥ 0 (default 0), `from + size` ≤ 10,000.
 * - `sort`: `field` or `field:asc|desc` of SORT_FIELDS (default `_score` with a query, else `updatedAt:desc`).
 * - `portfolioId`: 'public' (default) or an organization id (unknown: 404 "Portfolio not found.").
 * - `tags` (repeated): every one must be on the application (AND).
 * Answers `SearchResponse` with `aggs.tags` (the 100 most frequent tags of the matching applications) and highlight
 * of title, abstract and aiSummary. A query that does not parse: 400 naming the problem.
 */
export const SearchQuery = z.object({
  query: text("Query", L.query, false).default(""),
  size: z.coerce.number().int().min(1).max(500).default(250),
  from: z.coerce.number().int().min(0).max(10_000).default(0),
  sort: z
    .string()
    .regex(new RegExp(`^(${SORT_FIELDS.join("|")})(:(asc|desc))?$`), `sort must be one of ${SORT_FIELDS.join(", ")}, optionally with :asc or :desc`)
    .optional(),
  portfolioId: text("Portfolio", L.id, false).default("public"),
  /** "true": the exact total however many match (the screen's 'Count all'); otherwise up to TRACK_TOTAL_HITS. */
  trackTotalHits: z.enum(["true"]).optional(),
  tags: z
    .union([TagName, z.array(TagName)])
    .transform((t) => (Array.isArray(t) ? t : [t]))
    .pipe(z.array(z.string()).max(L.tagFilters, LIMIT_MESSAGES.tooMany("tag filters", L.tagFilters)))
    .default([]),
});
export type SearchQuery = z.input<typeof SearchQuery>;

// ----- The DSL subset of POST /api/search/advanced (types; the upstream's parser validates and names the path) -----

/** Text fields `match`, `query_string` etc. search. A `^n` suffix boosts a field: `"title^3"`. */
export const TEXT_FIELDS = ["title", "abstract", "claims", "specification", "aiSummary", "products"] as const;

type QueryStringQuery = {
  query_string: {
    query: string;
    /** Default: every text field. */
    fields?: string[];
    default_field?: string;
    default_operator?: "OR" | "AND" | "or" | "and";
    boost?: number;
  };
};
type MatchQuery = {
  match: Record<string, string | { query: string; operator?: "or" | "and"; minimum_should_match?: number | string; boost?: number }>;
};
type MatchPhraseQuery = { match_phrase: Record<string, string | { query: string; slop?: number; boost?: number }> };
type MultiMatchQuery = {
  multi_match: {
    query: string;
    fields?: string[];
    type?: "best_fields" | "most_fields" | "phrase";
    operator?: "or" | "and";
    boost?: number;
  };
};
type BoolQuery = {
  bool: {
    must?: DslQuery | DslQuery[];
    should?: DslQuery | DslQuery[];
    must_not?: DslQuery | DslQuery[];
    filter?: DslQuery | DslQuery[];
    minimum_should_match?: number | string;
    boost?: number;
  };
};
type TermQuery = { term: Record<string, string | { value: string; boost?: number }> };
type TermsQuery = { terms: Record<string, string[]> };
type RangeQuery = {
  range: Record<string, { gt?: number | string; gte?: number | string; lt?: number | string; lte?: number | string }>;
};
type IdsQuery = { ids: { values: string[] } };
type MatchAllQuery = { match_all: { boost?: number } };
type DslQuery =
  | QueryStringQuery
  | MatchQuery
  | MatchPhraseQuery
  | MultiMatchQuery
  | BoolQuery
  | TermQuery
  | TermsQuery
  | RangeQuery
  | IdsQuery
  | MatchAllQuery;

type HighlightOptions = {
  fragment_size?: number;
  number_of_fragments?: number;
  no_match_size?: number;
  pre_tags?: string[];
  post_tags?: string[];
};
type HighlightRequest = HighlightOptions & { fields: Record<string, HighlightOptions> | string[] };

/**
 * `POST /api/search/advanced?portfolioId=` (needs `portfolio.read`) with this body (defaults size 10, from 0; `size`
 * ≤ 1,000, `from + size` ≤ 10,000). Without `portfolioId` every portfolio is searched (a `term` on `portfolioId`
 * narrows it too). Answers `SearchResponse`: each hit with its `score` and `highlight` fragments per field asked.
 * Anything outside the subset answers 400 naming the clause and its JSON path:
 * `Unsupported query clause "fuzzy" at query.bool.must[1]`.
 * - `sort`: `"_score"`, `"field"`, `{field: "asc"|"desc"}`, `{field: {order}}` or a list of them (SORT_FIELDS).
 * - `aggs` (or `aggregations`): `{name: {terms: {field: "tags.name", size?}}}` → `aggs.name`.
 * - `_source`: false, a list of fields, or `{includes, excludes}` — which application fields each hit carries.
 */
export type AdvancedSearchBody = {
  query?: DslQuery;
  highlight?: HighlightRequest;
  aggs?: Record<string, { terms: { field: "tags.name" | "tags"; size?: number } }>;
  aggregations?: AdvancedSearchBody["aggs"];
  size?: number;
  from?: number;
  sort?: unknown;
  _source?: boolean | string[] | { includes?: string[]; excludes?: string[] };
  /** true: count every match; a number: count up to it (default TRACK_TOTAL_HITS); false: count none. */
  track_total_hits?: boolean | number;
};

// ---------------------------------------------------------------------------------------------------------------
// CSV import, CSV export, reindex
// ---------------------------------------------------------------------------------------------------------------

/**
 * `POST /api/applications/csv?wait=true` (needs `portfolio`) with `{csvFileData: base64, portfolioId?}`: imports a
 * CSV (columns CSV_COLUMNS; a header line is required; `id` is). The body is read as it arrives; the import runs in
 * the background as a job kept in the database and answers 202 with its `ImportJob`; poll
 * `GET /api/applications/csv/{jobId}` for progress (after a restart too). With `?wait=true` the answer (200) comes
 * when the job has finished. All or nothing (docs/decisions/portfolio-import.md): a completed job applied every row
 * that passed (the rejected ones are its report); a failed one, interrupted ones included, applied none. Idempotent
 * by id: a row creates the application or replaces the fields its columns give. A body that is not base64, not CSV,
 * has no `id` column or is over the limits answers 400/413 at once.
 */
export const CsvImportBody = z.object({
  csvFileData: z
    .string({ required_error: "csvFileData: The CSV file is required" })
    .min(1, "The CSV file is required")
    .max(Math.ceil((CSV_IMPORT_LIMITS.bytes * 4) / 3) + 4, CSV_IMPORT_MESSAGES.tooLarge),
  portfolioId: text("Portfolio", L.id, false).default("public"),
});
export type CsvImportBody = z.input<typeof CsvImportBody>;

/** One rejected row: its line number in the file (the header is line 1) and why. */
export type CsvRejection = { line: number; reason: string };

/** A background job's state (CSV import, reindex). */
type JobStatus = "running" | "completed" | "failed";

export type ImportJob = {
  id: string;
  status: JobStatus;
  /** Data rows read so far, and in the file (known once the file is parsed: null before). */
  processed: number;
  total: number | null;
  /** 0 … 1: the share of the file read so far. */
  progress: number;
  /** Applications created or changed (the toast's n: 'Import completed (n applications were updated)'). */
  updated: number;
  /** The ids of the updated applications, in file order (the first 1,000). */
  updatedIds: string[];
  /** Rejected rows, the first 10,000 (CSV_IMPORT_LIMITS.reportedRejections); `rejectedTotal` counts them all. */
  rejected: CsvRejection[];
  rejectedTotal: number;
  /** When status is "failed": why. */
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
};

/**
 * `GET /api/search/csv?query=&tags=&portfolioId=&sort=&size=10000&from=0` (needs `portfolio.read`) and
 * `POST /api/search/advanced/csv?portfolioId=` with an advanced body: answer `{downloadUrl}`, a path under /api
 * (`/search/exports/{token}`) to GET with the same user's token within 10 minutes. The file (text/csv, CSV_COLUMNS,
 * `attachment; filename="portfolio-YYYY-MM-DD.csv"`) is streamed: its first bytes leave before the rest is read. At
 * most CSV_DOWNLOAD_SIZE rows.
 */
export type CsvExportResponse = { downloadUrl: string };

/**
 * `POST /api/applications/reindex?wait=true` (needs `portfolio`): rebuilds the full-text index and the tag counts
 * from the applications, in chunks. 202 with the `ReindexJob` (200 when `wait=true` and done); one at a time: a
 * second call while one runs answers the running one. `GET /api/applications/reindex` answers the latest job (404
 * when none ran since the start).
 */
export type ReindexJob = {
  id: string;
  status: JobStatus;
  processed: number;
  total: number;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
};

/** `GET /api/portfolio/tags?portfolioId=` (needs `portfolio.read`): the portfolio's tag counts (spec 2 §3 tag aggregate), most frequent first. */
export type TagCount = { name: string; count: number };
