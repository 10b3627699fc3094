import { BACKUP_MESSAGES, BACKUP_TABLES, type ImportResult } from "@contract/template-storage";

/** The template-storage backup screen (over spec 2 §7's backup calls). */
export const BACKUP = {
  title: "Template backup",
  intro:
    "One archive of every Word, Visio and drawing template, shape and form, with their files. Importing an archive replaces all of them.",
  exportHeading: "Export",
  exportLink: "Download the backup (.zip)",
  importHeading: "Import",
  fileLabel: "Backup file",
  replaceLabel: "Replace every template, shape and form with the archive's",
  replaceRequired: "Confirm that the import replaces every template.",
  importButton: "Import",
  readOnlyNote: "Importing needs the administration permission.",
  lastImport: "Last import",
  never: "No import since the server started.",
  summary: (r: ImportResult) =>
    `${Object.entries(r.records)
      .map(([table, n]) => `${BACKUP_TABLES[table as keyof typeof BACKUP_TABLES] ?? table}: ${n}`)
      .join(", ")}; ${r.files} ${r.files === 1 ? "file" : "files"}`,
  toasts: { imported: "Import completed", importFailed: "Import failed" },
  validation: BACKUP_MESSAGES,
} as const;
