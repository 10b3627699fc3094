import { XMLParser } from "fast-xml-parser";
import { OFFICE_KINDS, type OfficeKind } from "../../contract/templates";
import type { DocProperties } from "../../contract/record-files";
import { badRequest, fieldMessage, HttpError } from "../lib/http";
import type { FileUpload } from "../lib/record-files";
import { ZipError, openZip, type ZipArchive, type ZipLimits } from "../lib/zip";

const MiB = 1024 * 1024;
/**
 * Only [Content_Types].xml and docProps/core.xml are inflated (Visio masters too, for shapes: shapes.ts), all small
 * XML parts parsed on the event loop: tighter than the reader's defaults.
 */
export const OFFICE_ZIP_LIMITS: Partial<ZipLimits> = { maxEntries: 2_000, maxEntryBytes: 8 * MiB, maxTotalBytes: 32 * MiB };

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@_", removeNSPrefix: true, processEntities: false });

/** An Office package, opened through the one zip reader; a `ZipError` becomes the field's 400/413. */
export async function openPackage(field: string, bytes: Buffer, kind: OfficeKind): Promise<ZipArchive> {
  try {
    return await openZip(bytes, { limits: OFFICE_ZIP_LIMITS, subject: "The file", kind: OFFICE_KINDS[kind].label });
  } catch (error) {
    if (error instanceof ZipError) throw new HttpError(error.status, fieldMessage([field], error.message));
    throw error;
  }
}

async function readPart(field: string, zip: ZipArchive, name: string): Promise<string | null> {
  try {
    return await zip.readText(name);
  } catch (error) {
    if (error instanceof ZipError) throw new HttpError(error.status, fieldMessage([field], error.message));
    throw error;
  }
}

type Xml = Record<string, unknown>;
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const textOf = (v: unknown): string | null => {
  if (typeof v === "string") return v.trim() || null;
  if (typeof v === "number") return String(v);
  if (v && typeof v === "object" && "#text" in v) return textOf((v as Xml)["#text"]);
  return null;
};

/** The content types an Office package declares for its parts ([Content_Types].xml's Override and Default). */
function declaredTypes(xml: string): string[] {
  const root = (parser.parse(xml) as Xml).Types as Xml | undefined;
  if (!root) return [];
  return [...asArray(root.Override), ...asArray(root.Default)]
    .map((o) => (o as Xml)["@_ContentType"])
    .filter((t): t is string => typeof t === "string");
}

/** Title, author and last modification of docProps/core.xml (each null when absent). */
export function coreProperties(xml: string | null): DocProperties | null {
  if (!xml) return null;
  try {
    const core = (parser.parse(xml) as Xml).coreProperties as Xml | undefined;
    if (!core) return null;
    const cut = (v: string | null) => (v === null ? null : v.slice(0, 500));
    const modified = textOf(core.modified);
    return {
      title: cut(textOf(core.title)),
      author: cut(textOf(core.creator)),
      modified: modified && !Number.isNaN(Date.parse(modified)) ? new Date(modified).toISOString() : null,
    };
  } catch {
    return null;
  }
}

/**
 * Checks that `upload` is what its kind claims (an Office package whose [Content_Types].xml declares the kind's main
 * part; a PDF starting with %PDF-; well-formed XML) and answers its document properties. Sets the upload's content
 * type to the kind's (the browser's guess is not kept). Throws 400 (413 when too large once inflated) for the field.
 */
export async function checkOfficeFile(
  field: string,
  upload: FileUpload,
  kind: OfficeKind,
): Promise<{ properties: DocProperties | null; zip: ZipArchive | null }> {
  const spec = OFFICE_KINDS[kind];
  const wrong = () => badRequest(fieldMessage([field], `The file is not a valid ${spec.label}.`));
  upload.contentType = spec.contentType;
  if (kind === "pdf") {
    if (!upload.bytes.subarray(0, 5).equals(Buffer.from("%PDF-"))) throw wrong();
    return { properties: null, zip: null };
  }
  if (kind === "xml" || kind === "xfa" || kind === "xfah" || kind === "xfdf") {
    let text = upload.bytes.toString("utf8");
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const { XMLValidator } = await import("fast-xml-parser");
    if (!text.trimStart().startsWith("<") || XMLValidator.validate(text) !== true) throw wrong();
    return { properties: null, zip: null };
  }
  const zip = await openPackage(field, upload.bytes, kind);
  const types = await readPart(field, zip, "[Content_Types].xml");
  let declared: string[];
  try {
    declared = types ? declaredTypes(types) : [];
  } catch {
    throw wrong();
  }
  if (!spec.mainPart || !declared.includes(spec.mainPart)) throw wrong();
  return { properties: coreProperties(await readPart(field, zip, "docProps/core.xml")), zip };
}
