import { describe, expect, it } from "vitest";
import { DOCUMENT_MESSAGES, MAX_PARAGRAPHS, readDocx } from "../../upstream/src/nlp/docx";
import { entry, writeZip } from "../helpers/zip";
import { watchEventLoop } from "../helpers/event-loop";

/**
 * upstream/src/nlp/docx.ts reads WordprocessingML with a SAX parser in slices. These cases pin what it reads from each
 * construct Word writes (styles, numbering, runs, deletions, fields, text boxes, tables, content controls) and check
 * that a hostile part neither stalls the event loop nor fills memory.
 */
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const docx = (document: string, parts: Record<string, string> = {}, method: 0 | 8 = 8) =>
  writeZip([
    entry("[Content_Types].xml", "<Types/>"),
    entry("word/document.xml", document, method),
    ...Object.entries(parts).map(([n, c]) => entry(n, c)),
  ]);

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles ${W}><w:docDefaults><w:pPr><w:numPr/></w:pPr></w:docDefaults>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="ClaimList"><w:name w:val="Claim List"/><w:pPr><w:numPr><w:numId w:val="3"/></w:numPr></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Weird"><w:name/><w:pPr><w:outlineLvl w:val="2"/><w:outlineLvl w:val="5"/></w:pPr><w:pPr><w:numPr/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="MyHeading"><w:name w:val="My  Heading"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>
<w:style w:type="paragraph"><w:name w:val="no id"/></w:style>
<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style>
</w:styles>`;

const BODY = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document ${W}><w:background/><w:body>
<w:p><w:pPr><w:pStyle w:val="Title"/></w:pPr><w:r><w:t>Fish &amp; chips &lt;3 &#x41;</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="Heading1"/><w:rPr><w:b/></w:rPr></w:pPr><w:r><w:rPr><w:t>hidden</w:t></w:rPr><w:t xml:space="preserve">Claims </w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="ClaimList"/></w:pPr><w:r><w:t>A widget</w:t><w:tab/><w:t>with</w:t><w:br/><w:t>a</w:t><w:noBreakHyphen/><w:t>b\u00a0c</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="ClaimList"/><w:numPr><w:ilvl w:val="1"/><w:numId w:val="0"/></w:numPr></w:pPr><w:r><w:t>not numbered</w:t></w:r></w:p>
<w:p><w:pPr><w:numPr><w:ilvl w:val="2"/><w:numId w:val="4"/><w:ilvl w:val="5"/></w:numPr><w:numPr><w:ilvl w:val="7"/></w:numPr></w:pPr><w:r><w:t>level two</w:t></w:r></w:p>
<w:p><w:pPr><w:numPr><w:ilvl w:val="x"/></w:numPr></w:pPr><w:r><w:t>bad level</w:t></w:r></w:p>
<w:p><w:pPr><w:outlineLvl w:val="3"/></w:pPr><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>outline</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="Weird"/></w:pPr><w:r><w:t>weird</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="MyHeading"/></w:pPr><w:r><w:t>my heading</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle/></w:pPr><w:r><w:t>empty style</w:t></w:r><w:del><w:r><w:delText>gone</w:delText><w:t>gone2</w:t></w:r></w:del><w:ins><w:r><w:t>added</w:t></w:r></w:ins></w:p>
<w:p><w:hyperlink><w:r><w:t>link</w:t></w:r></w:hyperlink><w:r><w:fldChar/><w:instrText>HYPERLINK x</w:instrText><w:t>field</w:t></w:r><w:r><w:pict><w:txbxContent><w:p><w:pPr><w:pStyle w:val="Heading1"/><w:tabs><w:tab/></w:tabs></w:pPr><w:r><w:t>in box</w:t></w:r></w:p></w:txbxContent></w:pict></w:r></w:p>
<w:tbl><w:tblPr/><w:tr><w:tc><w:p><w:r><w:t>cell 1</w:t></w:r></w:p><w:p><w:r><w:t>cell 2</w:t></w:r></w:p></w:tc></w:tr></w:tbl>
<w:sdt><w:sdtContent><w:p><w:r><w:t>sdt para</w:t></w:r></w:p></w:sdtContent></w:sdt>
<w:customXml><w:p><w:r><w:t>not collected</w:t></w:r></w:p></w:customXml>
<w:p><w:r>stray<w:t>t1<w:x>inner</w:x>t2</w:t></w:r></w:p>
<w:p/>
<w:sectPr><w:p><w:r><w:t>in sectPr</w:t></w:r></w:p></w:sectPr>
</w:body><w:body><w:p><w:r><w:t>second body</w:t></w:r></w:p></w:body></w:document>`;

