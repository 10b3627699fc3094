/**
 * Versioned documents (spec 3 §2.6, §4.1, §4.2): a document's current version, at most one draft, and immutable
 * numbered revisions with a commit message, an author and a date. The shapes every versioned kind shares (milestone
 * templates now, prompt chains next), the concurrency token a save carries, and the texts. The store is
 * upstream/src/versions/; docs/decisions/versions-kit.md says why it is built so.
 */
import { z } from "zod";
import { boundedText } from "./common";

export const VERSION_LIMITS = {
  commitMessage: 2_000,
  /** Revisions one history page answers by default, and at most. */
  historyPage: 100,
  historyMax: 500,
} as const;

/**
 * The version a save was based on: echo the `version` of the answer you edited. A draft's save sends the draft's
 * version, or 0 when it started from the current document (it expects no draft); a commit sends the current
 * document's version. Omitted, the save is unconditional (kept for clients that do not send it yet).
 */
export const BaseVersion = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const CommitMessage = boundedText("Commit message", VERSION_LIMITS.commitMessage, { multiline: true });

/** What a save refused as stale answers (409) beside its message: the version it now is, who saved it and when. */
export const VersionConflict = z.object({
  message: z.string(),
  version: z.number().int(),
  updatedBy: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type VersionConflict = z.infer<typeof VersionConflict>;

/** One entry of a document's history (newest first): the history dropdown's status, date, author and message. */
export const RevisionSummary = z.object({
  revision: z.number().int().min(1),
  commitMessage: z.string(),
  author: z.string().nullable(),
  createdAt: z.string(),
  /** This revision's content is the current document. */
  current: z.boolean(),
  /** The revision whose content this one activated again (activate revision), else null. */
  activatedFrom: z.number().int().nullable(),
});
export type RevisionSummary = z.infer<typeof RevisionSummary>;

/** Which version of a document: the current one, its draft, or revision N. */
export type VersionRef = "current" | "draft" | number;
export const VersionRefParam = z
  .string()
  .trim()
  .regex(/^(current|draft|[1-9][0-9]{0,8})$/, "Expected current, draft or a revision number")
  .transform((v): VersionRef => (v === "current" || v === "draft" ? v : Number(v)));

/** PUT …/activate/revision: make revision N's content current again (as a new revision). */
export const ActivateRevision = z.object({
  revision: z.number().int().min(1),
  baseVersion: BaseVersion.optional(),
  commitMessage: CommitMessage.optional(),
});
export type ActivateRevision = z.infer<typeof ActivateRevision>;

/** Query of a history page: the newest `limit` revisions older than `before`. */
export const HistoryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(VERSION_LIMITS.historyMax).default(VERSION_LIMITS.historyPage),
  before: z.coerce.number().int().min(1).optional(),
});

export const VERSION_MESSAGES = {
  /** Spec 3 §8: a draft exists that this save did not start from (someone else's, or a newer one of yours). */
  overwriteDraft: "Overwrite draft?",
  /** The current document moved on since the version this save started from. */
  stale: (version: number, by: string | null) =>
    `This document was saved by ${by ?? "someone else"} since you opened it (now version ${version}): nothing was saved. Reload, compare, and save again.`,
  revisionNotFound: "Revision not found.",
  draftNotFound: "Draft not found.",
  activatedRevision: (n: number) => `Activated revision ${n}`,
  /** A revision's content is never changed or lost while it is the one that runs: only another can be deleted. */
  activeRevisionDelete: "The active version cannot be deleted; activate another one first.",
} as const;
