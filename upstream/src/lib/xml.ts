import { SaxesParser, type SaxesTagPlain } from "saxes";

/**
 * XML from uploaded files, read without stalling the server (docs/decisions/safe-zip-reader.md): parsers are fed a
 * slice of this many characters at a time and the event loop is served between slices (a few ms each, ~50 MB/s).
 */
const XML_SLICE = 256 * 1024;

/** Feeds `text` to `write` a slice at a time, yielding to the event loop between slices. */
export async function inSlices(text: string, write: (slice: string) => void): Promise<void> {
  for (let i = 0; i < text.length; i += XML_SLICE) {
    write(text.slice(i, i + XML_SLICE));
    if (i + XML_SLICE < text.length) await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Not well-formed XML, or more elements than the caller allows. */
export class XmlError extends Error {}

/** XML refused for its size rather than its form: the message names the bound (the caller may show it as is). */
export class XmlLimitError extends XmlError {}

/**
 * The deepest nesting read. Office parts and XFA models nest a few dozen levels; a hostile part nested 500,000 deep
 * held the loop for 1.3 s (4.4 s when left unclosed: saxes reports each unclosed tag) before this bound.
 */
export const MAX_XML_DEPTH = 256;
/** The most elements a check (no tree) reads: a 5 MB model of empty elements has ~1.25 million. */
export const MAX_CHECKED_ELEMENTS = 1_000_000;

export const XML_LIMIT_MESSAGES = {
  depth: (max: number) => `its elements nest more than ${max.toLocaleString("en-US")} deep`,
  elements: (max: number) => `it has more than ${max.toLocaleString("en-US")} elements`,
} as const;

/** An element: its local name and attributes (namespace prefixes dropped), child elements, and its own text. */
export type XmlElement = { name: string; attrs: Record<string, string>; children: XmlElement[]; text: string };

const local = (name: string) => name.slice(name.indexOf(":") + 1);

/**
 * Reads well-formed XML with saxes (a strict SAX parser: mismatched tags, a second root, unquoted attributes and
 * undefined entities are errors), in slices. With `maxElements`, builds the element tree and refuses a document with
 * more elements; without it, only checks (at most `MAX_CHECKED_ELEMENTS`) and answers null. Either way nesting deeper
 * than `MAX_XML_DEPTH` is refused. Entity references a DOCTYPE may declare are let through (saxes does not read DTDs);
 * without a DOCTYPE they are errors. Throws `XmlError` (`XmlLimitError` for a bound). A bound stops the parser at
 * once (the handler throws out of `write`), not at the end of the slice.
 */
export async function readXml(xml: string, maxElements: number): Promise<XmlElement>;
export async function readXml(xml: string): Promise<null>;
export async function readXml(xml: string, maxElements?: number): Promise<XmlElement | null> {
  const parser = new SaxesParser({ xmlns: false, position: false });
  let failure: string | null = null;
  let doctype = false;
  parser.on("doctype", () => (doctype = true));
  parser.on("error", (error) => {
    if (doctype && /undefined entity/.test(error.message)) return;
    failure ??= error.message;
  });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let elements = 0;
  let depth = 0;
  let limit: XmlLimitError | null = null;
  /** Counts an element in and throws (out of `parser.write`) past a bound. */
  const enter = () => {
    if (++depth > MAX_XML_DEPTH) limit = new XmlLimitError(XML_LIMIT_MESSAGES.depth(MAX_XML_DEPTH));
    else if (maxElements === undefined && elements + 1 > MAX_CHECKED_ELEMENTS) {
      limit = new XmlLimitError(XML_LIMIT_MESSAGES.elements(MAX_CHECKED_ELEMENTS));
    }
    if (limit) throw limit;
  };
  parser.on("opentag", (tag: SaxesTagPlain) => {
    enter();
    if (maxElements === undefined) return void elements++;
    if (++elements > maxElements) {
      failure ??= `more than ${maxElements} elements`;
      return;
    }
    const attrs: Record<string, string> = {};
    for (const [name, value] of Object.entries(tag.attributes)) attrs[local(name)] = value;
    const element: XmlElement = { name: local(tag.name), attrs, children: [], text: "" };
    stack.at(-1)?.children.push(element);
    root ??= element;
    stack.push(element);
  });
  parser.on("closetag", () => {
    depth--;
    if (maxElements !== undefined && elements <= maxElements) stack.pop();
  });
  if (maxElements !== undefined) {
    const onText = (text: string) => {
      const current = stack.at(-1);
      if (current) current.text += text;
    };
    parser.on("text", onText);
    parser.on("cdata", onText);
  }
  await inSlices(xml, (slice) => {
    if (failure !== null || limit) return;
    try {
      parser.write(slice);
    } catch (error) {
      if (error !== limit) throw error;
    }
  });
  if (limit) throw limit;
  if (failure === null) parser.close();
  if (failure !== null) throw new XmlError(failure);
  if (maxElements === undefined) return null;
  if (!root) throw new XmlError("no root element");
  return root;
}

/** The children of `element` named `name`. */
export const childrenNamed = (element: XmlElement | null | undefined, name: string): XmlElement[] =>
  element ? element.children.filter((c) => c.name === name) : [];

/** The first child of `element` named `name`. */
export const childNamed = (element: XmlElement | null | undefined, name: string): XmlElement | undefined =>
  element?.children.find((c) => c.name === name);
