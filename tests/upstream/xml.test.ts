import { describe, expect, it } from "vitest";
import { XmlError, readXml } from "../../upstream/src/lib/xml";
import { MAX_PART_ELEMENTS, checkOfficeFile, coreProperties } from "../../upstream/src/templates/office";
import { masterSvg } from "../../upstream/src/templates/shapes";
import { watchEventLoop } from "../helpers/event-loop";
import { MAIN_TYPES, officePackage } from "../fixtures/office";

/**
 * The strict XML reader of uploaded templates and form files (upstream/src/lib/xml.ts): well-formedness as XML
 * defines it, the element tree the templates read, the element bound, and no stall of the event loop on a large part.
 */
describe("readXml", () => {
  it("builds the tree: local names, attributes without prefixes, text decoded", async () => {
    const root = await readXml(
      `<?xml version="1.0"?><m:Masters xmlns:m="urn:m" xmlns:r="urn:r"><m:Master ID="1" NameU="Box"><m:Rel r:id="rId1"/></m:Master>` +
        `<m:Master ID="2"><![CDATA[a < b]]> &amp; c</m:Master></m:Masters>`,
      100,
    );
    expect(root.name).toBe("Masters");
    expect(root.children.map((c) => [c.name, c.attrs.ID])).toEqual([["Master", "1"], ["Master", "2"]]);
    expect(root.children[0]!.children[0]).toMatchObject({ name: "Rel", attrs: { id: "rId1" } });
    expect(root.children[1]!.text).toBe("a < b & c");
  });

  it.each([
    ["a mismatched close tag", "<a><b></a>"],
    ["two roots", "<a/><b/>"],
    ["an unquoted attribute", "<a x=1/>"],
    ["an entity XML does not define", "<a>&nbsp;</a>"],
    ["no element at all", "  "],
    ["text cut short", "<a><b>x</b>"],
  ])("refuses %s", async (_what, xml) => {
    await expect(readXml(xml)).rejects.toBeInstanceOf(XmlError);
    await expect(readXml(xml, 100)).rejects.toBeInstanceOf(XmlError);
  });

  it("lets through the entities a DOCTYPE may declare (saxes does not read DTDs)", async () => {
    await expect(readXml(`<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>`)).resolves.toBeNull();
  });

  it("refuses more elements than allowed, and stops reading there", async () => {
    await expect(readXml(`<a>${"<b/>".repeat(10)}</a>`, 11)).resolves.toMatchObject({ name: "a" });
    await expect(readXml(`<a>${"<b/>".repeat(10)}</a>`, 10)).rejects.toThrow("more than 10 elements");
    // A hostile part stops at the bound: no tree of a million elements is built.
    const { result, ticks } = await watchEventLoop(() => readXml(`<a>${"<b/>".repeat(1_000_000)}</a>`, MAX_PART_ELEMENTS).catch((e: Error) => e));
    expect(result).toBeInstanceOf(XmlError);
    expect(ticks).toBeLessThan(100);
  });

  it("an 8 MB part: the event loop keeps turning while it is read", async () => {
    const xml = `<a>${"<b x='1'>t</b>".repeat(Math.floor((8 * 1024 * 1024) / 16))}</a>`;
    // fast-xml-parser took ~2.5 s over this in one go.
    const checked = await watchEventLoop(() => readXml(xml));
    expect(checked.ticks).toBeGreaterThan(10);
    expect(checked.longest).toBeLessThan(500);
  });
});

describe("office parts through readXml", () => {
  it("reads docProps/core.xml; a damaged one gives no properties", async () => {
    const core = `<cp:coreProperties xmlns:cp="urn:cp" xmlns:dc="urn:dc" xmlns:dcterms="urn:dcterms"><dc:title> Letter &amp; Co </dc:title><dc:creator>Ann</dc:creator><dcterms:modified>2024-03-01T10:00:00Z</dcterms:modified></cp:coreProperties>`;
    expect(await coreProperties(core)).toEqual({ title: "Letter & Co", author: "Ann", modified: "2024-03-01T10:00:00.000Z" });
    expect(await coreProperties(core.replace("</dc:creator>", ""))).toBeNull();
    expect(await coreProperties(null)).toBeNull();
  });

  it("refuses a package whose [Content_Types].xml is not well-formed, and XML form files that are not", async () => {
    const broken = await officePackage("dotx", { extra: { "[Content_Types].xml": `<Types><Override PartName="/word/document.xml" ContentType="${MAIN_TYPES.dotx}"/>` } });
    const upload = (name: string, bytes: Buffer) => ({ name, bytes, contentType: "application/octet-stream" });
    await expect(checkOfficeFile("fileTemplate", upload("a.dotx", broken), "dotx")).rejects.toMatchObject({ status: 400 });
    const good = await officePackage("dotx");
    await expect(checkOfficeFile("fileTemplate", upload("a.dotx", good), "dotx")).resolves.toMatchObject({ properties: null });
    await expect(checkOfficeFile("formFile", upload("a.xfdf", Buffer.from("<xfdf><fields></xfdf>")), "xfdf")).rejects.toMatchObject({ status: 400 });
    await expect(checkOfficeFile("formFile", upload("a.xfdf", Buffer.from("\ufeff<xfdf><fields/></xfdf>")), "xfdf")).resolves.toBeTruthy();
  });

  it("a master that cannot be read is drawn as the dashed box", async () => {
    expect(await masterSvg("<MasterContents><Shapes>")).toContain("stroke-dasharray");
  });
});
