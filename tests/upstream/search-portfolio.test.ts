import { describe, expect, it } from "vitest";
import { PORTFOLIO_MESSAGES, type Application, type ImportJob, type ReindexJob, type SearchResponse, type TagCount } from "@contract/portfolio";
import { harness, message, type Harness } from "./helpers";

/** The portfolio's calls around the engine: tag counts, CSV import and export, reindex, GET /api/search. */

const create = async (h: Harness, body: Record<string, unknown>) => {
  const res = await h.call("POST", "/api/applications", { token: h.adminToken, body });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Application;
};
const change = (h: Harness, id: string, body: Record<string, unknown>) =>
  h.call("PUT", `/api/applications/${encodeURIComponent(id)}`, { token: h.adminToken, body: { applicationId: id, ...body } });
const counts = async (h: Harness, portfolioId = "public") =>
  (await (await h.call("GET", `/api/portfolio/tags?portfolioId=${portfolioId}`, { token: h.adminToken })).json()) as TagCount[];
const organization = async (h: Harness, name: string) =>
  ((await (await h.call("POST", "/api/organizations", { token: h.adminToken, body: { name } })).json()) as { id: string }).id;
const get = async (h: Harness, url: string) => {
  const res = await h.call("GET", url, { token: h.adminToken });
  return { status: res.status, body: (await res.json()) as SearchResponse & { message?: string } };
};
const importCsv = async (h: Harness, csv: string, portfolioId?: string) => {
  const res = await h.call("POST", "/api/applications/csv?wait=true", {
    token: h.adminToken,
    body: { csvFileData: Buffer.from(csv, "utf8").toString("base64"), ...(portfolioId ? { portfolioId } : {}) },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as ImportJob;
};

describe("tag counts per portfolio (spec 2 §4)", () => {
  it("add increments, replacing a score keeps the count, remove decrements, the entry goes at zero; per portfolio", async () => {
    const h = await harness();
    const org = await organization(h, "Acme");
    await create(h, { id: "P1", tags: [{ name: "alpha", score: 1 }] });
    await create(h, { id: "P2" });
    await create(h, { id: "O1", portfolioId: org, tags: [{ name: "alpha", score: 1 }] });
    expect(await counts(h)).toEqual([{ name: "alpha", count: 1 }]);
    expect(await counts(h, org)).toEqual([{ name: "alpha", count: 1 }]);

    expect((await change(h, "P2", { action: "addTag", tag: "alpha", score: 0.5 })).status).toBe(200);
    expect(await counts(h)).toEqual([{ name: "alpha", count: 2 }]);
    const replaced = await change(h, "P2", { action: "addTag", tag: "alpha", score: 0.9 });
    expect(((await replaced.json()) as Application).tags).toEqual([{ name: "alpha", score: 0.9 }]);
    expect(await counts(h)).toEqual([{ name: "alpha", count: 2 }]);
    expect(await counts(h, org)).toEqual([{ name: "alpha", count: 1 }]);

    expect((await change(h, "P1", { action: "removeTag", tag: "alpha" })).status).toBe(200);
    expect(await counts(h)).toEqual([{ name: "alpha", count: 1 }]);
    expect((await change(h, "P2", { action: "removeTag", tag: "alpha" })).status).toBe(200);
    expect(await counts(h)).toEqual([]);
    expect(await counts(h, org)).toEqual([{ name: "alpha", count: 1 }]);

    const missing = await change(h, "P2", { action: "removeTag", tag: "alpha" });
    expect(missing.status).toBe(404);
    const unknown = await change(h, "NOPE", { action: "addTag", tag: "x", score: 0 });
    expect(unknown.status).toBe(404);
    expect(await message(unknown)).toBe(`${PORTFOLIO_MESSAGES.notFound} NOPE`);
    expect((await change(h, "P2", { action: "addTag", tag: "a;b", score: 0 })).status).toBe(400);
  });

  it("the facet without a query is the counts; with a query, the matches' tags", async () => {
    const h = await harness();
    await create(h, { id: "F1", title: "gear", tags: [{ name: "x", score: 0 }, { name: "y", score: 0 }] });
    await create(h, { id: "F2", title: "pump", tags: [{ name: "x", score: 0 }] });
    expect((await get(h, "/api/search")).body.aggs.tags!.buckets).toEqual([
      { key: "x", doc_count: 2 },
      { key: "y", doc_count: 1 },
    ]);
    expect((await get(h, "/api/search?query=pump")).body.aggs.tags!.buckets).toEqual([{ key: "x", doc_count: 1 }]);
  });

  it("a page that holds every match counts its hits' tags as a page that does not: most first, ties by code point", async () => {
    const h = await harness();
    // U+1F600 comes before U+FF5A in UTF-16 units (a surrogate pair), after it by code point, as SQLite orders names.
    const names = ["\u{1F600}", "\uFF5A", "b", "B"];
    for (const [i, name] of names.entries()) await create(h, { id: `T${i}`, title: "gear", tags: [{ name, score: 0 }, { name: "all", score: 0 }] });
    await create(h, { id: "T9", title: "pump", tags: [{ name: "b", score: 0 }] });
    const facet = async (size: number) => {
      const res = await h.call("POST", "/api/search/advanced", {
        token: h.adminToken,
        body: { query: { match: { title: "gear" } }, size, aggs: { tags: { terms: { field: "tags.name", size: 10 } } } },
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as SearchResponse;
      expect(body.data).toHaveLength(Math.min(size, 4));
      return body.aggs.tags!.buckets;
    };
    const expected = [{ key: "all", doc_count: 4 }, ...["B", "b", "\uFF5A", "\u{1F600}"].map((key) => ({ key, doc_count: 1 }))];
    expect(await facet(10)).toEqual(expected);
    expect(await facet(1)).toEqual(expected);
  });
});

describe("CSV import", () => {
  it("reports each rejected row with its line and reason, imports the rest, and is idempotent by id", async () => {
    const h = await harness();
    const csv = [
      "id,title,abstract,tags,broadScore",
      "C1,Gear train,A gear train.,drive:0.5;gear:1,10",
      ",No id,,,",
      "C2,Pump,A pump.,bad;tag:x,",
      "C3,Valve,A valve.,,not-a-number",
      'C4,"Quoted, title",An abstract.,,',
    ].join("\n");
    const job = await importCsv(h, csv);
    expect(job.status).toBe("completed");
    expect(job.updated).toBe(2);
    expect(job.updatedIds).toEqual(["C1", "C4"]);
    expect(job.rejected.map((r) => r.line)).toEqual([3, 4, 5]);
    expect(job.rejectedTotal).toBe(3);
    expect(job.rejected[0]!.reason).toMatch(/id/i);
    expect(job.rejected[2]!.reason).toContain("broadScore");
    const c1 = (await (await h.call("GET", "/api/search/C1", { token: h.adminToken })).json()) as Application;
    expect(c1).toMatchObject({ title: "Gear train", broadScore: 10, tags: [{ name: "drive", score: 0.5 }, { name: "gear", score: 1 }] });
    expect(await counts(h)).toEqual([
      { name: "drive", count: 1 },
      { name: "gear", count: 1 },
    ]);

    // The same file again: the same applications (no duplicates, counts unchanged); a changed row replaces its columns.
    await importCsv(h, csv);
    expect((await get(h, "/api/search")).body.total).toBe(2);
    expect(await counts(h)).toEqual([
      { name: "drive", count: 1 },
      { name: "gear", count: 1 },
    ]);
    const again = await importCsv(h, "id,tags\nC1,gear:2");
    expect(again.updated).toBe(1);
    const after = (await (await h.call("GET", "/api/search/C1", { token: h.adminToken })).json()) as Application;
    // A tags cell adds or re-scores tags, never removes one (as Add tag does): the counts stay.
    expect(after).toMatchObject({ title: "Gear train", tags: [{ name: "drive", score: 0.5 }, { name: "gear", score: 2 }] });
    expect(await counts(h)).toEqual([
      { name: "drive", count: 1 },
      { name: "gear", count: 1 },
    ]);
  });

  it("answers 400 at once for a file without an id column or that is not base64 CSV", async () => {
    const h = await harness();
    const noId = await h.call("POST", "/api/applications/csv", {
      token: h.adminToken,
      body: { csvFileData: Buffer.from("title\nx", "utf8").toString("base64") },
    });
    expect(noId.status).toBe(400);
    expect(await message(noId)).toMatch(/id/);
    expect((await h.call("POST", "/api/applications/csv", { token: h.adminToken, body: {} })).status).toBe(400);
  });
});

describe("reindex, GET /api/search, CSV export", () => {
  it("reindex rebuilds the index and the counts, reporting progress", async () => {
    const h = await harness();
    await create(h, { id: "R1", title: "Sprocket", tags: [{ name: "k", score: 0 }] });
    await create(h, { id: "R2", title: "Flywheel" });
    const res = await h.call("POST", "/api/applications/reindex?wait=true", { token: h.adminToken });
    expect(res.status).toBe(200);
    const job = (await res.json()) as ReindexJob;
    expect(job).toMatchObject({ status: "completed", processed: 2, total: 2 });
    expect((await (await h.call("GET", "/api/applications/reindex", { token: h.adminToken })).json()) as ReindexJob).toMatchObject({ id: job.id });
    expect((await get(h, "/api/search?query=sprocket")).body.data.map((d) => d.id)).toEqual(["R1"]);
    expect(await counts(h)).toEqual([{ name: "k", count: 1 }]);
  });

  it("GET /api/search: query, size, from, sort, portfolioId, repeated tags; bad params are 400", async () => {
    const h = await harness();
    const org = await organization(h, "Globex");
    for (let i = 1; i <= 5; i++) {
      await create(h, { id: `G${i}`, title: `Gear number ${i}`, broadScore: i * 10, tags: i % 2 ? [{ name: "odd", score: 0 }, { name: "g", score: 0 }] : [{ name: "g", score: 0 }] });
    }
    await create(h, { id: "X1", title: "Gear elsewhere", portfolioId: org });
    const all = await get(h, "/api/search?query=gear");
    expect(all.body.total).toBe(5);
    expect(all.body.data[0]).not.toHaveProperty("claims");
    expect(all.body.data[0]!.highlight.title![0]).toContain("<em>Gear</em>");
    const page = await get(h, "/api/search?query=gear&sort=broadScore:desc&size=2&from=1");
    expect(page.body.data.map((d) => d.id)).toEqual(["G4", "G3"]);
    expect((await get(h, "/api/search?tags=odd&tags=g&sort=id")).body.data.map((d) => d.id)).toEqual(["G1", "G3", "G5"]);
    expect((await get(h, `/api/search?portfolioId=${org}`)).body.data.map((d) => d.id)).toEqual(["X1"]);
    expect((await get(h, "/api/search?portfolioId=nope")).status).toBe(404);
    expect((await get(h, "/api/search?size=501")).status).toBe(400);
    expect((await get(h, "/api/search?sort=claims")).status).toBe(400);
    const bad = await get(h, "/api/search?query=" + encodeURIComponent("title:(gear"));
    expect(bad.status).toBe(400);
    expect((await get(h, "/api/search/G2")).body).toMatchObject({ id: "G2", claims: "" });
    expect((await get(h, "/api/search/NOPE")).status).toBe(404);
  });

  it("CSV export: a downloadUrl for the same user, streaming the matching rows as CSV", async () => {
    const h = await harness();
    await create(h, { id: "E1", title: "Export me, please", tags: [{ name: "e", score: 1 }] });
    await create(h, { id: "E2", title: "Not this one" });
    const res = await h.call("GET", "/api/search/csv?query=export", { token: h.adminToken });
    expect(res.status).toBe(200);
    const { downloadUrl } = (await res.json()) as { downloadUrl: string };
    expect(downloadUrl).toMatch(/^\/search\/exports\/[\w-]+$/);
    const file = await h.call("GET", `/api${downloadUrl}`, { token: h.adminToken });
    expect(file.headers.get("content-type")).toContain("text/csv");
    expect(file.headers.get("content-disposition")).toMatch(/^attachment; filename="portfolio-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await file.text()).trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^id,sourceId,portfolioId,title/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('E1,,public,"Export me, please"');
    expect(lines[1]).toContain("e:1");

    const other = await h.createUser({ email: "reader@example.com" });
    await h.call("PATCH", `/api/auth/users/${other.id}`, { token: h.adminToken, body: { id: other.id, permissions: ["portfolio.read"] } });
    const token = await h.login("reader@example.com", "secret1");
    expect((await h.call("GET", `/api${downloadUrl}`, { token })).status).toBe(404);

    const advanced = await h.call("POST", "/api/search/advanced/csv", { token: h.adminToken, body: { query: { ids: { values: ["E2"] } } } });
    const url = ((await advanced.json()) as { downloadUrl: string }).downloadUrl;
    const text = await (await h.call("GET", `/api${url}`, { token: h.adminToken })).text();
    expect(text.trim().split(/\r?\n/).slice(1).map((l) => l.split(",")[0])).toEqual(["E2"]);
    expect((await h.call("POST", "/api/search/advanced/csv", { token: h.adminToken, body: { query: { nope: {} } } })).status).toBe(400);
    expect((await h.call("GET", "/api/search/csv?size=10001", { token: h.adminToken })).status).toBe(400);
  });
});
