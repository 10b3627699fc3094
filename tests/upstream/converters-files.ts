import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe } from "vitest";
import { CONTENT_TYPES, entry, writeZip } from "../helpers/zip";
import type { Harness } from "./helpers";

/** Real files for the converter tests, made here (no binary fixtures): presentations, PDFs, messages, scans. */

/** Whether each converter program is installed (the tests need them all on CI; .ci/run installs them). */
export function missingConverters(): string[] {
  return ["soffice", "pdfinfo", "pdftotext", "pdftoppm", "tesseract", "prlimit"].filter((tool) => {
    try {
      execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" });
      return false;
    } catch {
      return true;
    }
  });
}

/**
 * `describe` for a test file that needs the converters, or `describe.skip` with the install line where they are
 * missing; on CI (.ci/run installs them) a missing one fails the file.
 */
export function converterSuite(file: string): typeof describe | typeof describe.skip {
  const missing = missingConverters();
  if (missing.length && process.env.CI) throw new Error(`converters missing on CI: ${missing.join(", ")}`);
  if (!missing.length) return describe;
  console.warn(
    `${file} skipped: ${missing.join(", ")} not installed (apt-get install --no-install-recommends libreoffice-core-nogui ` +
      "libreoffice-writer-nogui libreoffice-impress-nogui libreoffice-draw-nogui poppler-utils tesseract-ocr tesseract-ocr-eng)",
  );
  return describe.skip;
}

/** A multipart post of `[field, bytes, file name]` files to the upstream, as `token` (the administrator by default). */
export function postFiles(h: Harness, url: string, files: [string, Buffer, string][], token = h.adminToken): Promise<Response> {
  const form = new FormData();
  for (const [field, bytes, name] of files) form.append(field, new File([new Uint8Array(bytes)], name));
  return h.up.fetch(new Request(`http://upstream.test${url}`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form }));
}

const SLIDE = (paragraphs: string[]) =>
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main">' +
  "<p:cSld><p:spTree><p:sp><p:txBody><a:bodyPr/>" +
  paragraphs.map((p) => `<a:p><a:r><a:rPr lang="en-US"/><a:t>${p}</a:t></a:r></a:p>`).join("") +
  "</p:txBody></p:sp></p:spTree></p:cSld></p:sld>";

/**
 * A .pptx whose presentation lists slide2.xml before slide1.xml: the text must follow the presentation's order, not
 * the part names'.
 */
export function pptx(slides: { part: string; paragraphs: string[] }[]): Buffer {
  const presentation =
    '<?xml version="1.0" encoding="UTF-8"?><p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" ' +
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><p:sldIdLst>' +
    slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join("") +
    "</p:sldIdLst></p:presentation>";
  const rels =
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    slides
      .map((s, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/${s.part}"/>`)
      .join("") +
    "</Relationships>";
  return writeZip([
    entry("[Content_Types].xml", CONTENT_TYPES),
    entry("ppt/presentation.xml", presentation),
    entry("ppt/_rels/presentation.xml.rels", rels),
    ...slides.map((s) => entry(`ppt/slides/${s.part}`, SLIDE(s.paragraphs))),
  ]);
}

/** A .docx whose body declares the "billion laughs" entities (ten levels of ten). */
export function billionLaughsDocx(): Buffer {
  let dtd = '<!ENTITY lol0 "lol">';
  for (let i = 1; i <= 9; i++) dtd += `<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`;
  const xml =
    `<?xml version="1.0"?><!DOCTYPE w:document [${dtd}]>` +
    '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>';
  return writeZip([entry("[Content_Types].xml", CONTENT_TYPES), entry("word/document.xml", xml)]);
}

/** Writes a PDF from its objects (1-based), with a correct cross-reference table. */
function pdfOf(objects: (string | Buffer)[]): Buffer {
  const head = Buffer.from("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "latin1");
  const parts: Buffer[] = [head];
  let offset = head.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), typeof body === "string" ? Buffer.from(body, "latin1") : body, Buffer.from("\nendobj\n")]);
    offsets.push(offset);
    offset += chunk.length;
    parts.push(chunk);
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("") +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`;
  parts.push(Buffer.from(xref, "latin1"));
  return Buffer.concat(parts);
}

/** A valid PDF of `pages` blank Letter pages (one shared empty content stream): small, and cheap to list. */
export function blankPdf(pages: number): Buffer {
  const kids = Array.from({ length: pages }, (_, i) => `${4 + i} 0 R`).join(" ");
  const objects: string[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} /MediaBox [0 0 612 792] >>`,
    "<< /Length 0 >>\nstream\n\nendstream",
  ];
  for (let i = 0; i < pages; i++) objects.push("<< /Type /Page /Parent 2 0 R /Contents 3 0 R >>");
  return pdfOf(objects);
}

