import { describe, expect, it } from "vitest";
import { SELECTION_LIMIT } from "~/portfolio/params";
import { PORTFOLIO } from "~/portfolio/texts";
import { appAsAdmin, uniq } from "../helpers/app";

/**
 * /portfolio's selection (tick results: add a tag, remove a tag with its confirmation, export the ticked as CSV) and
 * /portfolio/{id}, the page of one application reached from its result.
 */
const { app, admin } = appAsAdmin();
const S = PORTFOLIO.selection;
const A = PORTFOLIO.application;
/** The action's answer as data (a refusal, the confirmation step). */
const DATA = "/portfolio?index&_data=routes%2F_app.portfolio._index";

async function create(extra: Record<string, unknown> = {}): Promise<string> {
  const id = `SEL-${uniq()}`;
  const r = await admin.post("/portfolio/add", { application: JSON.stringify({ id, title: `Gadget ${id}`, ...extra }) });
  expect(r.status, await r.clone().text()).toBe(302);
  return id;
}

async function tagsOf(id: string): Promise<{ name: string; score: number }[]> {
  const r = await app.adminApi("GET", `/api/search/${encodeURIComponent(id)}`);
  expect(r.status).toBe(200);
  return ((await r.json()) as { tags: { name: string; score: number }[] }).tags;
}

describe("/portfolio/{id}", () => {
  it("shows every field of the application, and each result links to it with the search kept", async () => {
    const id = await create({
      abstract: "An abstract about springs.",
      claims: "1. A spring comprising a coil.\n2. The spring of claim 1.",
      specification: "The specification in full.",
      aiSummary: "<p>Summary <strong>bold</strong><script>alert(1)</script></p>",
      products: [{ name: "Springy 3000", company: "Coil Corp" }],
      broadScore: 0.7,
      detectableScore: 0.25,
      tags: [{ name: "mechanics", score: 0.5 }],
    });
    const r = await admin.get(`/portfolio/${id}?qs=springs`);
    expect(r.status).toBe(200);
    const html = await r.text();
    for (const text of [
      `Gadget ${id}`,
      "An abstract about springs.",
      "1. A spring comprising a coil.\n2. The spring of claim 1.",
      "The specification in full.",
      "<strong>bold</strong>",
      "Springy 3000",
      "Coil Corp",
      "0.7",
      "0.25",
      "mechanics",
      ":0.5",
      A.claims,
      A.specification,
      A.created,
      A.updated,
      PORTFOLIO.result.broadScore,
    ]) {
      expect(html).toContain(text);
    }
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toMatch(/(January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}, \d{1,2}:\d{2} (AM|PM)/);
    // Back to the search it was opened from.
    expect(html).toContain(`href="/portfolio?qs=springs"`);

    const results = await (await admin.get(`/portfolio?qs=${id}`)).text();
    expect(results).toContain(`href="/portfolio/${id}?qs=${id}"`);
  });

  it("answers the not-found view for an application that does not exist", async () => {
    const r = await admin.get("/portfolio/NO-SUCH-APPLICATION");
    expect(r.status).toBe(404);
    expect(await r.text()).toContain("Nothing here :(");
  });
});

