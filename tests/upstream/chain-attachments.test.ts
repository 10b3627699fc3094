import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "vitest";
import { CONVERTER_MESSAGES, PageImages } from "@contract/converters";
import type { RunEvent } from "@contract/chain-runs";
import { Organization } from "@contract/organizations";
import { patentDocx } from "../fixtures/docx";
import { allEvents } from "./chain-runs-helpers";
import { blankPdf, converterSuite, textPdf, vsdx } from "./converters-files";
import { harness, type Harness } from "./helpers";

/**
 * Office files and PDFs as page images (spec 3 §5 "Uploads: images"; §3 content link's .docx and .vsdx): the
 * converters' `pages` route a message's upload goes through, and a content link's files at run time. Real files made
 * here; LibreOffice and poppler run as in production.
 */
const suite = converterSuite("chain-attachments.test.ts");

const PNG = [0x89, 0x50, 0x4e, 0x47];

function post(h: Harness, url: string, bytes: Buffer, name: string): Promise<Response> {
  const form = new FormData();
  form.append("file", new File([new Uint8Array(bytes)], name));
  return h.up.fetch(new Request(`http://upstream.test${url}`, { method: "POST", headers: { authorization: `Bearer ${h.adminToken}` }, body: form }));
}

async function runContent(h: Harness, files: { name: string; type: string; bytes: Buffer }[]): Promise<RunEvent[]> {
  const org = Organization.parse(await (await h.call("POST", "/api/organizations", { token: h.adminToken, body: { name: "Acme" } })).json());
  const link = { id: "c1", type: "content", name: "CONTENT 1", source: { type: "file", value: files.map((f) => ({ name: f.name, type: f.type, base64: f.bytes.toString("base64") })) } };
  const res = await h.call("POST", "/api/v2/nlp/chains/stream", { token: h.adminToken, body: { item: { organizations: [org.id] }, template: { chain: [link] }, variables: {} } });
  expect(res.status, await res.clone().text()).toBe(200);
  return allEvents(res);
}

const finish = (events: RunEvent[]) => events.find((e) => e.type === "link-finish")?.data as { output: unknown } | undefined;
/** How the run ended, with its error's text when it failed. */
const failure = (events: RunEvent[]) => ({
  status: (events.find((e) => e.type === "chain-finish")?.data as { status: string } | undefined)?.status,
  message: (events.find((e) => e.type === "error")?.data as { message: string } | undefined)?.message,
});
/** The files the content link shows (its output's images). */
const shown = (events: RunEvent[]) => (events.find((e) => e.type === "content")?.data as { message: { files: { name: string; type: string; base64: string }[] } }).message.files;

