import { z } from "zod";
import { TEXT_LIMITS, limitText } from "./common";

/** Largest upload kept between steps (10 MB: a generator document's bound, `MAX_DOCUMENT_BYTES`). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** An upload is deleted this long after it was made. */
export const FILE_TTL_MS = 24 * 60 * 60 * 1000;

export const FILE_MESSAGES = {
  notFound: "File not found.",
  required: "A file is required.",
  oneFile: "Send exactly one file part named file.",
  tooLarge: `The file must be at most ${MAX_FILE_BYTES / 1024 / 1024} MB.`,
  notMultipart: "Request body must be multipart/form-data",
} as const;

/**
 * POST /api/files (multipart, one `file` part) → 201 StoredFile; GET /api/files/{id} streams the bytes;
 * DELETE /api/files/{id} → 204. Only the uploading user sees a file (others: 404); it expires after `FILE_TTL_MS`.
 */
export const StoredFile = z.object({
  id: z.string(),
  /** The uploaded file's name (path parts and control characters removed). */
  name: z.string(),
  size: z.number().int().nonnegative(),
  contentType: z.string(),
  createdAt: z.string(),
  /** When it is deleted (ISO 8601). */
  expiresAt: z.string(),
});
export type StoredFile = z.infer<typeof StoredFile>;

/** A stored upload named in a body instead of its bytes: `{ fileId }` (e.g. the generator's `document`). */
export const FileRef = z.object({
  fileId: limitText(z.string().min(1, "File id is required"), "File id", TEXT_LIMITS.id),
});
export type FileRef = z.infer<typeof FileRef>;
