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

/** An element: its local name and attributes (namespace prefixes dropped), child elements, and its own text. */
export type XmlElement = { name: string; attrs: Record<string, string>; children: XmlElement[]; text: string };

const local = (name: string) => name.slice(name.indexOf(":") + 1);

/**
 * Reads well-formed XML with saxes (a strict SAX parser: mismatched tags, a second root, unquoted attributes and
 * undefined entities are errors), in slices. With `maxElements`, builds the element tree and refuses a document with
 * more elements; without it, only checks and answers null. Entity references a DOCTYPE may declare are let through
 * (saxes does not read DTDs); without a DOCTYPE they are errors. Throws `XmlError`.
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
  if (maxElements !== undefined) {
    parser.on("opentag", (tag: SaxesTagPlain) => {
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
      if (elements <= maxElements) stack.pop();
    });
    const onText = (text: string) => {
      const current = stack.at(-1);
      if (current) current.text += text;
    };
    parser.on("text", onText);
    parser.on("cdata", onText);
  }
  await inSlices(xml, (slice) => {
    if (failure === null) parser.write(slice);
  });
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
