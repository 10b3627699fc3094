import { OFFICE_KINDS, type OfficeKind } from "../../contract/templates";
import type { DocProperties } from "../../contract/record-files";
import { badRequest, fieldMessage, HttpError } from "../lib/http";
import type { FileUpload } from "../lib/record-files";
import { XmlLimitError, childNamed, readXml, type XmlElement } from "../lib/xml";
import { ZipError, openZip, type ZipArchive, type ZipLimits } from "../lib/zip";

const MiB = 1024 * 1024;
/**
 * Only [Content_Types].xml and docProps/core.xml are inflated (Visio masters too, for shapes: shapes.ts): tighter than
 * the reader's defaults. Parts are read in slices (lib/xml.ts), so a large one does not stall the server.
 */
const OFFICE_ZIP_LIMITS: Partial<ZipLimits> = { maxEntries: 2_000, maxEntryBytes: 8 * MiB, maxTotalBytes: 32 * MiB };

/** The most elements read from one part: a package has at most 2,000 parts, so [Content_Types].xml ~4,000. */
export const MAX_PART_ELEMENTS = 100_000;

/** An Office package, opened through the one zip reader; a `ZipError` becomes the field's 400/413. */
async function openPackage(field: string, bytes: Buffer, kind: OfficeKind): Promise<ZipArchive> {
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

/** The content types an Office package declares for its parts ([Content_Types].xml's Override and Default). */
async function declaredTypes(xml: string): Promise<string[]> {
  const root = await readXml(xml, MAX_PART_ELEMENTS);
  if (root.name !== "Types") return [];
  return root.children
    .filter((c) => c.name === "Override" || c.name === "Default")
    .map((c) => c.attrs.ContentType)
    .filter((t): t is string => typeof t === "string");
}

/** Title, author and last modification of docProps/core.xml (each null when absent); null when it cannot be read. */
export async function coreProperties(xml: string | null): Promise<DocProperties | null> {
  if (!xml) return null;
  let core: XmlElement;
  try {
    core = await readXml(xml, MAX_PART_ELEMENTS);
  } catch {
    return null;
  }
  if (core.name !== "coreProperties") return null;
  const text = (name: string) => childNamed(core, name)?.text.trim().slice(0, 500) || null;
  const modified = text("modified");
  return {
    title: text("title"),
    author: text("creator"),
    modified: modified && !Number.isNaN(Date.parse(modified)) ? new Date(modified).toISOString() : null,
  };
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
    try {
      await readXml(text);
    } catch (error) {
      // A bound (nesting, element count) is named, so the sender knows what to change.
      if (error instanceof XmlLimitError) throw badRequest(fieldMessage([field], `The file is not a valid ${spec.label}: ${error.message}.`));
      throw wrong();
    }
    return { properties: null, zip: null };
  }
  const zip = await openPackage(field, upload.bytes, kind);
  const types = await readPart(field, zip, "[Content_Types].xml");
  let declared: string[];
  try {
    declared = types ? await declaredTypes(types) : [];
  } catch {
    throw wrong();
  }
  if (!spec.mainPart || !declared.includes(spec.mainPart)) throw wrong();
  return { properties: await coreProperties(await readPart(field, zip, "docProps/core.xml")), zip };
}