const para = (text: string, style = "", headingLevel: number | null = null, numberLevel: number | null = null) => ({
  text,
  style,
  headingLevel,
  numbered: numberLevel !== null,
  numberLevel,
});

describe("readDocx", () => {
  it("reads each construct as Word means it", async () => {
    const doc = await readDocx(docx(BODY, { "word/styles.xml": STYLES, "docProps/core.xml": "<cp:coreProperties><dc:title>A &amp; B</dc:title></cp:coreProperties>" }));
    expect(doc.title).toBe("A & B");
    expect(doc.paragraphs).toEqual([
      para("Fish & chips <3 A", "Title", 0),
      para("Claims ", "Heading1", 1),
      para("A widget\twith\na-b c", "ClaimList", null, 0),
      para("not numbered", "ClaimList"),
      para("level two", "", null, 2),
      para("bad level", "", null, 0),
      para("outline", "", 4),
      para("weird", "Weird", 3),
      para("my heading", "MyHeading", 2),
      para("empty styleadded"),
      para("linkfieldin box"),
      para("cell 1"),
      para("cell 2"),
      para("sdt para"),
      para("t1t2"),
      para(""),
    ]);
  });

  it("without styles or a title part: the first Title paragraph, else the first text", async () => {
    expect((await readDocx(docx(BODY))).title).toBe("Fish & chips <3 A");
    const untitled = `<w:document ${W}><w:body><w:p/><w:p><w:r><w:t> First words </w:t></w:r></w:p></w:body></w:document>`;
    expect((await readDocx(docx(untitled))).title).toBe("First words");
  });

  it("a document without a body is refused", async () => {
    await expect(readDocx(docx(`<w:document ${W}><w:nobody/></w:document>`))).rejects.toMatchObject({ status: 400, message: DOCUMENT_MESSAGES.noBody });
    expect((await readDocx(docx(`<w:document ${W}><w:body/></w:document>`))).paragraphs).toEqual([]);
  });

  it("a 9 MB part of empty elements: the event loop keeps turning while it is read", async () => {
    const filler = "<w:bookmarkEnd/>".repeat(Math.floor((9 * 1024 * 1024) / 16));
    // Stored, not deflated: the zip reader refuses a part that expands more than 100 times.
    const bytes = docx(`<w:document ${W}><w:body><w:p><w:r><w:t>one</w:t></w:r></w:p>${filler}</w:body></w:document>`, {}, 0);
    const { result: doc, ticks, longest } = await watchEventLoop(() => readDocx(bytes));
    expect(doc.paragraphs.map((p) => p.text)).toEqual(["one"]);
    // Parsed in one go, such a part held the loop for ~2 s; in slices each turn is a few ms.
    expect(ticks).toBeGreaterThan(10);
    expect(longest).toBeLessThan(500);
  });

  it(`more than ${MAX_PARAGRAPHS.toLocaleString("en-US")} paragraphs is 413`, async () => {
    const bytes = docx(`<w:document ${W}><w:body>${"<w:p/>".repeat(MAX_PARAGRAPHS + 1)}</w:body></w:document>`);
    await expect(readDocx(bytes)).rejects.toMatchObject({ status: 413, message: DOCUMENT_MESSAGES.tooManyParagraphs });
    const fits = docx(`<w:document ${W}><w:body>${"<w:p/>".repeat(MAX_PARAGRAPHS)}</w:body></w:document>`);
    expect((await readDocx(fits)).paragraphs).toHaveLength(MAX_PARAGRAPHS);
  });
});