describe("/portfolio: the selection", () => {
  it("shows a checkbox per result in the selection form, and the selection's actions", async () => {
    const id = await create();
    const html = await (await admin.get(`/portfolio?qs=${id}`)).text();
    expect(html).toContain(`form="portfolio-selection"`);
    expect(html).toContain(`aria-label="${S.select(id)}"`);
    for (const label of [S.addTag, S.removeTag, S.export]) expect(html).toContain(label);
  });

  it("adds a tag to every ticked application, then removes it after the confirmation", async () => {
    const a = await create();
    const b = await create({ tags: [{ name: "keep", score: 1 }] });
    const untouched = await create();
    const added = await admin.post(`/portfolio?index&qs=${a}`, { intent: "bulkAddTag", ids: [a, b], tag: " reviewed ", score: "0.5" });
    expect(added.status, await added.clone().text()).toBe(302);
    expect(added.headers.get("Location")).toBe(`/portfolio?qs=${a}`);
    expect(await tagsOf(a)).toEqual([{ name: "reviewed", score: 0.5 }]);
    expect(await tagsOf(b)).toEqual([
      { name: "keep", score: 1 },
      { name: "reviewed", score: 0.5 },
    ]);
    expect(await tagsOf(untouched)).toEqual([]);

    // Removing asks first (without JavaScript: the inline step, the ticked ids kept in it).
    const asked = await admin.post(DATA, { intent: "bulkRemoveTag", ids: [a, b], tag: "reviewed" });
    expect(asked.status).toBe(200);
    expect(await asked.json()).toMatchObject({ bulk: true, confirm: "bulkRemoveTag", ids: [a, b], tag: "reviewed" });
    expect(await tagsOf(a)).toHaveLength(1);

    const removed = await admin.post("/portfolio?index", { intent: "bulkRemoveTag", ids: [a, b, untouched], tag: "reviewed", confirmed: "yes" });
    expect(removed.status).toBe(302);
    expect(await tagsOf(a)).toEqual([]);
    expect(await tagsOf(b)).toEqual([{ name: "keep", score: 1 }]);
    // The one without the tag is named in the toast, the rest done.
    const page = await (await admin.get(removed.headers.get("Location")!)).text();
    expect(page).toContain(S.unchanged([untouched]));
  });

  it("refuses nothing ticked, more than the bound, and a bad tag, with the reason and the ticks kept", async () => {
    const none = await admin.post(DATA, { intent: "bulkAddTag", tag: "x" });
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ error: S.none });

    const many = Array.from({ length: SELECTION_LIMIT + 1 }, (_, i) => `MANY-${i}`);
    const tooMany = await admin.post(DATA, { intent: "bulkExport", ids: many });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({ error: S.tooMany(SELECTION_LIMIT) });

    const id = await create();
    const badTag = await admin.post(`/portfolio?index&qs=${id}`, { intent: "bulkAddTag", ids: [id], tag: "a;b" });
    expect(badTag.status).toBe(400);
    const html = await (await admin.post(`/portfolio?qs=${id}`, { intent: "bulkAddTag", ids: [id], tag: "a;b" })).text();
    expect(html).toContain(PORTFOLIO.validation.tagSeparators);
    expect(html).toContain(`aria-label="${S.select(id)}" checked=""`);
  });

  it("exports exactly the ticked applications as CSV, for a reader too; tag changes need the portfolio permission", async () => {
    const a = await create();
    const b = await create();
    await create();
    const email = `selreader-${uniq()}@test.local`;
    await app.createUser(email, ["portfolio.read"]);
    const reader = app.browser();
    await reader.signIn(email, "secret-123");

    const started = await reader.post("/portfolio?index", { intent: "bulkExport", ids: [a, b] });
    expect(started.status, await started.clone().text()).toBe(302);
    const location = started.headers.get("Location")!;
    expect(location).toMatch(/^\/portfolio\/csv\?export=/);
    const file = await reader.get(location);
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toMatch(/text\/csv/);
    const lines = (await file.text()).trim().split(/\r?\n/);
    expect(lines).toHaveLength(3);
    expect(lines.slice(1).map((l) => l.split(",")[0]).sort()).toEqual([a, b].sort());

    expect((await reader.post("/portfolio?index", { intent: "bulkAddTag", ids: [a], tag: "x" })).status).toBe(404);
    expect((await reader.post("/portfolio?index", { intent: "bulkRemoveTag", ids: [a], tag: "x", confirmed: "yes" })).status).toBe(404);
    const html = await (await reader.get(`/portfolio?qs=${a}`)).text();
    expect(html).toContain(S.export);
    expect(html).not.toContain(S.addTag);
  });
});
