import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { CONVERTER_MESSAGES } from "@contract/converters";
import { patentDocx } from "../fixtures/docx";
import { docxBomb } from "../helpers/zip";
import { harness, message, type Harness } from "./helpers";
import { billionLaughsDocx, blankPdf, converterSuite, postFiles } from "./converters-files";

const suite = converterSuite("converters-hostile.test.ts");


/** Pings the upstream every 20 ms while `work` runs: the slowest answer (the server must keep answering). */
async function whileAnswering<T>(
  h: Harness,
  work: () => Promise<T>,
): Promise<{ result: T; slowest: number; p99: number; pings: number; times: number[] }> {
  let done = false;
  const times: number[] = [];
  // One answer first, so that the figures are of the server under attack, not of its first statement.
  await h.call("GET", "/api/auth/users?limit=1", { token: h.adminToken });
  const pinger = (async () => {
    while (!done) {
      const start = performance.now();
      await h.call("GET", "/api/auth/users?limit=1", { token: h.adminToken });
      times.push(performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    const result = await work();
    const sorted = [...times].sort((a, b) => a - b);
    const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
    return { result, slowest: Math.max(0, ...times), p99, pings: times.length, times };
  } finally {
    done = true;
    await pinger;
  }
}

// Timings of the server under attack: this file runs with the timed ones (vitest.config.ts), one file at a time.
suite("converters under attack", () => {
  let h: Harness;
  let docx: Buffer;
  let dir: string;
  // A never-ending "LibreOffice": the pool and the time limit must cope.
  let hang: string;

  // Files shared by the tests live in a directory of this suite (tempDir() and harness() are cleaned after each test).
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "converters-hostile-"));
    hang = path.join(dir, "hang.sh");
    // It records its own pid and its child's, so the test can see that both are gone.
    fs.writeFileSync(hang, `#!/bin/sh\necho $$ > "${hang}.pids"\nsleep 600 &\necho $! >> "${hang}.pids"\nwait\n`, { mode: 0o755 });
    docx = await patentDocx({ pages: 1 });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  beforeEach(async () => {
    h = await harness();
  });

  test("hostile files get the failure text in bounded time while the server answers: zip bomb, billion laughs, 2,000 pages", async () => {
    const bomb = await docxBomb(200 * 1024 * 1024);
    const laughs = billionLaughsDocx();
    const thousands = blankPdf(2_000);
    const cases: [string, Buffer, string, string][] = [
      ["/api/converters/office2txt", bomb, "bomb.docx", CONVERTER_MESSAGES.extractOffice],
      ["/api/converters/office2pdf", bomb, "bomb.docx", CONVERTER_MESSAGES.convertOffice],
      ["/api/converters/office2txt", laughs, "laughs.docx", CONVERTER_MESSAGES.extractOffice],
      ["/api/converters/office2pdf", laughs, "laughs.docx", CONVERTER_MESSAGES.convertOffice],
      ["/api/converters/office2txt", thousands, "long.pdf", CONVERTER_MESSAGES.extractOffice],
      ["/api/hub-pdf/convert/toimages", thousands, "long.pdf", CONVERTER_MESSAGES.convertMany],
    ];
    const all: number[] = [];
    for (const [url, bytes, name, expected] of cases) {
      const started = performance.now();
      const { result, slowest, p99, pings, times } = await whileAnswering(h, () => postFiles(h, url, [["file", bytes, name]]));
      all.push(...times);
      const took = performance.now() - started;
      console.log(`${url} ${name}: ${result.status} in ${took.toFixed(0)} ms; ${pings} answers meanwhile, p99 ${p99.toFixed(1)} ms, slowest ${slowest.toFixed(1)} ms`);
      expect([url, name, result.status, await message(result)]).toEqual([url, name, 400, expected]);
      expect(took, `${url} ${name}`).toBeLessThan(5_000);
      expect(slowest, `${url} ${name}: slowest answer meanwhile`).toBeLessThan(250);
    }
    // Each case is short (a few answers): the p99 is of all the answers given during the six.
    all.sort((a, b) => a - b);
    const p99 = all[Math.min(all.length - 1, Math.floor(all.length * 0.99))] ?? 0;
    console.log(`answers during the hostile requests: ${all.length}, p99 ${p99.toFixed(1)} ms`);
    expect(p99).toBeLessThanOrEqual(100);
  }, 60_000);

  test("a converter that never exits is killed at its time limit; a full pool answers 503", async () => {
    const slow = await harness({
      converters: { commands: { soffice: hang }, limits: { officeMs: 1_500, concurrency: 1, queue: 0 } },
    });
    const started = performance.now();
    const { result, slowest, p99, pings } = await whileAnswering(slow, async () => {
      const first = postFiles(slow, "/api/converters/office2pdf", [["file", docx, "a.docx"]], slow.adminToken);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const second = await postFiles(slow, "/api/converters/office2pdf", [["file", docx, "b.docx"]], slow.adminToken);
      expect([second.status, await message(second)]).toEqual([503, CONVERTER_MESSAGES.busy]);
      return first;
    });
    expect([result.status, await message(result)]).toEqual([400, CONVERTER_MESSAGES.convertOffice]);
    const took = performance.now() - started;
    console.log(`a converter that never exits: 400 in ${took.toFixed(0)} ms; ${pings} answers meanwhile, p99 ${p99.toFixed(1)} ms, slowest ${slowest.toFixed(1)} ms`);
    expect(took).toBeLessThan(5_000);
    expect(pings).toBeGreaterThan(10);
    expect(p99).toBeLessThanOrEqual(100);
    expect(slowest).toBeLessThan(250);
    // Nothing of the run is left: no sleeping "LibreOffice" survives its group.
    const pids = fs.readFileSync(`${hang}.pids`, "utf8").trim().split("\n").map(Number);
    expect(pids).toHaveLength(2);
    // Gone, or a zombie waiting for its reaper (state Z): either way it runs no more.
    const alive = (pid: number) => {
      try {
        return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
      } catch {
        return false;
      }
    };
    expect(pids.filter(alive)).toEqual([]);
  }, 30_000);
});
