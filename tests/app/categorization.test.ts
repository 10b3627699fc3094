import { describe, expect, it } from "vitest";
import { DSL_SNIPPETS } from "~/categorization/dsl";
import { PANEL, clampPanel } from "~/categorization/layout";
import { isDirty, queryProblems } from "~/categorization/rules";
import { CATEGORIZATION as C } from "~/categorization/texts";
import { DEFAULT_QUERY } from "@contract/categorization-constants";
import type { CategorizationJob } from "@contract/categorization";
import { appAsAdmin, uniq } from "../helpers/app";

const { app, admin } = appAsAdmin();

const DATA = "_data=routes%2F_app.categorization";
type Page = {
  queries: { id: string; name: string; tags: string[]; updated: string; by: string | null }[];
  selected: { id: string; name: string; tags: string[]; text: string } | null;
  results: { ok: boolean; rows: { id: string; score: number; fields: { field: string; html: string }[]; tags: { name: string }[] }[]; total: number; message?: string; detail?: string } | null;
  jobs: (CategorizationJob & { finishedText: string | null })[];
  may: { write: boolean };
  panel: number;
};

const page = async (qs = "", browser = admin): Promise<Page> => {
  const r = await browser.get(`/categorization?${DATA}${qs ? `&${qs}` : ""}`);
  expect(r.status, await r.clone().text()).toBe(200);
  return (await r.json()) as Page;
};

const text = (qs: string) => JSON.stringify({ query: { query_string: { query: qs, fields: ["title"] } }, highlight: { fields: { title: {} } } }, null, 2);

async function seed(prefix: string) {
  // The prefix is a word of the titles too: each test's query matches only its own applications.
  const rows = [`${prefix}-1,Gadget ${prefix} battery pack`, `${prefix}-2,Gadget ${prefix} battery charger`, `${prefix}-3,Gadget ${prefix} antenna`];
  const csv = Buffer.from(`id,title\n${rows.join("\n")}\n`).toString("base64");
  const r = await app.adminApi("POST", "/api/applications/csv?wait=true", { csvFileData: csv });
  expect(r.status).toBe(200);
}

async function tagCount(name: string): Promise<number> {
  const r = await app.adminApi("GET", "/api/portfolio/tags?portfolioId=public");
  return ((await r.json()) as { name: string; count: number }[]).find((t) => t.name === name)?.count ?? 0;
}

async function tagsOf(id: string): Promise<string[]> {
  const r = await app.adminApi("GET", `/api/search/${id}`);
  return ((await r.json()) as { tags: { name: string }[] }).tags.map((t) => t.name);
}

