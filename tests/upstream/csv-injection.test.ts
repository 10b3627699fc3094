import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { csvCell, csvCellValue } from "@contract/csv";
import type { Application, ImportJob } from "@contract/portfolio";
import { HOSTILE, runs } from "../helpers/csv";
import { harness, type Harness } from "./helpers";

/**
 * CSV formula injection (OWASP): every CSV the upstream writes escapes a text cell that a spreadsheet would run, and
 * importing an exported file gives back the same values. The app's own CSV files: tests/app/csv-injection.test.ts.
 */

const records = (text: string) => parse(text, { relax_column_count: true }) as string[][];

describe("csvCell / csvCellValue", () => {
  it("escapes the formula starts (OWASP), leaves other text and numbers alone, and is undone exactly", () => {
    for (const value of HOSTILE) {
      expect(runs(csvCell(value)), JSON.stringify(value)).toBe(false);
      expect(csvCellValue(csvCell(value))).toBe(value);
    }
    expect(csvCell("=1+1")).toBe("'=1+1");
    expect(csvCell("'=1+1")).toBe("''=1+1");
    expect(csvCell("-5")).toBe("'-5"); // a text that looks like a number is escaped too
    expect(csvCell(-0.5)).toBe("-0.5"); // a number stays a number
    expect(csvCell(3)).toBe("3");
    expect(csvCell(null)).toBe("");
    for (const plain of ["", "plain", "'tis", "a=b", "x-y", "''", "'"]) {
      expect(csvCell(plain)).toBe(plain);
      expect(csvCellValue(plain)).toBe(plain);
    }
  });
});

async function hostileApplications(h: Harness): Promise<Application[]> {
  const made: Application[] = [];
  for (const [i, bad] of HOSTILE.entries()) {
    // Single-line fields refuse a tab or CR; the multi-line ones take them.
    const line = bad.replace(/^[\t\r]/, "");
    const res = await h.call("POST", "/api/applications", {
      token: h.adminToken,
      body: {
        id: `X${i}`,
        source: { id: line },
        title: line,
        abstract: bad,
        claims: bad,
        specification: bad,
        aiSummary: "",
        tags: [{ name: line.replace(/[;,]/g, " "), score: -1 }],
        broadScore: -0.5,
        detectableScore: null,
      },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    made.push((await res.json()) as Application);
  }
  return made;
}

async function download(h: Harness, answer: Response): Promise<string> {
  expect(answer.status).toBe(200);
  const { downloadUrl } = (await answer.json()) as { downloadUrl: string };
  const file = await h.call("GET", `/api${downloadUrl}`, { token: h.adminToken });
  expect(file.status).toBe(200);
  return file.text();
}

describe("the API's CSV export", () => {
  it("writes no cell a spreadsheet would run (simple and advanced export), and the import gives the same values back", async () => {
    const h = await harness();
    const apps = await hostileApplications(h);
    const simple = await download(h, await h.call("GET", "/api/search/csv", { token: h.adminToken }));
    const advanced = await download(
      h,
      await h.call("POST", "/api/search/advanced/csv", { token: h.adminToken, body: { query: { match_all: {} } } }),
    );
    for (const text of [simple, advanced]) {
      const rows = records(text);
      expect(rows.length).toBe(HOSTILE.length + 1);
      const running = rows.flat().filter(runs);
      expect(running, `${running.length} of ${rows.flat().length} cells run`).toEqual([]);
      // Numbers are written as numbers: a negative score is not escaped.
      expect(rows.slice(1).every((r) => r[rows[0]!.indexOf("broadScore")] === "-0.5")).toBe(true);
    }

    // Round trip: the exported file imported into an empty upstream gives back every value.
    const fresh = await harness();
    const res = await fresh.call("POST", "/api/applications/csv?wait=true", {
      token: fresh.adminToken,
      body: { csvFileData: Buffer.from(simple, "utf8").toString("base64") },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const job = (await res.json()) as ImportJob;
    expect(job.rejected).toEqual([]);
    expect(job.updated).toBe(HOSTILE.length);
    for (const before of apps) {
      const got = await fresh.call("GET", `/api/search/${encodeURIComponent(before.id)}`, { token: fresh.adminToken });
      const after = (await got.json()) as Application;
      const fields = (a: Application) => ({
        source: a.source,
        title: a.title,
        abstract: a.abstract,
        claims: a.claims,
        specification: a.specification,
        tags: a.tags,
        broadScore: a.broadScore,
        detectableScore: a.detectableScore,
      });
      expect(fields(after)).toEqual(fields(before));
    }
  });
});
