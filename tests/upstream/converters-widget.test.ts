import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CONVERTER_MESSAGES, OCR_POLL } from "@contract/converters";
import { createApi } from "~/lib/upstream.server";
import { TEXT_FROM_FILE, type TextFromFileState } from "~/ui/text-from-file";
import { textFromFileAction, textFromFilePoll } from "~/ui/text-from-file.server";
import { testContext } from "../helpers/app";
import { missingConverters, renderPage, scannedPdf, textPdf, wordRecall } from "./converters-files";
import { harness } from "./helpers";

// The widget's server half against the embedded upstream, as a page's action and loader call it.
const missing = missingConverters();
if (missing.length && process.env.CI) throw new Error(`converters missing on CI: ${missing.join(", ")}`);
const suite = missing.length ? describe.skip : describe;

const LINES = ["The quick brown fox jumps over the lazy dog.", "Pack my box with five dozen liquor jugs.", "Claim 1: a widget comprising a frame and a spring."];

suite("load text from a file (server half)", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "converters-widget-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const form = (bytes: Buffer, name: string) => {
    const body = new FormData();
    body.set("intent", TEXT_FROM_FILE.intent);
    body.set(TEXT_FROM_FILE.field, new File([new Uint8Array(bytes)], name));
    return body;
  };

  test("text for review; the spec's warning for another type; a scan read by OCR, polled as the page would", async () => {
    const h = await harness();
    const api = createApi(testContext(h.up), { token: h.adminToken });

    expect(await textFromFileAction(api, form(Buffer.from("Plain notes\n"), "notes.txt"))).toEqual({ status: "done", name: "notes.txt", text: "Plain notes\n" });
    expect(await textFromFileAction(api, form(Buffer.from("<svg/>"), "drawing.svg"))).toEqual({ status: "error", message: CONVERTER_MESSAGES.invalidTextFile });
    const layered = await textFromFileAction(api, form(textPdf(LINES), "typed.pdf"));
    expect(layered.status === "done" && layered.text).toContain("Pack my box with five dozen liquor jugs.");

    const scan = scannedPdf(renderPage(textPdf(LINES), dir, 300, "pgm"));
    let state: TextFromFileState | null = await textFromFileAction(api, form(scan, "scan.pdf"));
    expect(state).toMatchObject({ status: "ocr", name: "scan.pdf", tries: 0 });
    for (let tries = 1; state?.status === "ocr" && tries <= OCR_POLL.tries; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const url = new URL(`http://app.test/page?${TEXT_FROM_FILE.jobParam}=${state.jobId}&${TEXT_FROM_FILE.tryParam}=${tries}&${TEXT_FROM_FILE.nameParam}=scan.pdf`);
      state = await textFromFilePoll(api, url);
    }
    expect(state?.status).toBe("done");
    expect(wordRecall(LINES.join("\n"), state?.status === "done" ? state.text : "")).toBeGreaterThanOrEqual(0.95);

    // No job named: nothing to poll; a job that is not the caller's (or none) is not found.
    expect(await textFromFilePoll(api, new URL("http://app.test/page"))).toBeNull();
    const unknown = await textFromFilePoll(api, new URL(`http://app.test/page?${TEXT_FROM_FILE.jobParam}=nope&${TEXT_FROM_FILE.tryParam}=3`));
    expect(unknown).toEqual({ status: "error", message: CONVERTER_MESSAGES.jobNotFound });
  }, 120_000);
});
