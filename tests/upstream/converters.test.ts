import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { CONVERTER_MESSAGES, ConvertedText, OcrJob, OcrResults } from "@contract/converters";
import { openZip } from "../../upstream/src/lib/zip";
import { decodeText } from "../../upstream/src/converters/text";
import { ConverterPool, PoolBusy } from "../../upstream/src/converters/pool";
import { patentDocx } from "../fixtures/docx";
import { harness, message, type Harness } from "./helpers";
import {
  emailWithAttachment,
  converterSuite,
  postFiles,
  pptx,
  renderPage,
  scannedPdf,
  wordRecall,
} from "./converters-files";

const suite = converterSuite("converters.test.ts");

const text = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(200);
  return ConvertedText.parse(await res.json());
};


suite("converters", () => {
  let h: Harness;
  let docx: Buffer;
  let pdf: Buffer;
  let dir: string;

  // Files shared by the tests live in a directory of this suite (tempDir() and harness() are cleaned after each test).
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "converters-test-"));
    docx = await patentDocx({ pages: 1 });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  beforeEach(async () => {
    h = await harness();
  });

  test("office2pdf: a .docx becomes a PDF with its text (LibreOffice, own profile, bounded)", async () => {
    const res = await postFiles(h, "/api/converters/office2pdf", [["file", docx, "widget.docx"]]);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toContain("widget.pdf");
    pdf = Buffer.from(await res.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const file = path.join(dir, "widget.pdf");
    fs.writeFileSync(file, pdf);
    expect(execFileSync("pdftotext", [file, "-"]).toString()).toContain("Spring-loaded widget");
  }, 180_000);

  test("office2txt: .docx, .pptx (slides in the presentation's order), .pdf text layer, .txt in any encoding", async () => {
    const fromDocx = await text(await postFiles(h, "/api/converters/office2txt", [["file", docx, "widget.docx"]]));
    expect(fromDocx.text).toContain("Spring-loaded widget");
    expect(fromDocx.text).toContain("A widget, comprising:");

    const deck = pptx([
      { part: "slide2.xml", paragraphs: ["First slide title", "Point one"] },
      { part: "slide1.xml", paragraphs: ["Second slide title"] },
    ]);
    const fromPptx = await text(await postFiles(h, "/api/converters/office2txt", [["file", deck, "deck.pptm"]]));
    expect(fromPptx).toEqual({ name: "deck.pptm", text: "First slide title\nPoint one\n\nSecond slide title", pages: 2 });

    const fromPdf = await text(await postFiles(h, "/api/converters/office2txt", [["file", pdf, "widget.pdf"]]));
    expect(fromPdf.pages).toBe(1);
    expect(fromPdf.text).toContain("Spring-loaded widget");

    const latin = Buffer.from("Caf\xe9 cr\xe8me \x93quoted\x94", "latin1");
    expect((await text(await postFiles(h, "/api/converters/office2txt", [["file", latin, "notes.txt"]]))).text).toBe("Café crème “quoted”");
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("Ünïcode text", "utf16le")]);
    expect((await text(await postFiles(h, "/api/converters/office2txt", [["file", utf16, "notes.txt"]]))).text).toBe("Ünïcode text");
    expect(decodeText(Buffer.from("Ünïcode text", "utf16le"))).toBe("Ünïcode text");
    expect(decodeText(Buffer.from("plain ✓ utf-8"))).toBe("plain ✓ utf-8");

    const binary = Buffer.from([0x41, 0x00, 0x00, 0x13, 0x00, 0x42, 0x43, 0x00, 0x00, 0x00]);
    const bad = await postFiles(h, "/api/converters/office2txt", [["file", binary, "notes.txt"]]);
    expect([bad.status, await message(bad)]).toEqual([400, CONVERTER_MESSAGES.readTxt]);

    const wrong = await postFiles(h, "/api/converters/office2txt", [["file", Buffer.from("x"), "diagram.vsdx"]]);
    expect(wrong.status).toBe(400);
    expect(await message(wrong)).toContain(CONVERTER_MESSAGES.invalidTextFile);
  }, 60_000);

  test("eml2txt and office2txt: subject, from, to, date, attachment names and the body of a message", async () => {
    const eml = emailWithAttachment();
    for (const url of ["/api/converters/eml2txt", "/api/converters/office2txt"]) {
      const got = await text(await postFiles(h, url, [["file", eml, "message.eml"]]));
      expect(got.text).toContain("Subject: Office action response due");
      expect(got.text).toContain("From: Ann Lee <ann@example.com>");
      expect(got.text).toContain("To: Bob Roe <bob@example.com>");
      expect(got.text).toContain("Attachments: office-action.pdf");
      expect(got.text).toContain("Café meeting at noon.");
    }
    const html = Buffer.from(
      "From: a@example.com\r\nSubject: Hi\r\nContent-Type: text/html\r\n\r\n<html><head><style>p{}</style></head><body><p>Hello &amp; welcome</p><p>Second</p></body></html>",
    );
    const fromHtml = await text(await postFiles(h, "/api/converters/eml2txt", [["file", html, "html.eml"]]));
    expect(fromHtml.text).toMatch(/Hello & welcome\n+Second$/);
  }, 30_000);

  test("toimages: a PDF's pages as PNGs in a zip", async () => {
    const res = await postFiles(h, "/api/hub-pdf/convert/toimages", [["file", pdf, "widget.pdf"]]);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    const zip = await openZip(new Uint8Array(await res.arrayBuffer()));
    expect(zip.names).toEqual(["page-001.png"]);
    const png = await zip.read("page-001.png");
    expect(png?.subarray(1, 4).toString()).toBe("PNG");
    // Longest side bounded: 150 dpi on Letter is 1,650 px high, under the 1,754 px bound.
    expect(png?.readUInt32BE(20)).toBeLessThanOrEqual(1754);
  }, 60_000);

  test("OCR: a scanned PDF and a PNG of typed text, as a job polled until done (≥ 95% of the words)", async () => {
    const source = execFileSync("pdftotext", [path.join(dir, "widget.pdf"), "-"]).toString();
    const scan = scannedPdf(renderPage(pdf, dir, 300, "pgm"));
    const png = renderPage(pdf, dir, 300, "png");
    // The scan has no text layer: pdftotext finds nothing in it.
    const scanFile = path.join(dir, "scan.pdf");
    fs.writeFileSync(scanFile, scan);
    expect(execFileSync("pdftotext", [scanFile, "-"]).toString().trim()).toBe("");

    const res = await postFiles(h, "/api/hub-pdf/ocr", [
      ["files", scan, "scan.pdf"],
      ["files", png, "page.png"],
    ]);
    expect(res.status, await res.clone().text()).toBe(202);
    const { jobId } = OcrJob.parse(await res.json());
    const first = await h.call("GET", `/api/hub-pdf/results/${jobId}`, { token: h.adminToken });
    expect([first.status, await first.text()]).toEqual([202, "Accepted"]);
    let results: OcrResults | null = null;
    for (let i = 0; i < 120 && !results; i++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const poll = await h.call("GET", `/api/hub-pdf/results/${jobId}`, { token: h.adminToken });
      if (poll.status === 200) results = OcrResults.parse(await poll.json());
      else expect(poll.status, await poll.clone().text()).toBe(202);
    }
    expect(results).not.toBeNull();
    expect(results?.map((r) => [r.name, r.pages])).toEqual([
      ["scan.pdf", 1],
      ["page.png", 1],
    ]);
    for (const result of results ?? []) expect(wordRecall(source, result.txtResults.join("\n"))).toBeGreaterThanOrEqual(0.95);
    // Another user's job does not exist for them.
    const bob = await h.createUser({ email: "bob@example.com", permissions: [] });
    const other = await h.call("GET", `/api/hub-pdf/results/${jobId}`, { token: await h.login("bob@example.com", "secret1") });
    expect(other.status).toBe(404);
    expect(bob.id).toBeTruthy();
  }, 240_000);
});

