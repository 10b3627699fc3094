/**
 * Categorization constants and messages (spec 2 §3, §5, §8, §9), free of zod so a screen that needs only a text or the
 * default query does not ship zod. Re-exported by `categorization.ts`.
 */
import { FIELD_MESSAGES } from "./limits";

/**
 * The default new query (spec 2 §3): name 'Untitled', no tags, a query_string 'untitled OR unnamed' over title and
 * abstract, highlight fragment size 100, 2 fragments, no-match size 100.
 */
export const DEFAULT_QUERY_BODY = {
  query: { query_string: { query: "untitled OR unnamed", fields: ["title", "abstract"] } },
  highlight: {
    fragment_size: 100,
    number_of_fragments: 2,
    no_match_size: 100,
    fields: { title: {}, abstract: {}, specification: {}, claims: {} },
  },
} as const;

export const DEFAULT_QUERY = {
  name: "Untitled",
  tags: [] as string[],
  text: JSON.stringify(DEFAULT_QUERY_BODY, null, 2),
};

/** Categorization search page size (spec 2 §9: default 10, from 0), and the sizes offered. */
export const CATEGORIZATION_PAGE_SIZE = 10;

export const CATEGORIZATION_LIMITS = {
  name: 200,
  tags: 50,
  /** The query JSON (characters). */
  text: 20_000,
  /** Saved queries (apply-all goes through each). */
  queries: 500,
  /** Jobs a listing answers at most. */
  jobs: 50,
} as const;

/** Rows a job writes per transaction, between two turns of the event loop. */
export const CATEGORIZATION_BATCH = 250;

/** Messages: the spec's verbatim (§8) and ours where it gives none (docs/decisions/categorization.md). */
export const CATEGORIZATION_MESSAGES = {
  createFailed: "Create query failed",
  updateFailed: "Update query failed",
  csvFailed: "Failed to generate CSV file",
  applyFailed: "Apply failed",
  searchFailed:
    "Search failed. Please, check your request and try again. If this problem persists, please contact our development team.",
  nameRequired: FIELD_MESSAGES.nameRequired,
  tagsRequired: "Add at least one tag",
  invalidJson: "The query is not valid JSON:",
  notAnObject: "The query must be a JSON object.",
  notFound: "Query not found.",
  noTags: "The query has no tags: add at least one and save it first.",
  triggered: {
    apply: "Apply triggered",
    remove: "Remove triggered",
    applyAll: "Apply all triggered",
    prune: "Cleanup triggered",
  },
  interrupted: "Interrupted by a restart of the server.",
  jobNotFound: "Job not found.",
  jobFinished: "The job has already finished.",
  jobCancelled: "Job cancelled",
  cancelFailed: "Cancel failed",
  lastQuery: "The last query cannot be deleted.",
} as const;

/** The query text must be a JSON object (spec 2 §5: valid JSON). Null when it is, else the reason. */
export function queryTextProblem(text: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `${CATEGORIZATION_MESSAGES.invalidJson} ${(error as Error).message}`.trim();
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return CATEGORIZATION_MESSAGES.notAnObject;
  return null;
}