suite("office files and PDFs as page images", () => {
  test("pages: a PDF's pages as named PNGs, small enough for a draft; more pages than asked is refused; garbage is the §8 text", async () => {
    const h = await harness();
    const res = await post(h, "/api/converters/pages?max=3", textPdf(["1. A widget, comprising a spring."]), "claims.pdf");
    expect(res.status, await res.clone().text()).toBe(200);
    const answer = PageImages.parse(await res.json());
    expect(answer.pages.map((p) => p.name)).toEqual(["claims.pdf p. 1"]);
    const png = Buffer.from(answer.pages[0]!.base64, "base64");
    expect([...png.subarray(0, 4)]).toEqual(PNG);
    // Longest side 1,400 px (IHDR: width at 16, height at 20), and far under the 200 KB a message's image may be.
    expect(Math.max(png.readUInt32BE(16), png.readUInt32BE(20))).toBe(1_400);
    expect(png.length).toBeLessThan(100 * 1024);

    const many = await post(h, "/api/converters/pages?max=2", blankPdf(3), "long.pdf");
    expect(many.status).toBe(400);
    expect((await many.json()) as unknown).toMatchObject({ message: CONVERTER_MESSAGES.tooManyPages(2) });

    const garbage = await post(h, "/api/converters/pages", Buffer.from("%PDF-1.4 not really"), "broken.pdf");
    expect(garbage.status).toBe(400);
    expect((await garbage.json()) as unknown).toMatchObject({ message: CONVERTER_MESSAGES.convertMany });
    // Stray bytes named .docx never reach LibreOffice (it would print them as a text document).
    const stray = await post(h, "/api/converters/pages", Buffer.from("just some text"), "notes.docx");
    expect(stray.status).toBe(400);
    expect((await stray.json()) as unknown).toMatchObject({ message: CONVERTER_MESSAGES.convertOffice });
    const wrong = await post(h, "/api/converters/pages", Buffer.from("x"), "notes.txt");
    expect(wrong.status).toBe(400);
  }, 60_000);

  test("a .docx of a content link gives its text as the link's output", async () => {
    const h = await harness();
    const events = await runContent(h, [{ name: "spec.docx", type: "docx", bytes: await patentDocx({ pages: 1 }) }]);
    expect(failure(events)).toEqual({ status: "finished", message: undefined });
    const output = finish(events)?.output;
    expect(typeof output).toBe("string");
    expect(output).toContain("Spring-loaded widget");
    expect(output).toContain("A widget, comprising:");
  }, 60_000);

  test("a .vsdx of a content link gives its pages as images (LibreOffice's Visio import, then poppler)", async () => {
    const h = await harness();
    const started = Date.now();
    const events = await runContent(h, [{ name: "flow.vsdx", type: "vsdx", bytes: vsdx(["Step one", "Step two"]) }]);
    console.log(`vsdx of 2 pages to images: ${Date.now() - started} ms`);
    expect(failure(events)).toEqual({ status: "finished", message: undefined });
    const images = shown(events);
    expect(images.map((i) => [i.name, i.type])).toEqual([
      ["flow.vsdx p. 1", "png"],
      ["flow.vsdx p. 2", "png"],
    ]);
    expect([...Buffer.from(images[0]!.base64, "base64").subarray(0, 4)]).toEqual(PNG);
  }, 180_000);

  test("a garbage .vsdx or .docx fails the link with the §8 conversion text", async () => {
    const h = await harness();
    const vsd = await runContent(h, [{ name: "flow.vsdx", type: "vsdx", bytes: Buffer.from("PK\u0003\u0004 not a zip at all") }]);
    expect(failure(vsd)).toEqual({ status: "failed", message: CONVERTER_MESSAGES.convertOffice });
    const doc = await runContent(h, [{ name: "spec.docx", type: "docx", bytes: Buffer.from("not a document") }]);
    expect(failure(doc)).toEqual({ status: "failed", message: CONVERTER_MESSAGES.extractOffice });
  }, 60_000);

  test("a full pool: the upload's 503 with its text, and a content link's .vsdx fails with it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "chain-attachments-"));
    // A "LibreOffice" that never exits holds the one slot until its time limit.
    const hang = path.join(dir, "hang.sh");
    fs.writeFileSync(hang, "#!/bin/sh\nsleep 600 &\nwait\n", { mode: 0o755 });
    try {
      const h = await harness({ converters: { commands: { soffice: hang }, limits: { officeMs: 2_000, concurrency: 1, queue: 0 } } });
      const docx = await patentDocx({ pages: 1 });
      const first = post(h, "/api/converters/pages", docx, "a.docx");
      await new Promise((resolve) => setTimeout(resolve, 300));
      const second = await post(h, "/api/converters/pages", docx, "b.docx");
      expect(second.status).toBe(503);
      expect((await second.json()) as unknown).toMatchObject({ message: CONVERTER_MESSAGES.busy });
      const run = await runContent(h, [{ name: "flow.vsdx", type: "vsdx", bytes: vsdx(["Step one"]) }]);
      expect(failure(run)).toEqual({ status: "failed", message: CONVERTER_MESSAGES.busy });
      const timedOut = await first;
      expect(timedOut.status).toBe(400);
      expect((await timedOut.json()) as unknown).toMatchObject({ message: CONVERTER_MESSAGES.convertOffice });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