suite("OCR results expire", () => {
  test("a job ended more than ocrResultsMs ago is deleted with its files when the next OCR request comes", async () => {
    const h = await harness({ converters: { limits: { ocrResultsMs: 0 } } });
    const start = async () => {
      const res = await postFiles(h, "/api/hub-pdf/ocr", [["files", Buffer.from("not a picture"), "noise.png"]]);
      expect(res.status, await res.clone().text()).toBe(202);
      return OcrJob.parse(await res.json()).jobId;
    };
    const poll = (jobId: string) => h.call("GET", `/api/hub-pdf/results/${jobId}`, { token: h.adminToken });
    const first = await start();
    // An unreadable image ends its job at once (tesseract refuses it): the failure text, kept until it expires.
    let ended = await poll(first);
    for (let i = 0; i < 60 && ended.status === 202; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      ended = await poll(first);
    }
    expect([ended.status, await message(ended)]).toEqual([400, CONVERTER_MESSAGES.convertMany]);
    const second = await start();
    const gone = await poll(first);
    expect([gone.status, await message(gone)]).toEqual([404, CONVERTER_MESSAGES.jobNotFound]);
    expect(fs.existsSync(path.join(h.dir, "files", "ocr", first))).toBe(false);
    expect((await poll(second)).status).not.toBe(404);
  }, 60_000);
});

describe("converter pool", () => {
  test("runs at most size at once, queues up to queue more in order, refuses beyond", async () => {
    const pool = new ConverterPool(1, 1);
    const order: string[] = [];
    let release!: () => void;
    const first = pool.use(() => new Promise<void>((resolve) => (release = resolve)).then(() => order.push("a")));
    const second = pool.use(async () => order.push("b"));
    await expect(pool.use(async () => "c")).rejects.toBeInstanceOf(PoolBusy);
    expect([pool.active, pool.queued]).toEqual([1, 1]);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(["a", "b"]);
    expect([pool.active, pool.queued]).toEqual([0, 0]);
  });
});
