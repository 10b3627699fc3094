import { z } from "zod";

/**
 * Converters (spec 3 §7 "Converters", §5 uploads, §8 files and conversion, §9 OCR polling): office files, PDFs, e-mail
 * messages and scanned pages to text, PDF and images. The upstream runs LibreOffice, poppler and tesseract as bounded
 * child processes (docs/decisions/converters.md); the shapes, bounds and texts are defined here once.
 *
 * - POST /api/converters/office2pdf (multipart `file`: .docx .docm .doc .odt .rtf .pptx .pptm .ppt .odp) → the PDF.
 * - POST /api/converters/office2txt (multipart `file`: .docx .pptx .pptm .pdf .txt .eml) → `ConvertedText`.
 * - POST /api/converters/eml2txt (multipart `file`: .eml) → `ConvertedText`.
 * - POST /api/hub-pdf/convert/toimages (multipart `file`: .pdf) → a zip of `page-001.png`, `page-002.png` …
 * - POST /api/converters/pages?max=N (multipart `file`: .pdf .docx .pptx .pptm .vsdx) → `PageImages` (office files
 *   through LibreOffice first): at most N pages, each a PNG for a vision model.
 * - POST /api/hub-pdf/ocr (multipart `files`: .pdf .png .jpg .jpeg, one or more) → 202 `OcrJob`;
 *   GET /api/hub-pdf/results/{jobId} → 202 with the text body `Accepted` while pending, 200 `OcrResults` when done,
 *   400 `{ message }` when it failed, 404 for a job that is not the caller's.
 * Any signed-in user may convert; a failed conversion is 400 with the §8 text, a busy converter pool 503.
 */

const MB = 1024 * 1024;

/** Bounds of every conversion: checked before the work they guard (upload size, pages, pixels, processes, time). */
export const CONVERTER_LIMITS = {
  /** Largest file a converter takes (each file of an OCR request too). */
  fileBytes: 20 * MB,
  /** Largest OCR request: its files together. */
  ocrBytes: 40 * MB,
  /** Files in one OCR request. */
  ocrFiles: 10,
  /** Pages read as text from a PDF (a thousand-page specification reads; a 2,000-page file is refused). */
  textPages: 1_000,
  /** Pages rendered to images. */
  imagePages: 100,
  /** Pages recognised in one OCR job (all its files). */
  ocrPages: 50,
  /** Longest side of a rendered page, in pixels: 150 dpi on A4 / Letter (images), 300 dpi (OCR). */
  imagePixels: 1_754,
  ocrPixels: 3_508,
  /**
   * Longest side of a page rendered for a vision model (`pages`): ~120 dpi on A4, above what the models read a page at
   * (OpenAI's high detail scales it to 768 px on the short side), and drawn without anti-aliasing, which makes a page
   * of text ~5× smaller as a PNG (55 KB, not 290 KB) so that several fit in a chain's draft.
   */
  attachmentPixels: 1_400,
  /** Characters of text a conversion may answer (about 2,500 pages). */
  textChars: 10_000_000,
  /** Conversions running at once in one server, and waiting for a turn beyond them (then 503). */
  concurrency: 2,
  queue: 16,
  /** Wall-clock time of one converter process (LibreOffice starts in ~3 s of CPU; a page of OCR takes ~3 s). */
  officeMs: 120_000,
  toolMs: 60_000,
  /** Address space of one converter process (prlimit --as): LibreOffice maps ~1 GB before it reads a byte. */
  officeMemoryBytes: 3 * 1024 * MB,
  toolMemoryBytes: 1024 * MB,
  /** How long an ended OCR job's results are kept (read by the browser's polling within minutes), then deleted. */
  ocrResultsMs: 24 * 60 * 60_000,
} as const;

