import { z } from "zod";

/**
 * The template-storage backup (spec 2 §7): GET /api/template-storage/export-url streams one zip of every
 * template record (Word, Visio, drawings, shapes, forms) and file; POST /api/template-storage/import (multipart, one
 * `file` part) restores it — everything is checked first, and a bad archive changes nothing; GET .../import answers
 * the last import since the upstream started (null before).
 */
export const BACKUP_FORMAT = "backoffice-template-storage";
export const BACKUP_VERSION = 1;
/** The largest archive an import reads (the zip reader's inflate limit bounds what is inside it). */
export const MAX_BACKUP_BYTES = 100 * 1024 * 1024;

/** The backed-up tables, in the order they are restored, and how the import summary names them. */
export const BACKUP_TABLES = {
  word_templates: "Word templates",
  visio_templates: "Visio templates",
  drawings: "Drawings",
  shapes: "Shapes",
  forms: "Forms",
} as const;
export type BackupTable = keyof typeof BACKUP_TABLES;

export const ImportResult = z.object({
  importedAt: z.string(),
  /** Records restored per table. */
  records: z.record(z.number().int()),
  files: z.number().int(),
  bytes: z.number().int(),
});
export type ImportResult = z.infer<typeof ImportResult>;
export const LastImport = z.object({ last: ImportResult.nullable() });

export const BACKUP_MESSAGES = {
  fileRequired: "Choose a backup file (.zip).",
  notBackup: "The file is not a template-storage backup.",
  badVersion: (version: unknown) => `The backup's version ${String(version).slice(0, 20)} is not supported.`,
  badRecords: (table: string, detail: string) => `The backup's ${table} records are damaged: ${detail}`,
  missingFile: (key: string) => `The backup lacks the file ${key}.`,
  badFile: (key: string) => `The backup's file ${key} does not match its record.`,
  unexpected: (name: string) => `The backup holds an unexpected entry: ${name.slice(0, 200)}.`,
  tooLarge: `A backup may be at most ${MAX_BACKUP_BYTES / 1024 / 1024} MB.`,
} as const;
