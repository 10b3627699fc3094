import { Parser, type Handler } from "htmlparser2";
import { inSlices } from "../lib/xml";
import { ZipError, openZip, type ZipArchive, type ZipLimits } from "../lib/zip";

/** A document the generator cannot read: answered with `status` (400, or 413 when too large once inflated) and this message. */
export class DocumentError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 413 = 400,
  ) {
    super(message);
    this.name = "DocumentError";
  }
}

const MiB = 1024 * 1024;
/**
 * The zip limits of a .docx, tighter than the reader's defaults: every part read is held as one string and parsed (in
 * slices, see `parseXml`). A 50-page document's word/document.xml is about 0.1–0.5 MB; 10 MB is well over a thousand
 * pages.
 */
const DOCX_ZIP_LIMITS: Partial<ZipLimits> = { maxEntries: 2_000, maxEntryBytes: 10 * MiB, maxTotalBytes: 20 * MiB };

export const DOCUMENT_MESSAGES = {
  notDocx: "The document is not a Word .docx file.",
  corrupt: "The document could not be read: the .docx file is damaged.",
  noBody: "The document could not be read: it has no word/document.xml part.",
  badBase64: "The document content must be base64.",
  tooLarge: "The document is larger than 10 MB.",
  tooManyParagraphs: "The document has more than 100,000 paragraphs.",
  noClaims:
    'No claims were found in the document. Claims are numbered paragraphs after a "Claims" or "What is claimed is" heading.',
} as const;

/** One paragraph of the body, in document order. */
export type DocParagraph = {
  text: string;
  /** Paragraph style id (e.g. "Heading1", "ListParagraph"), or "". */
  style: string;
  /** 1–9 for Heading1..9, 0 for Title, null for body text. */
  headingLevel: number | null;
  /** True when Word numbers it automatically (w:numPr, directly or through its style). */
  numbered: boolean;
  /** The list level (w:ilvl, 0 = top) of a numbered paragraph, else null. */
  numberLevel: number | null;
};

export type ParsedDocx = { title: string; paragraphs: DocParagraph[] };

/** The most paragraphs a document may have: a thousand-page specification has ~20,000. */
export const MAX_PARAGRAPHS = 100_000;

/**
 * Streams `xml` through htmlparser2's XML mode (a SAX parser: ~50 MB/s, where building fast-xml-parser's tree of a
 * hostile 10 MB part took 2 s in one go), a slice at a time (`inSlices`), so that no part stalls the server however
 * it is made. Lenient (WordprocessingML is read as far as it goes); the templates' strict reader is lib/xml.ts.
 */
async function parseXml(xml: string, handler: Partial<Handler>): Promise<void> {
  const parser = new Parser(handler, { xmlMode: true, decodeEntities: true });
  await inSlices(xml, (slice) => parser.write(slice));
  parser.end();
}

function headingLevel(style: string, outlineLevel: string | undefined): number | null {
  if (/^title$/i.test(style)) return 0;
  const m = /^heading\s*([1-9])$/i.exec(style);
  if (m) return Number(m[1]);
  if (outlineLevel !== undefined && /^[0-8]$/.test(outlineLevel)) return Number(outlineLevel) + 1;
  return null;
}

type Styles = Map<string, { name: string; numbered: boolean; outline?: string }>;

/** The paragraph styles of word/styles.xml: `w:styles/w:style`, its first `w:name` and first `w:pPr`. */
async function readStyles(xml: string | null): Promise<Styles> {
  const styles: Styles = new Map();
  if (!xml) return styles;
  const stack: string[] = [];
  let done = false;
  type OpenStyle = { id?: string; name?: string; numbered: boolean; outline?: string; pPr: "before" | "in" | "after"; seen: Set<string> };
  let style: OpenStyle | null = null;
  await parseXml(xml, {
    onopentag(name, attrs) {
      const depth = stack.push(name);
      if (done) return;
      if (depth === 2 && name === "w:style" && stack[0] === "w:styles") {
        style = { id: attrs["w:styleId"], numbered: false, pPr: "before", seen: new Set() };
      } else if (style && depth === 3) {
        if (name === "w:name" && firstOf(style.seen, name)) style.name = attrs["w:val"];
        else if (name === "w:pPr" && style.pPr === "before") style.pPr = "in";
      } else if (style && depth === 4 && style.pPr === "in") {
        if (name === "w:numPr") style.numbered = true;
        else if (name === "w:outlineLvl" && firstOf(style.seen, name)) style.outline = attrs["w:val"];
      }
    },
    onclosetag(name) {
      const depth = stack.length;
      stack.pop();
      if (done) return;
      if (depth === 1 && name === "w:styles") done = true;
      else if (style && depth === 3 && name === "w:pPr" && style.pPr === "in") style.pPr = "after";
      else if (style && depth === 2) {
        if (style.id) styles.set(style.id, { name: style.name ?? style.id, numbered: style.numbered, outline: style.outline });
        style = null;
      }
    },
  });
  return styles;
}

