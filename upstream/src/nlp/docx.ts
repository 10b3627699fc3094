import { XMLParser } from "fast-xml-parser";
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
 * The zip limits of a .docx, tighter than the reader's defaults because every part read is then parsed as XML on the
 * event loop (about 0.2 s per MB in the worst case). A 50-page document's word/document.xml is about 0.1–0.5 MB; 10 MB
 * is well over a thousand pages.
 */
export const DOCX_ZIP_LIMITS: Partial<ZipLimits> = { maxEntries: 2_000, maxEntryBytes: 10 * MiB, maxTotalBytes: 20 * MiB };

export const DOCUMENT_MESSAGES = {
  notDocx: "The document is not a Word .docx file.",
  corrupt: "The document could not be read: the .docx file is damaged.",
  noBody: "The document could not be read: it has no word/document.xml part.",
  badBase64: "The document content must be base64.",
  tooLarge: "The document is larger than 10 MB.",
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

type Node = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  trimValues: false,
  parseTagValue: false,
  processEntities: true,
});

/** The element name of a preserveOrder node (the key that is not ":@" or "#text"). */
function tagOf(node: Node): string | null {
  for (const key of Object.keys(node)) if (key !== ":@") return key;
  return null;
}
const childrenOf = (node: Node, tag: string): Node[] => (Array.isArray(node[tag]) ? (node[tag] as Node[]) : []);
const attrsOf = (node: Node): Record<string, string> => (node[":@"] as Record<string, string> | undefined) ?? {};

function find(nodes: Node[], tag: string): Node | undefined {
  return nodes.find((n) => tagOf(n) === tag);
}

/** The visible text of runs (w:t, tabs, breaks), also inside hyperlinks, insertions, smart tags and fields. */
function textOf(nodes: Node[], out: string[]): void {
  for (const node of nodes) {
    const tag = tagOf(node);
    if (!tag) continue;
    if (tag === "w:t") {
      for (const t of childrenOf(node, tag)) if (typeof t["#text"] === "string") out.push(t["#text"]);
      else if (typeof t["#text"] === "number") out.push(String(t["#text"]));
    } else if (tag === "w:tab") out.push("\t");
    else if (tag === "w:br" || tag === "w:cr") out.push("\n");
    else if (tag === "w:noBreakHyphen") out.push("-");
    else if (tag === "w:del" || tag === "w:pPr" || tag === "w:rPr" || tag === "w:instrText") continue;
    else if (tag !== "#text") textOf(childrenOf(node, tag), out);
  }
}

function headingLevel(style: string, outlineLevel: string | undefined): number | null {
  if (/^title$/i.test(style)) return 0;
  const m = /^heading\s*([1-9])$/i.exec(style);
  if (m) return Number(m[1]);
  if (outlineLevel !== undefined && /^[0-8]$/.test(outlineLevel)) return Number(outlineLevel) + 1;
  return null;
}

type Styles = Map<string, { name: string; numbered: boolean; outline?: string }>;

function readStyles(xml: string | null): Styles {
  const styles: Styles = new Map();
  if (!xml) return styles;
  const root = parser.parse(xml) as Node[];
  const stylesNode = find(root, "w:styles");
  for (const s of stylesNode ? childrenOf(stylesNode, "w:styles") : []) {
    if (tagOf(s) !== "w:style") continue;
    const id = attrsOf(s)["w:styleId"];
    if (!id) continue;
    const kids = childrenOf(s, "w:style");
    const nameNode = find(kids, "w:name");
    const pPr = find(kids, "w:pPr");
    const pKids = pPr ? childrenOf(pPr, "w:pPr") : [];
    const outline = find(pKids, "w:outlineLvl");
    styles.set(id, {
      name: (nameNode ? attrsOf(nameNode)["w:val"] : undefined) ?? id,
      numbered: !!find(pKids, "w:numPr"),
      outline: outline ? attrsOf(outline)["w:val"] : undefined,
    });
  }
  return styles;
}

function paragraphOf(p: Node, styles: Styles): DocParagraph {
  const kids = childrenOf(p, "w:p");
  const pPr = find(kids, "w:pPr");
  const pKids = pPr ? childrenOf(pPr, "w:pPr") : [];
  const styleNode = find(pKids, "w:pStyle");
  const styleId = styleNode ? (attrsOf(styleNode)["w:val"] ?? "") : "";
  const style = styles.get(styleId);
  const outline = find(pKids, "w:outlineLvl");
  const out: string[] = [];
  textOf(kids, out);
  const numPr = find(pKids, "w:numPr");
  const numId = numPr ? find(childrenOf(numPr, "w:numPr"), "w:numId") : undefined;
  // numId 0 switches numbering off for this paragraph.
  const numbered = numPr ? (numId ? attrsOf(numId)["w:val"] !== "0" : true) : !!style?.numbered;
  const ilvl = numPr ? find(childrenOf(numPr, "w:numPr"), "w:ilvl") : undefined;
  const level = ilvl ? Number(attrsOf(ilvl)["w:val"]) : 0;
  return {
    text: out.join("").replace(/\u00a0/g, " "),
    style: styleId,
    headingLevel:
      headingLevel(styleId, outline ? attrsOf(outline)["w:val"] : undefined) ??
      (style ? headingLevel(style.name.replace(/\s+/g, ""), style.outline) : null),
    numbered,
    numberLevel: numbered ? (Number.isInteger(level) ? level : 0) : null,
  };
}

function collectParagraphs(nodes: Node[], styles: Styles, out: DocParagraph[]): void {
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === "w:p") out.push(paragraphOf(node, styles));
    else if (tag === "w:tbl" || tag === "w:tr" || tag === "w:tc" || tag === "w:sdt" || tag === "w:sdtContent") {
      collectParagraphs(childrenOf(node, tag), styles, out);
    }
  }
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
  let root: Node[];
  let styles: Styles;
  try {
    styles = readStyles(await read("word/styles.xml"));
    root = parser.parse(documentXml) as Node[];
  } catch (error) {
    if (error instanceof DocumentError) throw error;
    throw new DocumentError(DOCUMENT_MESSAGES.corrupt);
  }
  const doc = find(root, "w:document");
  const body = doc ? find(childrenOf(doc, "w:document"), "w:body") : undefined;
  if (!body) throw new DocumentError(DOCUMENT_MESSAGES.noBody);
  const paragraphs: DocParagraph[] = [];
  collectParagraphs(childrenOf(body, "w:body"), styles, paragraphs);
  let title = coreTitle(await read("docProps/core.xml"));
  if (!title) title = paragraphs.find((p) => p.headingLevel === 0 && p.text.trim())?.text.trim() ?? "";
  if (!title) title = paragraphs.find((p) => p.text.trim())?.text.trim() ?? "";
  return { title, paragraphs };
}
