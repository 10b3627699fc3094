import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSV_DOWNLOAD_SIZE, TRACK_TOTAL_HITS } from "@contract/portfolio-constants";
import { seedPortfolio } from "../../upstream/src/applications/demo";
import { openDatabase } from "../../upstream/src/db";
import { PORTFOLIO } from "~/portfolio/texts";
import { ADMIN, startApp, type Browser, type TestApp } from "../helpers/app";

/**
 * /portfolio's total past TRACK_TOTAL_HITS (docs/decisions/search-engine.md "Counting"): "More than 10,000
 * applications" and a 'Count all' link, whose URL (`count=all`) gets the exact figure; and the facet of a search
 * past the engine's facet sample (20,000 matches), counted over its first 1,000 results. Its own app: 34,000 demo
 * applications, 20,400 of them public, every one with "comprising" in its claims.
 */
let app: TestApp;
let admin: Browser;

beforeAll(async () => {
  app = await startApp((dir) => {
    const db = openDatabase(dir);
    seedPortfolio(db, { count: 34_000, now: () => Date.UTC(2026, 0, 1) });
    db.close();
  });
  admin = app.browser();
  await admin.signIn(ADMIN.email, ADMIN.password);
}, 60_000);
afterAll(() => app?.close());

const INDEX = "_data=routes%2F_app.portfolio._index";
type PageData = {
  total: number;
  totalIsMore: boolean;
  rows: unknown[];
  params: { countAll: boolean };
  facet: { buckets: { key: string; doc_count: number }[]; sampled: number | null };
};
const data = async (qs: string) => {
  const r = await admin.get(`/portfolio?${INDEX}&${qs}`);
  expect(r.status).toBe(200);
  return (await r.json()) as PageData;
};

describe("/portfolio: a total past what a search counts", () => {
  it("says 'More than 10,000 applications' with a 'Count all' link; count=all shows the exact total", async () => {
    const broad = await data("qs=comprising&size=50");
    expect(broad).toMatchObject({ total: TRACK_TOTAL_HITS, totalIsMore: true, params: { countAll: false } });
    expect(broad.rows).toHaveLength(50);
    const html = await (await admin.get("/portfolio?qs=comprising&size=50")).text();
    expect(html).toContain(PORTFOLIO.totalMore(TRACK_TOTAL_HITS));
    expect(html).toContain(`href="/portfolio?qs=comprising&amp;size=50&amp;count=all"`);
    expect(html).toContain(PORTFOLIO.countAll);
    // The CSV export stops at CSV_DOWNLOAD_SIZE rows: said beside 'download csv', before the download.
    expect(html).toContain(PORTFOLIO.csvCap(CSV_DOWNLOAD_SIZE));
    expect(html).toContain(`aria-describedby="csv-cap"`);

    const all = await data("qs=comprising&size=50&count=all");
    expect(all).toMatchObject({ total: 20_400, totalIsMore: false, params: { countAll: true } });
    const exact = await (await admin.get("/portfolio?qs=comprising&size=50&count=all")).text();
    expect(exact).toContain(PORTFOLIO.total(20_400));
    expect(exact).not.toContain(PORTFOLIO.countAll);
    expect(exact).toContain(PORTFOLIO.csvCap(CSV_DOWNLOAD_SIZE));

    // The whole portfolio, no query: the maintained counts are exact at any size.
    expect(await data("")).toMatchObject({ total: 20_400, totalIsMore: false });
    // Within the tracked count: exact.
    expect(await data("qs=thermoluminide")).toMatchObject({ totalIsMore: false });
  });

  it("a facet past 20,000 matches counts the first 1,000 results, and says so", async () => {
    const broad = await data("qs=comprising&size=50");
    expect(broad.facet.sampled).toBe(1000);
    const counted = broad.facet.buckets.reduce((sum, b) => sum + b.doc_count, 0);
    expect(counted).toBeGreaterThan(0);
    // No application carries a tag twice: no bucket can pass the results counted.
    expect(Math.max(...broad.facet.buckets.map((b) => b.doc_count))).toBeLessThanOrEqual(1000);
    const html = await (await admin.get("/portfolio?qs=comprising&size=50")).text();
    expect(html).toContain(PORTFOLIO.facetSampled(1000));
    // A few matches: every one counted, no note.
    const rare = await data("qs=thermoluminide");
    expect(rare.facet.sampled).toBeNull();
    const rareHtml = await (await admin.get("/portfolio?qs=thermoluminide")).text();
    expect(rareHtml).not.toContain("Counts from the first");
    // Within what the CSV holds: no note about it.
    expect(rareHtml).not.toContain(PORTFOLIO.csvCap(CSV_DOWNLOAD_SIZE));
  });
});