/** Whether `key` is seen for the first time (then it is remembered). */
function firstOf(seen: Set<string>, key: string): boolean {
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}

/** Containers whose paragraphs are the body's too (tables, content controls), in document order. */
const CONTAINERS = new Set(["w:tbl", "w:tr", "w:tc", "w:sdt", "w:sdtContent"]);
/** Inside a paragraph, subtrees whose text is not the paragraph's visible text. */
const NOT_TEXT = new Set(["w:del", "w:pPr", "w:rPr", "w:instrText"]);
const MARKS: Record<string, string> = { "w:tab": "\t", "w:br": "\n", "w:cr": "\n", "w:noBreakHyphen": "-" };

type OpenParagraph = {
  depth: number;
  text: string[];
  /** Depth of the subtree whose text is skipped, or 0. */
  skip: number;
  pPr: "before" | "in" | "after";
  styleId?: string;
  outline?: string;
  numPr: "none" | "in" | "after";
  numId?: string;
  ilvl?: string;
  /** The properties already read (the first of each counts). */
  seen: Set<string>;
};

function paragraphOf(p: OpenParagraph, styles: Styles): DocParagraph {
  const style = styles.get(p.styleId ?? "");
  // numId 0 switches numbering off for this paragraph.
  const numbered = p.numPr !== "none" ? p.numId !== "0" : !!style?.numbered;
  const level = p.ilvl !== undefined ? Number(p.ilvl) : 0;
  const styleId = p.styleId ?? "";
  return {
    text: p.text.join("").replace(/\u00a0/g, " "),
    style: styleId,
    headingLevel: headingLevel(styleId, p.outline) ?? (style ? headingLevel(style.name.replace(/\s+/g, ""), style.outline) : null),
    numbered,
    numberLevel: numbered ? (Number.isInteger(level) ? level : 0) : null,
  };
}

/**
 * The body's paragraphs (`w:document/w:body`, tables and content controls included, in order): each one's style, its
 * outline level and numbering (`w:pPr`), and its visible text (`w:t`, tabs, breaks, also inside hyperlinks,
 * insertions, smart tags, fields and text boxes; not deletions or field codes). Null when there is no body.
 */
async function readBody(xml: string, styles: Styles): Promise<DocParagraph[] | null> {
  const out: DocParagraph[] = [];
  /**
   * The open elements. `zone`: "document" for the (first) w:document, "collect" for the (first) w:body in it and the
   * containers under it, whose w:p children are the body's paragraphs; "none" for everything else.
   */
  const stack: { name: string; zone: "document" | "collect" | "none" }[] = [];
  let seenDocument = false;
  let seenBody = false;
  let p: OpenParagraph | null = null;
  await parseXml(xml, {
    onopentag(name, attrs) {
      const parent = stack[stack.length - 1];
      const depth = stack.push({ name, zone: "none" });
      if (p) {
        // Its properties: the first w:pPr child, there the first w:pStyle, w:outlineLvl and w:numPr (w:numId, w:ilvl).
        const at = depth - p.depth;
        if (at === 1 && name === "w:pPr" && p.pPr === "before") p.pPr = "in";
        else if (at === 2 && p.pPr === "in") {
          if (name === "w:pStyle" && firstOf(p.seen, name)) p.styleId = attrs["w:val"] ?? "";
          else if (name === "w:outlineLvl" && firstOf(p.seen, name)) p.outline = attrs["w:val"];
          else if (name === "w:numPr" && p.numPr === "none") p.numPr = "in";
        } else if (at === 3 && p.numPr === "in" && parent!.name === "w:numPr") {
          if (name === "w:numId" && firstOf(p.seen, name)) p.numId = attrs["w:val"];
          else if (name === "w:ilvl" && firstOf(p.seen, name)) p.ilvl = attrs["w:val"];
        }
        if (p.skip) return;
        if (NOT_TEXT.has(name)) p.skip = depth;
        else if (MARKS[name] !== undefined && parent!.name !== "w:t") p.text.push(MARKS[name]!);
        return;
      }
      if (!parent && name === "w:document" && !seenDocument) [seenDocument, stack[0]!.zone] = [true, "document"];
      else if (parent?.zone === "document" && name === "w:body" && !seenBody) [seenBody, stack[depth - 1]!.zone] = [true, "collect"];
      else if (parent?.zone === "collect") {
        if (name === "w:p") p = { depth, text: [], skip: 0, pPr: "before", numPr: "none", seen: new Set() };
        else if (CONTAINERS.has(name)) stack[depth - 1]!.zone = "collect";
      }
    },
    ontext(text) {
      if (p && !p.skip && stack[stack.length - 1]!.name === "w:t") p.text.push(text);
    },
    onclosetag(name) {
      const depth = stack.length;
      stack.pop();
      if (!p) return;
      if (p.skip === depth) p.skip = 0;
      if (depth === p.depth + 1 && name === "w:pPr" && p.pPr === "in") p.pPr = "after";
      else if (depth === p.depth + 2 && name === "w:numPr" && p.numPr === "in" && p.pPr === "in") p.numPr = "after";
      else if (depth === p.depth) {
        if (out.length >= MAX_PARAGRAPHS) throw new DocumentError(DOCUMENT_MESSAGES.tooManyParagraphs, 413);
        out.push(paragraphOf(p, styles));
        p = null;
      }
    },
  });
  return seenBody ? out : null;
}

