import { beforeAll, describe, expect, test } from "vitest";
import { DOCUMENT_MESSAGES, DocumentError, readDocx } from "../../upstream/src/nlp/docx";
import { ZIP_MAX_ENTRIES, ZIP_MAX_ENTRY_BYTES, ZipError, openZip, readZipEntries } from "../../upstream/src/lib/zip";
import { corruptDocx, notADocx, patentDocx } from "../fixtures/docx";
import { CONTENT_TYPES, bombEntry, docxBomb, entry, writeZip } from "../helpers/zip";
import { harness, message } from "./helpers";

const MB = 1024 * 1024;
const TOO_LARGE = /^The document is too large when uncompressed \(over 10 MB\)\.$/;

/** Runs `work`, sampling RSS and event-loop lag every 5 ms: how long it took, how far RSS rose, the longest stall. */
async function measure<T>(work: () => Promise<T>): Promise<{ result: T | unknown; ms: number; rssRise: number; maxLag: number }> {
  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  let last = performance.now();
  let maxLag = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxLag = Math.max(maxLag, now - last - 5);
    last = now;
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const t0 = performance.now();
  let result: T | unknown;
  try {
    result = await work();
  } catch (error) {
    result = error;
  }
  const ms = performance.now() - t0;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { result, ms, rssRise: (peak - rss0) / MB, maxLag };
}

async function refusal(bytes: Buffer, names = ["word/document.xml"]): Promise<ZipError> {
  try {
    await readZipEntries(bytes, names);
  } catch (error) {
    expect(error).toBeInstanceOf(ZipError);
    return error as ZipError;
  }
  throw new Error("the archive was accepted");
}

let bomb200: Buffer; // honest headers: word/document.xml declares its 200 MB
let bomb200Lying: Buffer; // word/document.xml declares 1 KB
let bomb200AtCap: Buffer; // declares exactly the per-entry cap, inflates to 200 MB
beforeAll(async () => {
  bomb200 = await docxBomb(200 * MB);
  bomb200Lying = await docxBomb(200 * MB, () => 1024);
  bomb200AtCap = await docxBomb(200 * MB, () => ZIP_MAX_ENTRY_BYTES);
  global.gc?.();
}, 60_000);

