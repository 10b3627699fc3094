import { z } from "zod";

/**
 * Document properties read from an Office package's docProps/core.xml (dc:title, dc:creator, dcterms:modified),
 * each null when absent. PDFs and XML files have none (null).
 */
export const DocProperties = z.object({
  title: z.string().nullable(),
  author: z.string().nullable(),
  modified: z.string().nullable(),
});
export type DocProperties = z.infer<typeof DocProperties>;

/**
 * A file kept with a record (resource kit, `definition.files`): what was uploaded, as answered by the API. The bytes
 * are at `url` (the record's `GET .../files/{field}`), served back byte for byte with this name and content type.
 */
export const RecordFile = z.object({
  name: z.string(),
  size: z.number().int().nonnegative(),
  contentType: z.string(),
  sha256: z.string(),
  uploadedAt: z.string(),
  url: z.string(),
  properties: DocProperties.nullable(),
});
export type RecordFile = z.infer<typeof RecordFile>;

/** Messages of the kit's file parts (the 400/413 of a multipart create or patch). */
export const RECORD_FILE_MESSAGES = {
  notFound: "File not found.",
  badData: "The data part must be JSON.",
  unknownPart: (name: string) => `Unexpected part ${name}.`,
  oneFile: (label: string) => `Send one ${label} file at most.`,
  tooLarge: (label: string, maxBytes: number) =>
    `${label} must be at most ${Math.round((maxBytes / 1024 / 1024) * 10) / 10} MB.`,
  empty: (label: string) => `${label} is empty.`,
} as const;