/** What each upload accepts (spec 3 §5), as extensions with their dot. */
export const UPLOAD_ACCEPT = {
  /** "Images" uploads. */
  images: [".png", ".jpeg", ".jpg", ".docx", ".pptx", ".pptm", ".vsdx", ".pdf"],
  /** A text upload, and every field that loads its text from a file. */
  text: [".docx", ".pptx", ".pptm", ".pdf", ".txt", ".eml"],
  /** A chain's context document. */
  contextDocument: [".docx"],
  /** A chain's content files. */
  chainContent: [".docx", ".vsdx", ".png", ".jpeg", ".jpg", ".svg"],
  /** What office2pdf converts. */
  office: [".docx", ".docm", ".doc", ".odt", ".rtf", ".pptx", ".pptm", ".ppt", ".odp"],
  /** What OCR reads. */
  ocr: [".pdf", ".png", ".jpg", ".jpeg"],
  /** What `pages` turns into page images: the "images" uploads that are not images already. */
  pages: [".pdf", ".docx", ".pptx", ".pptm", ".vsdx"],
} as const satisfies Record<string, readonly `.${string}`[]>;

/** The spec's texts (§5, §8) and the few the spec leaves to us. */
export const CONVERTER_MESSAGES = {
  invalidTextFile: "Please upload a valid .docx, .pptx, .pdf, or .txt file.",
  failedTitle: "Failed",
  readTxt: "Failed to read the .txt file.",
  extractOffice: "Failed to extract text from the office file.",
  extractEml: "Failed to extract text from the eml message file.",
  convertOffice: "Failed to convert office file.",
  convertEml: "Failed to convert eml file.",
  convertMany: "Failed to convert one or many files",
  /** Not in the spec: the pool and its queue are full. */
  busy: "The converters are busy. Try again in a minute.",
  /** Not in the spec: upload bounds. */
  required: "A file is required.",
  tooLarge: `The file must be at most ${CONVERTER_LIMITS.fileBytes / MB} MB.`,
  tooManyFiles: `Send at most ${CONVERTER_LIMITS.ocrFiles} files.`,
  notMultipart: "Request body must be multipart/form-data",
  oneFile: "Send exactly one file part named file.",
  jobNotFound: "Job not found.",
  /** Not in the spec: a file with more pages than the caller takes as images. */
  tooManyPages: (max: number) => `The file has more than ${max} ${max === 1 ? "page" : "pages"}: at most ${max} are turned into images.`,
  pending: "Accepted",
} as const;

/** The text of a file (office2txt, eml2txt): what a "load text from a file" field shows for review. */
export const ConvertedText = z.object({
  /** The file's name as sent (path parts dropped). */
  name: z.string(),
  text: z.string(),
  /** Pages (PDF) or slides (presentations) read; null for other kinds. */
  pages: z.number().int().nonnegative().nullable(),
});
export type ConvertedText = z.infer<typeof ConvertedText>;

/** A page of a file as an image (`pages`), named after its file and page: "claims.pdf p. 2". */
export const PageImage = z.object({ name: z.string(), type: z.literal("png"), base64: z.string() });
/** POST /api/converters/pages?max=N (multipart `file`: `UPLOAD_ACCEPT.pages`): the file's pages as PNG images, in order. */
export const PageImages = z.object({ name: z.string(), pages: z.array(PageImage) });
export type PageImages = z.infer<typeof PageImages>;
/** The name of page `page` (1-based) of the file `name`. */
export const pageImageName = (name: string, page: number) => `${name} p. ${page}`;

export const OcrJob = z.object({ jobId: z.string() });
export type OcrJob = z.infer<typeof OcrJob>;

/** One file's recognised text; `txtResults` holds each page's text in order. */
export const OcrResult = z.object({ name: z.string(), pages: z.number().int().nonnegative(), txtResults: z.array(z.string()) });
export const OcrResults = z.array(OcrResult).min(1);
export type OcrResults = z.infer<typeof OcrResults>;

/** How the browser polls an OCR job (spec 3 §9): every 2 s, at most 60 times. */
export const OCR_POLL = { everyMs: 2_000, tries: 60 } as const;

/** The extension of a file name, lower-cased with its dot ("" when none). */
export function extensionOf(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot).toLowerCase() : "";
}

/** Whether `name` is one of `accepted` (by its extension). */
export const accepts = (accepted: readonly string[], name: string): boolean => accepted.includes(extensionOf(name));