function coreTitle(xml: string | null): string {
  if (!xml) return "";
  const m = /<dc:title>([\s\S]*?)<\/dc:title>/.exec(xml);
  return m?.[1] ? m[1].replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&").trim() : "";
}

/** Decodes base64 (standard or URL-safe, data: URL prefix allowed); DocumentError when it is not base64. */
export function decodeBase64(content: string, maxBytes: number): Buffer {
  const body = content.replace(/^data:[^,]*,/, "").replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(body) || body.length === 0) throw new DocumentError(DOCUMENT_MESSAGES.badBase64);
  if (Math.floor((body.length * 3) / 4) > maxBytes + 3) throw new DocumentError(DOCUMENT_MESSAGES.tooLarge);
  return Buffer.from(body, body.includes("-") || body.includes("_") ? "base64url" : "base64");
}

/** Reads the body paragraphs (tables included, in order) and the title of a .docx. */
export async function readDocx(bytes: Uint8Array): Promise<ParsedDocx> {
  // A .docx is a zip: it starts with "PK\x03\x04".
  if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b || bytes[2] !== 0x03 || bytes[3] !== 0x04) {
    throw new DocumentError(DOCUMENT_MESSAGES.notDocx);
  }
  // Through the one zip reader: inflate limits, streaming, only the parts named here are inflated.
  const asDocumentError = (error: unknown): never => {
    if (error instanceof ZipError) {
      throw new DocumentError(error.status === 413 ? error.message : DOCUMENT_MESSAGES.corrupt, error.status);
    }
    throw error;
  };
  const zip: ZipArchive = await openZip(bytes, {
    limits: DOCX_ZIP_LIMITS,
    subject: "The document",
    kind: ".docx document",
  }).catch(asDocumentError);
  const read = (name: string): Promise<string | null> => zip.readText(name).catch(asDocumentError);
  const documentXml = await read("word/document.xml");
  if (documentXml === null) {
    throw new DocumentError(zip.has("[Content_Types].xml") ? DOCUMENT_MESSAGES.noBody : DOCUMENT_MESSAGES.notDocx);
  }
  let paragraphs: DocParagraph[] | null;
  try {
    paragraphs = await readBody(documentXml, await readStyles(await read("word/styles.xml")));
  } catch (error) {
    if (error instanceof DocumentError) throw error;
    throw new DocumentError(DOCUMENT_MESSAGES.corrupt);
  }
  if (!paragraphs) throw new DocumentError(DOCUMENT_MESSAGES.noBody);
  let title = coreTitle(await read("docProps/core.xml"));
  if (!title) title = paragraphs.find((p) => p.headingLevel === 0 && p.text.trim())?.text.trim() ?? "";
  if (!title) title = paragraphs.find((p) => p.text.trim())?.text.trim() ?? "";
  return { title, paragraphs };
}
