import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { appAsAdmin, uniq } from "../helpers/app";
import { HOSTILE, runs } from "../helpers/csv";

/**
 * CSV formula injection (OWASP): every CSV file the back office serves — the portfolio's export, categorization's (the
 * advanced export), the import's sample and rejected rows — carries no cell a spreadsheet would run.
 */

const { app, admin } = appAsAdmin();

async function seed(prefix: string): Promise<void> {
  for (const [i, bad] of HOSTILE.entries()) {
    const line = bad.replace(/^[\t\r]/, "");
    const id = `${prefix}-${i}`;
    const r = await app.adminApi("POST", "/api/applications", {
      id,
      source: { id: line },
      // The prefix is a word of the title: the searches below find these applications only.
      title: `${line} ${prefix}`,
      abstract: bad,
      claims: bad,
      specification: bad,
      tags: [{ name: line.replace(/[;,]/g, " "), score: 1 }],
    });
    expect(r.status, await r.clone().text()).toBe(201);
  }
}

/**
 * The file's cells that would run in a spreadsheet, after checking it is a CSV answer with `rows` data rows. A
 * download that starts with a redirect (to the file's link) is followed, as a browser does.
 */
async function running(first: Response, rows?: number): Promise<string[]> {
  let answer = first;
  for (let hops = 0; hops < 3 && answer.status >= 300 && answer.status < 400; hops++) {
    answer = await admin.get(answer.headers.get("Location")!);
  }
  expect(answer.status, await answer.clone().text()).toBe(200);
  expect(answer.headers.get("Content-Type")).toMatch(/text\/csv/);
  const records = parse(await answer.text(), { relax_column_count: true }) as string[][];
  if (rows !== undefined) expect(records.length - 1).toBe(rows);
  return records.flat().filter(runs);
}

describe("every CSV file of the back office escapes formulas", () => {
  it("/portfolio/csv and /categorization/csv (a saved query's: the advanced export)", async () => {
    const prefix = `F${uniq()}`;
    await seed(prefix);
    const n = HOSTILE.length;
    expect(await running(await admin.get(`/portfolio/csv?qs=${prefix}`), n)).toEqual([]);
    const text = JSON.stringify({ query: { query_string: { query: prefix, fields: ["title"] } } });
    const saved = await app.adminApi("POST", "/api/categorization/queries", { name: `Q ${prefix}`, tags: [], text });
    expect(saved.status, await saved.clone().text()).toBe(201);
    const { id } = (await saved.json()) as { id: string };
    expect(await running(await admin.get(`/categorization/csv?query=${id}`), n)).toEqual([]);
  });

  it("the import's sample and rejected rows", async () => {
    expect(await running(await admin.get("/portfolio/import/sample.csv"))).toEqual([]);
    const csv = [
      "id,title,tags,broadScore",
      `=1+1,x,"=cmd|' /C calc'!A0:abc",`,
      `@x,x,,-nope`,
      `"-2+3",x,,`,
    ].join("\n");
    const up = await admin.postMultipart("/portfolio/import", { file: new File([csv], "apps.csv", { type: "text/csv" }) });
    expect(up.status).toBe(302);
    const job = new URL(up.headers.get("Location")!, "http://x").searchParams.get("job")!;
    for (let i = 0; i < 50; i++) {
      const state = (await (await app.adminApi("GET", `/api/applications/csv/${job}`)).json()) as { status: string };
      if (state.status !== "running") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await running(await admin.get(`/portfolio/import/${job}/rejected.csv`))).toEqual([]);
  });
});