async function settle(queryId: string): Promise<CategorizationJob & { finishedText: string | null }> {
  for (let i = 0; i < 500; i++) {
    const r = await admin.get(`/categorization/jobs?query=${queryId}`);
    const jobs = (await r.json()) as (CategorizationJob & { finishedText: string | null })[];
    if (jobs.length && jobs.every((j) => j.status === "completed" || j.status === "failed" || j.status === "cancelled")) return jobs[0]!;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("jobs did not finish");
}

describe("categorization rules", () => {
  it("run needs valid JSON; save also a name and a tag; dirty compares with the saved query", () => {
    const ok = { name: "Q", tags: ["a"], text: "{}" };
    expect(queryProblems({ ...ok, text: "{" }, "run").text?.[0]).toMatch(/^The query is not valid JSON:/);
    expect(queryProblems({ ...ok, text: "[]" }, "run").text).toEqual(["The query must be a JSON object."]);
    expect(queryProblems({ ...ok, name: " ", tags: [] }, "run")).toEqual({});
    expect(queryProblems({ ...ok, name: " ", tags: [] }, "save")).toEqual({ name: [C.validation.nameRequired], tags: [C.validation.tagsRequired] });
    expect(queryProblems({ ...ok, tags: ["a;b"] }, "save").tags).toEqual(["A tag cannot contain a comma or a semicolon"]);
    expect(isDirty({ ...ok, text: "{\r\n}" }, { ...ok, text: "{\n}" })).toBe(false);
    expect(isDirty({ ...ok, name: " Q " }, ok)).toBe(false);
    expect(isDirty({ ...ok, tags: ["b"] }, ok)).toBe(true);
    expect(clampPanel(10)).toBe(PANEL.min);
    expect(clampPanel(90)).toBe(PANEL.max);
    expect(clampPanel(Number.NaN)).toBe(25);
  });

  it("completes every clause the engine speaks", () => {
    const labels = DSL_SNIPPETS.map((s) => s.label);
    for (const clause of ["query_string", "match", "match_phrase", "multi_match", "bool", "term", "terms", "range", "ids", "match_all", "highlight", "sort", "_source"]) {
      expect(labels).toContain(clause);
    }
  });
});

describe("/categorization", () => {
  it("opens the default query on a first visit, remembers the one opened, and runs it", async () => {
    const first = await page();
    expect(first.queries).toHaveLength(1);
    expect(first.selected).toMatchObject({ name: "Untitled", tags: [], text: DEFAULT_QUERY.text });
    expect(first.results).toMatchObject({ ok: true });
    expect(first.panel).toBe(25);
    const html = await (await admin.get("/categorization")).text();
    expect(html).toContain(C.selectQuery);
    expect(html).toContain(C.addTags);
    expect(html).toContain(C.cleanup);

    const other = await admin.post(`/categorization?${DATA}`, { intent: "create" });
    expect(other.status).toBe(204); // a redirect as data (Remix): X-Remix-Redirect
    const location = other.headers.get("X-Remix-Redirect")!;
    const id = new URL(location, "http://x").searchParams.get("query")!;
    expect((await page(`query=${id}`)).selected?.id).toBe(id);
    // Without the URL's id, the remembered one opens.
    expect((await page()).selected?.id).toBe(id);
  });

  it("runs the text as edited, refuses bad JSON, and answers the engine's refusal inline", async () => {
    const prefix = `R${uniq()}`;
    await seed(prefix);
    const { selected } = await page();
    const run = await admin.post(`/categorization?${DATA}`, { intent: "run", queryId: selected!.id, name: "x", tags: "", text: text(`gadget AND ${prefix}*`) });
    // ids are not in the title: match the word only.
    expect(run.status).toBe(200);
    const ran = await admin.post(`/categorization?${DATA}`, { intent: "run", queryId: selected!.id, name: "x", tags: "", text: text("gadget battery") });
    const answer = (await ran.json()) as { values: { text: string }; results: Page["results"] };
    expect(answer.values.text).toBe(text("gadget battery"));
    expect(answer.results?.ok).toBe(true);
    expect(answer.results!.rows.some((r) => r.fields.some((f) => f.field === "title" && f.html.includes("<mark>")))).toBe(true);

    // Past the query's track_total_hits, the count says "More than".
    const capped = await admin.post(`/categorization?${DATA}`, {
      intent: "run",
      queryId: selected!.id,
      name: "x",
      tags: "",
      text: JSON.stringify({ query: { query_string: { query: "gadget" } }, track_total_hits: 1 }),
    });
    expect(((await capped.json()) as { results: { total: number; totalIsMore: boolean } }).results).toMatchObject({ total: 1, totalIsMore: true });

    // The results' page buttons post `from` (no intent): the text as edited, that page.
    const next = await admin.post(`/categorization?${DATA}`, { queryId: selected!.id, name: "x", tags: "", text: text("gadget"), from: "10" });
    expect(((await next.json()) as { results: { from: number; ok: boolean } }).results).toMatchObject({ ok: true, from: 10 });

    const bad = await admin.post(`/categorization?${DATA}`, { intent: "run", queryId: selected!.id, name: "x", tags: "", text: "{ nope" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: { text: string[] } }).errors.text[0]).toMatch(/^The query is not valid JSON:/);

    const refused = await admin.post(`/categorization?${DATA}`, {
      intent: "run",
      queryId: selected!.id,
      name: "x",
      tags: "",
      text: JSON.stringify({ query: { fuzzy: { title: "x" } } }),
    });
    const failed = (await refused.json()) as { results: { ok: false; message: string; detail: string } };
    expect(failed.results).toMatchObject({ ok: false, message: C.searchFailed });
    expect(failed.results.detail).toMatch(/Unsupported query clause "fuzzy"/);
  });

  it("saves, applies, removes and cleans up, the portfolio's tags and counts following", async () => {
    const prefix = `S${uniq()}`;
    await seed(prefix);
    const tag = `cat-${uniq()}`;
    const { selected } = await page();
    const id = selected!.id;
    const values = { queryId: id, name: "Batteries", tags: tag, text: text(`${prefix} AND battery`) };

    const noTags = await admin.post(`/categorization?${DATA}`, { ...values, intent: "save", tags: "", name: " " });
    expect(noTags.status).toBe(400);
    expect(((await noTags.json()) as { errors: object }).errors).toEqual({ name: [C.validation.nameRequired], tags: [C.validation.tagsRequired] });

    // Not saved yet: Add tag(s) refuses with the reason and keeps the edits.
    const dirty = await admin.post(`/categorization?${DATA}`, { ...values, intent: "apply" });
    expect(dirty.status).toBe(409);
    expect(await dirty.json()).toMatchObject({ notice: C.dirtyReason, values: { name: "Batteries" } });

    const save = await admin.post("/categorization", { ...values, intent: "save" });
    expect(save.status).toBe(302);
    expect(save.headers.get("Location")).toBe(`/categorization?query=${id}`);
    expect((await page()).selected).toMatchObject({ name: "Batteries", tags: [tag] });

    const apply = await admin.post("/categorization", { ...values, intent: "apply" });
    expect(apply.status).toBe(302);
    const applied = await settle(id);
    expect(applied).toMatchObject({ kind: "apply", status: "completed", changed: 2 });
    expect(applied.done).toBe(applied.total);
    expect(applied.finishedText).toMatch(/\d{4}/);
    expect(await tagCount(tag)).toBe(2);
    expect(await tagsOf(`${prefix}-1`)).toContain(tag);
    expect(await tagsOf(`${prefix}-3`)).not.toContain(tag);
    // The progress survives a reload: the page lists the finished job.
    expect((await page()).jobs[0]).toMatchObject({ kind: "apply", status: "completed" });
    // The results show the tags as name:score.
    const html = await (await admin.get(`/categorization?query=${id}`)).text();
    expect(html).toMatch(new RegExp(`${tag}:\\d`));

    const ask = await admin.post(`/categorization?${DATA}`, { ...values, intent: "remove" });
    expect(await ask.json()).toMatchObject({ confirm: "remove" });
    expect(await tagCount(tag)).toBe(2);
    const remove = await admin.post("/categorization", { ...values, intent: "remove", confirmed: "yes" });
    expect(remove.status).toBe(302);
    await settle(id);
    expect(await tagCount(tag)).toBe(0);

    // Cleanup after narrowing: the application that no longer matches loses the tag.
    await admin.post("/categorization", { ...values, intent: "apply" });
    await settle(id);
    const narrowed = { ...values, text: text(`${prefix} AND battery AND pack`) };
    expect((await admin.post("/categorization", { ...narrowed, intent: "save" })).status).toBe(302);
    expect((await admin.post("/categorization", { ...narrowed, intent: "cleanup" })).status).toBe(302);
    expect(await settle(id)).toMatchObject({ kind: "prune", status: "completed", changed: 1 });
    expect(await tagCount(tag)).toBe(1);
    expect(await tagsOf(`${prefix}-2`)).not.toContain(tag);

    const all = await admin.post("/categorization", { ...narrowed, intent: "applyAll" });
    expect(all.status).toBe(302);
    expect((await settle(id)).kind).toBe("applyAll");
  });

  it("cancels a running job from its progress line; a finished one says why not", async () => {
    const prefix = `X${uniq()}`;
    const n = 3_000;
    const csv = Buffer.from(`id,title\n${Array.from({ length: n }, (_, i) => `${prefix}-${i},Widget ${prefix} ${i}`).join("\n")}\n`).toString("base64");
    expect((await app.adminApi("POST", "/api/applications/csv?wait=true", { csvFileData: csv })).status).toBe(200);
    const tag = `cancel-${uniq()}`;
    const { selected } = await page();
    const id = selected!.id;
    const values = { queryId: id, name: "Widgets", tags: tag, text: text(prefix) };
    expect((await admin.post("/categorization", { ...values, intent: "save" })).status).toBe(302);
    expect((await admin.post("/categorization", { ...values, intent: "apply" })).status).toBe(302);
    // While it runs, its line has a Cancel button (a form: it works without JavaScript).
    const job = (await page()).jobs[0]!;
    expect(job.status === "queued" || job.status === "running").toBe(true);
    const html = await (await admin.get(`/categorization?query=${id}`)).text();
    expect(html).toContain(`aria-label="${C.progress.cancel(C.progress.kinds.apply)}"`);
    expect(html).toContain(`name="job" value="${job.id}"`);
    const cancel = await admin.post("/categorization", { intent: "cancelJob", job: job.id, queryId: id });
    expect(cancel.status).toBe(302);
    expect(cancel.headers.get("Location")).toBe(`/categorization?query=${id}`);
    const cancelled = await settle(id);
    expect(cancelled).toMatchObject({ id: job.id, status: "cancelled" });
    expect(cancelled.done).toBeLessThan(n);
    expect(await tagCount(tag)).toBe(cancelled.changed);
    // The page says so, and offers no Cancel for it any more.
    const after = await (await admin.get(`/categorization?query=${id}`)).text();
    expect(after).toContain(`${C.progress.cancelled} · `);
    expect(after).not.toContain(`name="job" value="${job.id}"`);
    // Again: the job has finished.
    const again = await admin.post(`/categorization?${DATA}`, { intent: "cancelJob", job: job.id, queryId: id });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ toast: { message: C.toasts.cancelFailed, description: expect.stringContaining("The job has already finished.") } });
  });

  it("says 'Apply failed' with the engine's reason when the saved JSON is refused", async () => {
    const { selected } = await page();
    const values = { queryId: selected!.id, name: "Broken", tags: `t-${uniq()}`, text: JSON.stringify({ query: { fuzzy: { title: "x" } } }) };
    expect((await admin.post("/categorization", { ...values, intent: "save" })).status).toBe(302);
    const refused = await admin.post(`/categorization?${DATA}`, { ...values, intent: "apply" });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { toast: { message: string; description: string }; values: { name: string } };
    expect(body.toast.message).toBe(C.toasts.applyFailed);
    expect(body.toast.description).toMatch(/Unsupported query clause "fuzzy"/);
    expect(body.values.name).toBe("Broken");
    expect((await admin.post("/categorization", { ...values, text: DEFAULT_QUERY.text, intent: "save" })).status).toBe(302);
  });

  it("downloads the results as CSV, edited or saved, and a refusal keeps the screen as typed", async () => {
    const prefix = `C${uniq()}`;
    await seed(prefix);
    const { selected } = await page();
    const edited = { queryId: selected!.id, name: "Unsaved name", tags: "unsaved-tag", text: text(`${prefix} AND antenna`) };
    // Without JavaScript: the screen's action checks the query, then redirects to the download's link.
    const started = await admin.post("/categorization", { ...edited, intent: "csv" });
    expect(started.status).toBe(302);
    const link = started.headers.get("Location")!;
    expect(link).toMatch(/^\/categorization\/csv\?export=/);
    const csv = await admin.get(link);
    expect(csv.headers.get("Content-Type")).toMatch(/text\/csv/);
    expect(csv.headers.get("Content-Disposition")).toMatch(/attachment/);
    expect(await csv.text()).toMatch(new RegExp(`^id,.*\\n[\\s\\S]*${prefix}-3`));
    // A query that does not parse, or that the engine refuses: the screen again, with the toast and what was typed.
    for (const bad of ["{", JSON.stringify({ query: { fuzzy: { title: "x" } } })]) {
      const refused = await admin.post(`/categorization?${DATA}`, { ...edited, text: bad, intent: "csv" });
      expect(refused.status).toBe(400);
      const body = (await refused.json()) as { toast: { message: string; description: string }; values: { name: string; text: string; tags: string[] } };
      expect(body.toast.message).toBe(C.toasts.csvFailed);
      expect(body.toast.description).toMatch(bad === "{" ? /not valid JSON/ : /Unsupported query clause "fuzzy"/);
      expect(body.values).toEqual({ name: "Unsaved name", tags: ["unsaved-tag"], text: bad });
    }
    // With JavaScript: the same check answers the link, or the toast, as JSON.
    const js = await admin.post("/categorization/csv", { text: edited.text });
    expect(js.status).toBe(200);
    const { href } = (await js.json()) as { href: string };
    expect((await admin.get(href)).headers.get("Content-Type")).toMatch(/text\/csv/);
    const jsBad = await admin.post("/categorization/csv", { text: "{" });
    expect(jsBad.status).toBe(400);
    expect(((await jsBad.json()) as { toast: { message: string } }).toast.message).toBe(C.toasts.csvFailed);
    // A saved query's link; an expired export's link goes back to the screen with the toast, never a page of its own.
    expect((await admin.get(`/categorization/csv?query=${selected!.id}`)).headers.get("Content-Type")).toMatch(/text\/csv/);
    const expired = await admin.get("/categorization/csv?export=no-such-export");
    expect(expired.status).toBe(302);
    expect(expired.headers.get("Location")).toBe("/categorization");
  });

  it("remembers the panel size, and deletes a query (never the last) after a confirmation", async () => {
    const layout = await admin.post("/categorization", { intent: "layout", left: "90", redirect: "yes" });
    expect(layout.status).toBe(302);
    expect((await page()).panel).toBe(75);

    const created = await admin.post("/categorization", { intent: "create" });
    const id = new URL(created.headers.get("Location")!, "http://x").searchParams.get("query")!;
    const ask = await admin.post(`/categorization?${DATA}&select=1`, { intent: "delete", id, queryId: id });
    expect(await ask.json()).toMatchObject({ confirm: "delete", deleteId: id });
    const done = await admin.post("/categorization?select=1", { intent: "delete", id, queryId: id, confirmed: "yes" });
    expect(done.status).toBe(302);
    expect((await page()).queries.some((q) => q.id === id)).toBe(false);
  });

  it("lets a reader look and run, never change", async () => {
    const email = `reader-${uniq()}@test.local`;
    await app.createUser(email, ["portfolio.read"]);
    const reader = app.browser();
    await reader.signIn(email, "secret-123");
    const seen = await page("", reader);
    expect(seen.may.write).toBe(false);
    expect(seen.selected).not.toBeNull();
    const html = await (await reader.get("/categorization")).text();
    expect(html).not.toContain(`value="save"`);
    const id = seen.selected!.id;
    expect((await reader.post(`/categorization?${DATA}`, { intent: "run", queryId: id, name: "", tags: "", text: "{}" })).status).toBe(200);
    for (const intent of ["save", "apply", "create", "applyAll", "cancelJob"]) {
      expect((await reader.post("/categorization", { intent, queryId: id, name: "n", tags: "t", text: "{}" })).status, intent).toBe(404);
    }
    expect((await reader.get(`/categorization/jobs?query=${id}`)).status).toBe(200);
    // Without portfolio.read: the screen and its resource routes are not there.
    const other = `other-${uniq()}@test.local`;
    await app.createUser(other, ["users.read"]);
    const outsider = app.browser();
    await outsider.signIn(other, "secret-123");
    expect((await outsider.get("/categorization")).status).toBe(404);
    for (const path of [`/categorization/jobs?query=${id}`, "/categorization/suggest?q=a", `/categorization/csv?query=${id}`]) {
      expect((await outsider.get(path)).status, path).toBe(404);
    }
  });
});
