import { describe, expect, it } from "vitest";
import { LIMIT_MESSAGES } from "@contract/limits";
import { APPLICATION_LIMITS } from "@contract/portfolio-constants";
import { parsePortfolioParams, portfolioUrl } from "~/portfolio/params";
import { applicationJsonProblem } from "~/portfolio/schema";
import { PORTFOLIO } from "~/portfolio/texts";
import { appAsAdmin, uniq } from "../helpers/app";

const { app, admin } = appAsAdmin();

const V = PORTFOLIO.validation;
const T = PORTFOLIO.toasts;
const INDEX = "_data=routes%2F_app.portfolio._index";
const ADD = "/portfolio/add?_data=routes%2F_app.portfolio.add";

type Row = { id: string; tags: { name: string; score: number }[]; summaryHtml: string; titleHtml: string; products: { name: string }[] };
type PageData = {
  rows: Row[];
  total: number;
  facet: { buckets: { key: string; doc_count: number }[] };
  params: { qs: string; portfolio: string; size: number };
  may: { write: boolean };
  error: { message: string; detail: string | null } | null;
};

/** Creates an application through the New Application screen; answers its id. */
async function create(extra: Record<string, unknown> = {}): Promise<string> {
  const id = `T-${uniq()}`;
  const r = await admin.post("/portfolio/add", { application: JSON.stringify({ id, title: `Widget ${id}`, ...extra }) });
  expect(r.status, await r.clone().text()).toBe(302);
  expect(r.headers.get("Location")).toBe("/portfolio");
  return id;
}

async function search(qs: string): Promise<PageData> {
  const r = await admin.get(`/portfolio?${INDEX}&${qs}`);
  expect(r.status).toBe(200);
  return (await r.json()) as PageData;
}

const fieldErrors = async (r: Response) => ((await r.json()) as { error: Record<string, string[]> }).error;

describe("portfolio URL parameters", () => {
  it("fall back to the defaults, bound tags and from, and round-trip through portfolioUrl", () => {
    const p = parsePortfolioParams(new URLSearchParams("qs=%20battery%20&size=7&from=-3&tags=a&tags=a&tags=b%3Bc&tags=d"));
    expect(p).toMatchObject({ qs: "battery", size: 250, from: 0, tags: ["a", "d"], portfolio: "public", more: false });
    expect(parsePortfolioParams(new URLSearchParams("size=50&from=20000")).from).toBe(9950);
    const url = portfolioUrl({ ...p, size: 100, from: 100, portfolio: "org-1", more: true });
    expect(url).toBe("/portfolio?qs=battery&portfolio=org-1&tags=a&tags=d&size=100&from=100&more=tags");
    expect(parsePortfolioParams(new URL(url, "http://x").searchParams)).toMatchObject({ size: 100, from: 100, portfolio: "org-1", more: true });
  });

  it("the New Application rule: parses, an object, a non-empty string id", () => {
    expect(applicationJsonProblem("{")).toMatch(/^The text is not valid JSON/);
    expect(applicationJsonProblem("[]")).toBe(PORTFOLIO.add.notObject);
    expect(applicationJsonProblem('{"id": "  "}')).toBe(PORTFOLIO.add.needsId);
    expect(applicationJsonProblem('{"id": 5}')).toBe(PORTFOLIO.add.needsId);
    expect(applicationJsonProblem('{"id": "US1"}')).toBeNull();
  });
});