describe("safe zip reader", () => {
  test("real Word documents of 50 and 200 pages pass; only the asked entries are read", async () => {
    for (const pages of [50, 200]) {
      const bytes = await patentDocx({ pages });
      const zip = await openZip(bytes);
      expect(zip.names).toContain("word/document.xml");
      expect(zip.has("[Content_Types].xml")).toBe(true);
      expect(await zip.readText("word/document.xml")).toMatch(/^<\?xml[\s\S]*<\/w:document>$/);
      expect(await zip.read("word/missing.xml")).toBeNull();
      const doc = await readDocx(bytes);
      expect(doc.paragraphs.length).toBeGreaterThan(pages * 8);
    }
  });

  test("the 200 MB bomb (204 KB) is refused with 413 in well under 2 s, without memory growth or a stalled loop", async () => {
    expect(bomb200.length).toBeLessThan(300 * 1024);
    for (const [name, bytes] of [["honest", bomb200], ["declares the cap", bomb200AtCap]] as const) {
      const m = await measure(() => readZipEntries(bytes, ["word/document.xml"]));
      console.log(`zip bomb 200 MB (${name}): refused in ${m.ms.toFixed(0)} ms, RSS +${m.rssRise.toFixed(1)} MB, max loop lag ${m.maxLag.toFixed(0)} ms`);
      expect(m.result).toBeInstanceOf(ZipError);
      expect((m.result as ZipError).status).toBe(413);
      // Honest: refused from the declared size before inflating; at the cap: stopped by the ratio at 20 MB.
      expect((m.result as ZipError).message).toMatch(/^The file is too large when uncompressed \((over 50 MB|a part expands more than 100 times)\)\.$/);
      expect(m.ms).toBeLessThan(2_000);
      expect(m.rssRise).toBeLessThan(100);
      expect(m.maxLag).toBeLessThan(200);
    }
  });

  test("a header that declares less than the entry inflates to: 400, stopped at once", async () => {
    const m = await measure(() => readZipEntries(bomb200Lying, ["word/document.xml"]));
    expect((m.result as ZipError).status).toBe(400);
    expect((m.result as ZipError).message).toBe("The file is not a valid zip archive.");
    expect(m.ms).toBeLessThan(2_000);
    expect(m.rssRise).toBeLessThan(100);
    // Declares more than it holds (under the cap): 400 once the stream ends short.
    const short = entry("a.xml", "<a/>");
    short.uncompressedSize = 1000;
    expect((await refusal(writeZip([short]), ["a.xml"])).status).toBe(400);
  });

  test("ratio bomb: a 20 MB entry (under the per-entry cap) from 20 KB is refused past 1 MB at 100:1", async () => {
    const bytes = writeZip([await bombEntry("ppt/slides/slide1.xml", 20 * MB)]);
    const m = await measure(() => readZipEntries(bytes, ["ppt/slides/slide1.xml"]));
    const error = m.result as ZipError;
    expect(error.status).toBe(413);
    expect(error.reason).toBe("ratio");
    expect(error.message).toMatch(/too large when uncompressed/);
    expect(m.ms).toBeLessThan(2_000);
  });

  test("per-entry cap while streaming: an entry that declares the cap and inflates past it is stopped there", async () => {
    const noise = Buffer.alloc(3 * MB);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const liar = { ...entry("ppt/media/image1.bin", noise), uncompressedSize: 2 * MB };
    const zip = await openZip(writeZip([liar]), { limits: { maxEntryBytes: 2 * MB } });
    await expect(zip.read("ppt/media/image1.bin")).rejects.toMatchObject({
      status: 413,
      reason: "entryTooLarge",
      message: "The file is too large when uncompressed (over 2 MB).",
    });
  });

  test("total cap across entries, and per-format limits may only be tighter", async () => {
    const parts = [entry("a.xml", Buffer.alloc(700 * 1024, 0x61), 0), entry("b.xml", Buffer.alloc(700 * 1024, 0x62), 0)];
    const bytes = writeZip(parts);
    const limits = { maxEntryBytes: 1 * MB, maxTotalBytes: 1 * MB };
    await expect(openZip(bytes, { limits }).then((z) => z.read("a.xml"))).resolves.toHaveLength(700 * 1024);
    const zip = await openZip(bytes, { limits });
    await zip.read("a.xml");
    await expect(zip.read("b.xml")).rejects.toMatchObject({ status: 413, reason: "totalTooLarge" });
    await expect(openZip(bytes, { limits: { maxEntryBytes: 1024 * MB } })).rejects.toThrow(RangeError);
  });

  test("entry-count bomb: 413 before reading the entries", async () => {
    const many = Array.from({ length: ZIP_MAX_ENTRIES + 1 }, (_, i) => entry(`x/${i}`, "", 0));
    const error = await refusal(writeZip(many));
    expect(error.status).toBe(413);
    expect(error.message).toBe(`The file has too many parts (${ZIP_MAX_ENTRIES + 1}, at most ${ZIP_MAX_ENTRIES}).`);
    // The end record cannot hide them: yauzl reads no more entries than it declares.
    const hidden = await openZip(writeZip(many, { declaredCount: 2 }));
    expect(hidden.names).toHaveLength(2);
  });

  test("unsafe names, duplicates, encryption, unknown methods, bad CRC, truncated or not a zip: 400", async () => {
    const ok = () => entry("[Content_Types].xml", CONTENT_TYPES);
    const cases: Buffer[] = [];
    for (const name of ["../evil.xml", "word/../../evil.xml", "/etc/passwd", "C:/evil.xml", "word\\..\\evil.xml", "a\u0000b"]) {
      cases.push(writeZip([ok(), entry(name, "x")]));
    }
    cases.push(writeZip([ok(), entry("word/document.xml", "a"), entry("word/document.xml", "b")]));
    cases.push(writeZip([ok(), { ...entry("word/document.xml", "secret"), flags: 1 }]));
    cases.push(writeZip([ok(), { ...entry("word/document.xml", "x"), method: 8, data: Buffer.from("not deflate at all") }]));
    cases.push(writeZip([ok(), { ...entry("word/document.xml", "<w:document/>"), crc: 1234 }]));
    const bzip = entry("word/document.xml", "x", 0) as unknown as { method: number };
    bzip.method = 12;
    cases.push(writeZip([ok(), bzip as never]));
    cases.push(await corruptDocx());
    cases.push(bomb200.subarray(0, 100 * 1024));
    cases.push(notADocx());
    cases.push(Buffer.alloc(0));
    for (const bytes of cases) {
      const error = await refusal(bytes);
      expect(error.status, error.detail).toBe(400);
      expect(error.message).toBe("The file is not a valid zip archive.");
    }
  });

  test("readDocx: a bomb is a 413 DocumentError; damage stays the 400 it was", async () => {
    const m = await measure(() => readDocx(bomb200));
    expect(m.result).toBeInstanceOf(DocumentError);
    expect((m.result as DocumentError).status).toBe(413);
    expect((m.result as DocumentError).message).toMatch(TOO_LARGE);
    expect(m.ms).toBeLessThan(2_000);
    // 12 MB of XML: over the .docx part limit (10 MB), under the generic 50 MB.
    await expect(readDocx(await docxBomb(12 * MB))).rejects.toMatchObject({ status: 413, message: expect.stringMatching(TOO_LARGE) });
    await expect(readDocx(await corruptDocx())).rejects.toMatchObject({ status: 400, message: DOCUMENT_MESSAGES.corrupt });
    await expect(readDocx(writeZip([entry("../word/document.xml", "x")]))).rejects.toMatchObject({ status: 400, message: DOCUMENT_MESSAGES.corrupt });
  });
});

describe("nlp endpoints with zip bombs", () => {
  test("parser/parse, generator/contextObject and generator/generate answer 413 with the message", async () => {
    const h = await harness();
    const content = bomb200.toString("base64");
    const document = { name: "bomb.docx", content };
    const calls: Array<[string, unknown]> = [
      ["/api/nlp/api/v1/parser/parse", { document: content, sections: ["claims"] }],
      ["/api/nlp/api/v1/generator/contextObject", { templates: [{ name: "x", body: "{{title}}", params: [], claims: [] }], document }],
      ["/api/nlp/api/v1/generator/generate", { templates: [{ name: "x", body: "{{title}}" }], document }],
    ];
    for (const [url, body] of calls) {
      const m = await measure(() => h.call("POST", url, { token: h.adminToken, body }));
      const r = m.result as Response;
      expect(r.status, url).toBe(413);
      expect(await message(r)).toMatch(TOO_LARGE);
      expect(m.ms).toBeLessThan(2_000);
      console.log(`${url} with the 200 MB bomb: 413 in ${m.ms.toFixed(0)} ms, RSS +${m.rssRise.toFixed(1)} MB`);
    }
    const lying = await h.call("POST", "/api/nlp/api/v1/parser/parse", { token: h.adminToken, body: { document: bomb200Lying.toString("base64") } });
    expect(lying.status).toBe(400);
    expect(await message(lying)).toBe(DOCUMENT_MESSAGES.corrupt);
  });
});