/** A one-page PDF with a text layer: `lines` in 14-point Helvetica (no LibreOffice needed). */
export function textPdf(lines: string[]): Buffer {
  const escape = (line: string) => line.replace(/[\\()]/g, (c) => `\\${c}`);
  const content = `BT /F1 14 Tf 72 720 Td 18 TL ${lines.map((l) => `(${escape(l)}) '`).join(" ")} ET`;
  return pdfOf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ]);
}

/** Renders page 1 of `pdf` at `dpi` with pdftoppm: a PNG, or a gray PGM's header and pixels. */
export function renderPage(pdf: Buffer, dir: string, dpi: number, format: "png" | "pgm"): Buffer {
  const input = path.join(dir, `render-${dpi}.pdf`);
  fs.writeFileSync(input, pdf);
  const out = path.join(dir, `render-${dpi}-${format}`);
  execFileSync("pdftoppm", ["-r", String(dpi), "-f", "1", "-l", "1", "-singlefile", ...(format === "png" ? ["-png"] : ["-gray"]), input, out]);
  return fs.readFileSync(`${out}.${format}`);
}

/** A scanned page: a PDF whose only content is a gray image (no text layer), from a binary PGM (P5). */
export function scannedPdf(pgm: Buffer): Buffer {
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 64).toString("latin1"));
  if (!header) throw new Error("not a binary PGM");
  const [, w, h] = header;
  const pixels = zlib.deflateSync(pgm.subarray(header[0].length));
  const width = Number(w);
  const height = Number(h);
  // Placed at 300 dpi: points = pixels × 72 / 300.
  const pw = (width * 72) / 300;
  const ph = (height * 72) / 300;
  const content = `q ${pw.toFixed(2)} 0 0 ${ph.toFixed(2)} 0 0 cm /Im0 Do Q`;
  return pdfOf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${pw.toFixed(2)} ${ph.toFixed(2)}] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>`,
    Buffer.concat([
      Buffer.from(`<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length ${pixels.length} >>\nstream\n`),
      pixels,
      Buffer.from("\nendstream"),
    ]),
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ]);
}

/** A message with a plain body and a PDF attachment. */
export function emailWithAttachment(): Buffer {
  const boundary = "----=_Part_42";
  return Buffer.from(
    [
      "From: Ann Lee <ann@example.com>",
      "To: Bob Roe <bob@example.com>",
      "Subject: Office action response due",
      "Date: Tue, 24 Nov 2026 10:30:00 +0000",
      "MIME-Version: 1.0",
      `Content-Type: multipart/mixed; boundary="${boundary}"`,
      "",
      `--${boundary}`,
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "The response to the office action is due on December 1. Caf=C3=A9 meeting at noon.",
      `--${boundary}`,
      'Content-Type: application/pdf; name="office-action.pdf"',
      'Content-Disposition: attachment; filename="office-action.pdf"',
      "Content-Transfer-Encoding: base64",
      "",
      Buffer.from("%PDF-1.4 not really").toString("base64"),
      `--${boundary}--`,
      "",
    ].join("\r\n"),
  );
}

/** The words of a text, lower-cased, letters and digits only. */
export const words = (text: string): string[] => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/** The share of `expected`'s words found in `actual` (as a multiset). */
export function wordRecall(expected: string, actual: string): number {
  const have = new Map<string, number>();
  for (const w of words(actual)) have.set(w, (have.get(w) ?? 0) + 1);
  const want = words(expected);
  let found = 0;
  for (const w of want) {
    const n = have.get(w) ?? 0;
    if (n > 0) {
      found++;
      have.set(w, n - 1);
    }
  }
  return want.length ? found / want.length : 1;
}

const VISIO = "http://schemas.microsoft.com/office/visio/2012/main";
const RELS = "http://schemas.openxmlformats.org/package/2006/relationships";
const VSDX_REL = "http://schemas.microsoft.com/visio/2010/relationships";

/** A .vsdx drawing with one page per label, each a rectangle holding its label (LibreOffice's Visio import reads it). */
export function vsdx(labels: string[]): Buffer {
  const pages = labels.map((_, i) => i + 1);
  const shape = (label: string) =>
    '<Shape ID="1" Type="Shape"><Cell N="PinX" V="4"/><Cell N="PinY" V="6"/><Cell N="Width" V="3"/><Cell N="Height" V="1.5"/>' +
    '<Cell N="LocPinX" V="1.5"/><Cell N="LocPinY" V="0.75"/><Section N="Geometry" IX="0">' +
    [[0, 0], [3, 0], [3, 1.5], [0, 1.5], [0, 0]]
      .map(([x, y], i) => `<Row T="${i ? "LineTo" : "MoveTo"}" IX="${i + 1}"><Cell N="X" V="${x}"/><Cell N="Y" V="${y}"/></Row>`)
      .join("") +
    `</Section><Text>${label}</Text></Shape>`;
  return writeZip([
    entry(
      "[Content_Types].xml",
      '<?xml version="1.0" encoding="utf-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/visio/document.xml" ContentType="application/vnd.ms-visio.drawing.main+xml"/>' +
        '<Override PartName="/visio/pages/pages.xml" ContentType="application/vnd.ms-visio.pages+xml"/>' +
        pages.map((n) => `<Override PartName="/visio/pages/page${n}.xml" ContentType="application/vnd.ms-visio.page+xml"/>`).join("") +
        "</Types>",
    ),
    entry("_rels/.rels", `<?xml version="1.0" encoding="utf-8"?><Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${VSDX_REL}/document" Target="visio/document.xml"/></Relationships>`),
    entry("visio/document.xml", `<?xml version="1.0" encoding="utf-8"?><VisioDocument xmlns="${VISIO}"/>`),
    entry("visio/_rels/document.xml.rels", `<?xml version="1.0" encoding="utf-8"?><Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${VSDX_REL}/pages" Target="pages/pages.xml"/></Relationships>`),
    entry(
      "visio/pages/pages.xml",
      `<?xml version="1.0" encoding="utf-8"?><Pages xmlns="${VISIO}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
        pages.map((n) => `<Page ID="${n - 1}" NameU="Page-${n}" Name="Page-${n}"><PageSheet><Cell N="PageWidth" V="8.5"/><Cell N="PageHeight" V="11"/></PageSheet><Rel r:id="rId${n}"/></Page>`).join("") +
        "</Pages>",
    ),
    entry(
      "visio/pages/_rels/pages.xml.rels",
      `<?xml version="1.0" encoding="utf-8"?><Relationships xmlns="${RELS}">` +
        pages.map((n) => `<Relationship Id="rId${n}" Type="${VSDX_REL}/page" Target="page${n}.xml"/>`).join("") +
        "</Relationships>",
    ),
    ...labels.map((label, i) => entry(`visio/pages/page${i + 1}.xml`, `<?xml version="1.0" encoding="utf-8"?><PageContents xmlns="${VISIO}"><Shapes>${shape(label)}</Shapes></PageContents>`)),
  ]);
}
