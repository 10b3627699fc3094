/**
 * Categorization (spec 2 §2 Categorization, §3 saved query, §4, §5, §7, §8, §9): saved search queries whose
 * matches get the query's tags, as background jobs with progress. Decisions: docs/decisions/categorization.md.
 *
 * - `GET/POST /api/categorization/queries`, `GET/PATCH/DELETE /api/categorization/queries/{id}` (the resource kit):
 *   read needs `portfolio.read`, create/change/delete `portfolio.write` (granted by `portfolio`). POST with `{}`
 *   creates the spec's default query (DEFAULT_QUERY).
 * - `POST /api/categorization/queries/{id}/apply` and `/remove`, `POST /api/categorization/queries/apply` (every
 *   saved query) and `POST /api/categorization/queries/prune` `{id?}` (one query's tags, or every query's): need
 *   `portfolio.write`; answer 202 `{message, job}` at once, the job runs in the background (one at a time, queued).
 *   A query without tags or whose JSON the engine refuses answers 400 (the engine's message) before anything runs.
 * - `GET /api/categorization/jobs?queryId=&limit=` (the latest first; with queryId: that query's jobs and every
 *   apply-all) and `GET /api/categorization/jobs/{id}` (needs `portfolio.read`).
 * - `POST /api/categorization/jobs/{id}/cancel` (needs `portfolio.write`): a queued job is dropped, a running one
 *   stops after the step under way (what it changed stays); the answer is the job, cancelled. 404 for an unknown
 *   job, 409 for one that has already finished (completed, failed or cancelled).
 * - Searching a query is the portfolio's `POST /api/search/advanced` with the query JSON plus `size` and `from`;
 *   its CSV `POST /api/search/advanced/csv` (contract/portfolio.ts).
 */
import { z } from "zod";
import { Audit, boundedList, limitText } from "./common";
import { TagName } from "./portfolio";
import { defineResource } from "./resource";
import { CATEGORIZATION_LIMITS as L, CATEGORIZATION_MESSAGES as M, queryTextProblem } from "./categorization-constants";

export * from "./categorization-constants";

const name = limitText(
  z.string({ required_error: M.nameRequired, invalid_type_error: M.nameRequired }).trim().min(1, M.nameRequired),
  "Name",
  L.name,
);
const tags = boundedList(TagName, "tags", L.tags).transform((list) => {
  // Deduplicated (spec 2 §5), case-insensitively, the first spelling kept.
  const seen = new Set<string>();
  return list.filter((t) => (seen.has(t.toLowerCase()) ? false : (seen.add(t.toLowerCase()), true)));
});
const text = limitText(z.string({ invalid_type_error: M.invalidJson }), "Query", L.text, { multiline: true }).superRefine(
  (value, ctx) => {
    const problem = queryTextProblem(value);
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  },
);

export const CategorizationQuery = z
  .object({ id: z.string(), name: z.string(), tags: z.array(z.string()), text: z.string() })
  .merge(Audit);
export type CategorizationQuery = z.infer<typeof CategorizationQuery>;

/** POST body: every field optional; the missing ones take the spec's default (name 'Untitled', no tags, its JSON). */
const CategorizationQueryCreate = z.object({ name: name.optional(), tags: tags.optional(), text: text.optional() });
const CategorizationQueryUpdate = z.object({ name: name.optional(), tags: tags.optional(), text: text.optional() });

export const CategorizationQueriesResource = defineResource({
  name: "categorization queries",
  path: "/api/categorization/queries",
  item: CategorizationQuery,
  create: CategorizationQueryCreate,
  update: CategorizationQueryUpdate,
  permissions: { read: "portfolio.read", create: "portfolio", write: "portfolio" },
  notFound: M.notFound,
});

/** `POST /api/categorization/queries/prune` body: one query (`id`) or every saved query (no id). */
export const PruneBody = z.object({ id: z.string().max(100).optional() });

/** What a job does. */
export type CategorizationJobKind = "apply" | "remove" | "applyAll" | "prune";
type CategorizationJobStatus = "queued" | "running" | "completed" | "failed" | "cancelled";

/**
 * A categorization job (kept in the database: its progress survives a reload and a restart; a job a restart
 * interrupted reads as failed). `done` of `total` applications looked at (total known once counted: null before);
 * `changed` applications whose tags changed.
 */
export type CategorizationJob = {
  id: string;
  kind: CategorizationJobKind;
  /** The query (null for apply-all and an every-query prune), with its name and tags when the job was triggered. */
  queryId: string | null;
  queryName: string | null;
  tags: string[];
  status: CategorizationJobStatus;
  done: number;
  total: number | null;
  changed: number;
  /** Queries an apply-all or prune left out (no tags, or JSON the engine refuses), with why. */
  skipped: { name: string; reason: string }[];
  error: string | null;
  createdAt: string;
  createdBy: string | null;
  startedAt: string | null;
  finishedAt: string | null;
};

/** The answer of a trigger (202). */
export type JobTriggered = { message: string; job: CategorizationJob };
