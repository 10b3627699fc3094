import { childNamed, childrenNamed, readXml, type XmlElement } from "../lib/xml";
import { openZip, type ZipArchive, type ZipLimits } from "../lib/zip";

/** An input refused before any converter sees it: `message` says why (for logs; users get the §8 text). */
export class InputRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InputRefused";
  }
}

/** A PDF with more pages than the caller takes (`max`): refused before any page is rendered. */
export class TooManyPages extends InputRefused {
  constructor(
    readonly pages: number,
    readonly max: number,
  ) {
    super(`the PDF has ${pages} pages (at most ${max})`);
    this.name = "TooManyPages";
  }
}

const MiB = 1024 * 1024;
/**
 * Office packages as converters take them: the zip reader's defaults (2,000 parts, 50 MB a part, 100 MB in all,
 * ratio 100 past 1 MB) with at most 1,000 parts; a 200-slide deck has ~800.
 */
const OFFICE_PACKAGE_LIMITS: Partial<ZipLimits> = { maxEntries: 1_000, maxEntryBytes: 50 * MiB, maxTotalBytes: 100 * MiB };
/** Elements of one slide read into a tree (a busy slide has a few thousand). */
const MAX_SLIDE_ELEMENTS = 200_000;
/** Slides read as text. */
const MAX_SLIDES = 2_000;

const isZip = (bytes: Uint8Array) => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/**
 * Whether an XML part declares a DOCTYPE before its root element. Office Open XML and OpenDocument parts never do; a
 * DOCTYPE is how entity expansion ("billion laughs") gets in, so a part with one is refused rather than parsed by
 * any reader, ours or LibreOffice's.
 */
export function declaresDoctype(xml: string): boolean {
  // The prolog ends at the first start tag: `<` followed by a name character.
  const root = xml.search(/<[A-Za-z_:]/);
  const prolog = root < 0 ? xml : xml.slice(0, root);
  return /<!DOCTYPE|<!ENTITY/i.test(prolog);
}

/**
 * Checks a zip-based office file before anything reads it: the package inflates within the limits (every part is
 * inflated through the safe zip reader and counted: a zip bomb stops at the bound) and no XML part declares a DOCTYPE.
 * Throws `InputRefused` (or the reader's `ZipError`). Files that are not zips (.doc, .rtf, .ppt) pass untouched: they
 * reach only LibreOffice, under its time and memory limits.
 */
export async function inspectPackage(bytes: Uint8Array): Promise<ZipArchive | null> {
  if (!isZip(bytes)) return null;
  const zip = await openZip(bytes, { limits: OFFICE_PACKAGE_LIMITS, subject: "The file", kind: "office file" });
  for (const name of zip.names) {
    if (!/\.(xml|rels|vml)$/i.test(name)) {
      await zip.read(name); // counted against the limits all the same
      continue;
    }
    const text = await zip.readText(name);
    if (text !== null && declaresDoctype(text)) throw new InputRefused(`${name} declares a DOCTYPE`);
  }
  return zip;
}

const RELATIONSHIP_NS_ID = "id";

/** Resolves a relationship target (relative to `ppt/`) to an entry name. */
function resolveTarget(target: string): string {
  const parts = (target.startsWith("/") ? target.slice(1) : `ppt/${target}`).split("/");
  const out: string[] = [];
  for (const part of parts) {
    if (part === "..") out.pop();
    else if (part && part !== ".") out.push(part);
  }
  return out.join("/");
}

/** The text of a slide: each paragraph (`a:p`) on its own line, runs and fields joined, tables and groups included. */
function slideText(root: XmlElement): string {
  const lines: string[] = [];
  const walk = (element: XmlElement) => {
    if (element.name === "p") {
      let line = "";
      const collect = (e: XmlElement) => {
        if (e.name === "t") line += e.text;
        else if (e.name === "br") line += "\n";
        else for (const child of e.children) collect(child);
      };
      collect(element);
      if (line.trim()) lines.push(line.trim());
      return;
    }
    for (const child of element.children) walk(child);
  };
  walk(root);
  return lines.join("\n");
}

/**
 * The slides' text of a .pptx / .pptm, in presentation order (ppt/presentation.xml's slide list through its
 * relationships), each slide's XML read by the strict reader with an element bound. `zip` must have passed
 * `inspectPackage`.
 */
export async function readSlides(zip: ZipArchive): Promise<string[]> {
  const presentationXml = await zip.readText("ppt/presentation.xml");
  const relsXml = await zip.readText("ppt/_rels/presentation.xml.rels");
  if (presentationXml === null || relsXml === null) throw new InputRefused("not a presentation: no ppt/presentation.xml");
  const presentation = await readXml(presentationXml, MAX_SLIDE_ELEMENTS);
  const rels = await readXml(relsXml, MAX_SLIDE_ELEMENTS);
  const targets = new Map<string, string>();
  for (const rel of childrenNamed(rels, "Relationship")) {
    if (rel.attrs.Id && rel.attrs.Target && rel.attrs.TargetMode !== "External") targets.set(rel.attrs.Id, rel.attrs.Target);
  }
  const ids = childrenNamed(childNamed(presentation, "sldIdLst"), "sldId");
  if (ids.length > MAX_SLIDES) throw new InputRefused(`more than ${MAX_SLIDES} slides`);
  const slides: string[] = [];
  for (const id of ids) {
    const target = targets.get(id.attrs[RELATIONSHIP_NS_ID] ?? "");
    if (!target) continue;
    const xml = await zip.readText(resolveTarget(target));
    if (xml === null) continue;
    slides.push(slideText(await readXml(xml, MAX_SLIDE_ELEMENTS)));
  }
  if (slides.length) return slides;
  // The strict reader drops prefixes, so a slide id's `r:id` and `id` share a name; when that hides the order, the
  // slide parts' numbers give it.
  const numbered = zip.names
    .map((name) => ({ name, n: Number(/^ppt\/slides\/slide(\d+)\.xml$/.exec(name)?.[1] ?? NaN) }))
    .filter((s) => Number.isFinite(s.n))
    .sort((a, b) => a.n - b.n);
  if (numbered.length > MAX_SLIDES) throw new InputRefused(`more than ${MAX_SLIDES} slides`);
  for (const { name } of numbered) {
    const xml = await zip.readText(name);
    if (xml !== null) slides.push(slideText(await readXml(xml, MAX_SLIDE_ELEMENTS)));
  }
  return slides;
}