describe("portfolio screens", () => {
  it("New Application: refuses bad JSON with the spec's text and keeps it; saves and lists the application", async () => {
    const bad = await admin.post(ADD, { application: '{"title": "no id"' });
    expect(bad.status).toBe(400);
    const errors = await fieldErrors(bad);
    expect(errors.application?.[0]).toBe(V.createFailed);
    const noId = await admin.post(ADD, { application: '{"title": "no id"}' });
    expect((await fieldErrors(noId)).application).toEqual([V.createFailed, PORTFOLIO.add.needsId]);
    const id = await create({ tags: [{ name: "alpha", score: 1 }] });
    const html = await (await admin.get("/portfolio")).text();
    expect(html).toContain(T.created);
    expect(html).toContain(id);
    // The same id again: the upstream's 409 message, the text typed kept.
    const again = await admin.post(ADD, { application: JSON.stringify({ id }) });
    expect(again.status).toBe(409);
    const body = (await again.json()) as { error: Record<string, string[]>; initialValue: Record<string, string> };
    expect(body.error[""]?.[0]).toBe(V.createFailed);
    expect(body.initialValue.application).toContain(id);
  });

  it("search: the query, the tag facet and the page size are read from the URL", async () => {
    const word = `zq${uniq()}`;
    const a = await create({ abstract: `A ${word} device`, tags: [{ name: `facet-${word}`, score: 0 }] });
    await create({ abstract: `Another ${word} device` });
    const found = await search(`qs=${word}&size=50`);
    expect(found.total).toBe(2);
    expect(found.params.size).toBe(50);
    expect(found.facet.buckets).toContainEqual({ key: `facet-${word}`, doc_count: 1 });
    const tagged = await search(`qs=${word}&tags=facet-${word}`);
    expect(tagged.rows.map((r) => r.id)).toEqual([a]);
    const html = await (await admin.get(`/portfolio?qs=${word}`)).text();
    expect(html).toMatch(new RegExp(`<mark>${word}</mark>`));
    const none = await (await admin.get(`/portfolio?qs=nothingmatches${uniq()}`)).text();
    expect(none).toContain(PORTFOLIO.empty.noResults);
  });

  it("search: a query past the contract's bounds is not searched; the page says why and keeps it in the box", async () => {
    for (const [query, message] of [
      ["x".repeat(APPLICATION_LIMITS.query + 1), LIMIT_MESSAGES.tooLong("Query", APPLICATION_LIMITS.query)],
      ["bad\u0001query", LIMIT_MESSAGES.badCharacters("Query")],
    ] as const) {
      const data = await admin.get(`/portfolio?${INDEX}&qs=${encodeURIComponent(query)}`);
      expect(data.status).toBe(400);
      const body = (await data.json()) as PageData;
      expect(body.params.qs).toBe(query);
      expect(body.rows).toEqual([]);
      expect(body.error).toEqual({ message: PORTFOLIO.searchFailed, detail: message });
      const html = await (await admin.get(`/portfolio?qs=${encodeURIComponent(query)}`)).text();
      expect(html).toContain(message);
      expect(/<input[^>]*name="qs"[^>]*>/.exec(html)?.[0]).toContain(`value="${query}"`);
    }
  });

  it("add tag: the §5 rules, unknown id, then 'Add Tag completed'", async () => {
    const id = await create({ tags: [{ name: "existing", score: 0 }] });
    const post = (fields: Record<string, string>) => admin.post(`/portfolio?${INDEX}&addTag=${id}`, { intent: "addTag", applicationId: id, ...fields });
    expect((await fieldErrors(await post({ tag: " " }))).tag).toEqual([V.tagRequired]);
    expect((await fieldErrors(await post({ tag: "a,b" }))).tag).toEqual([V.tagSeparators]);
    expect((await fieldErrors(await post({ tag: "a;b" }))).tag).toEqual([V.tagSeparators]);
    expect((await fieldErrors(await post({ tag: "existing" }))).tag).toEqual([V.tagExists]);
    expect((await fieldErrors(await post({ tag: "new", score: "abc" }))).score).toEqual(["Score must be a number"]);
    const unknown = await admin.post(`/portfolio?${INDEX}`, { intent: "addTag", applicationId: "NO-SUCH-ID", tag: "x" });
    expect(unknown.status).toBe(404);
    expect(JSON.stringify(await unknown.json())).toContain(`${V.notFound} NO-SUCH-ID`);
    const ok = await admin.post(`/portfolio?qs=x&addTag=${id}`, { intent: "addTag", applicationId: id, tag: "fresh" });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/portfolio?qs=x");
    expect(await (await admin.get("/portfolio?qs=x")).text()).toContain(T.addTagCompleted);
    const row = (await search("")).rows.find((r) => r.id === id)!;
    expect(row.tags).toContainEqual({ name: "fresh", score: 0 });
  });

  it("remove tag asks first, then removes with 'Remove Tag completed'", async () => {
    const id = await create({ tags: [{ name: "gone", score: 2 }] });
    const ask = await admin.post(`/portfolio?${INDEX}`, { intent: "removeTag", applicationId: id, tag: "gone" });
    expect(await ask.json()).toMatchObject({ confirm: "removeTag", applicationId: id, tag: "gone" });
    expect((await search("")).rows.find((r) => r.id === id)!.tags).toHaveLength(1);
    const done = await admin.post("/portfolio", { intent: "removeTag", applicationId: id, tag: "gone", confirmed: "yes" });
    expect(done.status).toBe(302);
    expect(await (await admin.get("/portfolio")).text()).toContain(T.removeTagCompleted);
    expect((await search("")).rows.find((r) => r.id === id)!.tags).toEqual([]);
  });

  it("edit fields: products need a name; the AI summary is sanitized when shown", async () => {
    const id = await create();
    const bad = await admin.post(`/portfolio?${INDEX}&edit=${id}`, { intent: "editFields", applicationId: id, "products[0].company": "Acme" });
    expect(bad.status).toBe(400);
    expect((await fieldErrors(bad))["products[0].name"]).toEqual([V.productNameRequired]);
    const ok = await admin.post("/portfolio", {
      intent: "editFields",
      applicationId: id,
      aiSummary: '<p onclick="x()">Good <strong>news</strong></p><script>alert(1)</script>',
      broadScore: "0.5",
      detectableScore: "",
      "products[0].name": "Gizmo",
      "products[0].company": "Acme",
      "products[0].source": "2",
      "products[0].isCompetitor": "on",
    });
    expect(ok.status).toBe(302);
    expect(await (await admin.get("/portfolio")).text()).toContain(T.editFieldsCompleted);
    const row = (await search("")).rows.find((r) => r.id === id)!;
    expect(row.summaryHtml).toBe("<p>Good <strong>news</strong></p>");
    expect(row.products).toMatchObject([{ name: "Gizmo", company: "Acme", source: 2, isCompetitor: true, isInternal: false }]);
  });

  it("a reader sees the results without write controls, and cannot post", async () => {
    await create({ tags: [{ name: "visible", score: 0 }] });
    const email = `reader-${uniq()}@test.local`;
    await app.createUser(email, ["portfolio.read"]);
    const reader = app.browser();
    await reader.signIn(email, "secret-123");
    const html = await (await reader.get("/portfolio")).text();
    expect(html).toContain("visible");
    expect(html).not.toContain(PORTFOLIO.result.addTag);
    expect(html).not.toContain(PORTFOLIO.uploadCsv);
    expect(html).not.toContain(PORTFOLIO.newApplication);
    expect((await reader.post("/portfolio", { intent: "addTag", applicationId: "x", tag: "y" })).status).toBe(404);
    expect((await reader.get("/portfolio/add")).status).toBe(404);
    expect((await reader.get("/portfolio/import")).status).toBe(404);
    expect((await reader.get("/portfolio/csv")).status).toBe(200);
  });

  it("CSV export streams the upstream's file for the search of the URL", async () => {
    const word = `csv${uniq()}`;
    const id = await create({ abstract: `exported ${word}` });
    const r = await admin.get(`/portfolio/csv?qs=${word}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("Content-Type")).toMatch(/text\/csv/);
    expect(r.headers.get("Content-Disposition")).toMatch(/attachment/);
    const text = await r.text();
    expect(text.split("\n")[0]).toMatch(/^id,/);
    expect(text).toContain(id);
  });

  it("a refused CSV export goes back to the search with the toast, not to a page of its own", async () => {
    const r = await admin.get("/portfolio/csv?qs=title%3A%28unclosed&size=50");
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/portfolio?qs=title%3A%28unclosed&size=50");
    const back = await (await admin.get(r.headers.get("Location")!)).text();
    expect(back).toContain(PORTFOLIO.toasts.exportFailed);
  });

  it("CSV import: progress page, per-row report on screen and as CSV, the completion toast", async () => {
    const id = `CSV-${uniq()}`;
    const csv = `id,title,tags\n${id},Imported,one:1;two\n,No id here,\n${id}-2,Second,"bad,tag"\n`;
    const up = await admin.postMultipart("/portfolio/import", { file: new File([csv], "apps.csv", { type: "text/csv" }) });
    expect(up.status).toBe(302);
    const location = up.headers.get("Location")!;
    expect(location).toMatch(/^\/portfolio\/import\?job=/);
    let html = "";
    for (let i = 0; i < 50; i++) {
      html = await (await admin.get(location)).text();
      if (!html.includes('http-equiv="refresh"')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(html).toContain(PORTFOLIO.toasts.importCompleted(1));
    expect(html).toContain(PORTFOLIO.import.rejectedTitle);
    const job = new URL(location, "http://x").searchParams.get("job")!;
    const report = await admin.get(`/portfolio/import/${job}/rejected.csv`);
    expect(report.headers.get("Content-Type")).toMatch(/text\/csv/);
    const lines = (await report.text()).trim().split("\n");
    expect(lines[0]).toBe("line,reason");
    expect(lines.map((l) => l.split(",")[0])).toEqual(["line", "3", "4"]);
    const wrong = await admin.postMultipart("/portfolio/import", { file: new File(["x"], "apps.txt") });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain(PORTFOLIO.import.notCsv);
    const sample = await admin.get("/portfolio/import/sample.csv");
    expect((await sample.text()).split("\n")[0]).toMatch(/^id,sourceId,portfolioId,title/);
  });
});
