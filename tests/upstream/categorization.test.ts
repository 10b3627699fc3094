import { describe, expect, it } from "vitest";
import {
  CATEGORIZATION_BATCH,
  CATEGORIZATION_MESSAGES as M,
  DEFAULT_QUERY,
  DEFAULT_QUERY_BODY,
  type CategorizationJob,
  type CategorizationQuery,
  type JobTriggered,
} from "@contract/categorization";
import type { Application, SearchResponse, TagCount } from "@contract/portfolio";
import { harness, message, type Harness } from "./helpers";

type H = Harness;

async function json<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/** Imports applications through the portfolio's CSV import (one request, waited for). */
async function importApps(h: H, rows: { id: string; title: string; abstract?: string; tags?: string; portfolioId?: string }[]) {
  const esc = (v: string) => `"${v.replace(/"/g, '""')}"`;
  const csv = ["id,title,abstract,tags,portfolioId", ...rows.map((r) => [r.id, r.title, r.abstract ?? "", r.tags ?? "", r.portfolioId ?? ""].map(esc).join(","))].join("\n");
  const job = await json<{ status: string; updated: number }>(
    await h.call("POST", "/api/applications/csv?wait=true", {
      token: h.adminToken,
      body: { csvFileData: Buffer.from(csv).toString("base64") },
    }),
  );
  expect(job).toMatchObject({ status: "completed", updated: rows.length });
}

async function createQuery(h: H, body: Partial<Pick<CategorizationQuery, "name" | "tags" | "text">> = {}) {
  return json<CategorizationQuery>(await h.call("POST", "/api/categorization/queries", { token: h.adminToken, body }), 201);
}

const queryText = (qs: string, fields = ["title"]) => JSON.stringify({ query: { query_string: { query: qs, fields } } });

async function waitFor(h: H, job: CategorizationJob): Promise<CategorizationJob> {
  for (let i = 0; i < 2_000; i++) {
    const now = await json<CategorizationJob>(await h.call("GET", `/api/categorization/jobs/${job.id}`, { token: h.adminToken }));
    if (now.status === "completed" || now.status === "failed" || now.status === "cancelled") return now;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error("job did not finish");
}

async function trigger(h: H, path: string, body?: unknown): Promise<CategorizationJob> {
  const answer = await json<JobTriggered>(await h.call("POST", `/api/categorization/queries${path}`, { token: h.adminToken, body }), 202);
  return waitFor(h, answer.job);
}

const tagCounts = async (h: H, portfolioId = "public") =>
  Object.fromEntries(
    (await json<TagCount[]>(await h.call("GET", `/api/portfolio/tags?portfolioId=${portfolioId}`, { token: h.adminToken }))).map((t) => [t.name, t.count]),
  );

const app = async (h: H, id: string) => json<Application>(await h.call("GET", `/api/search/${id}`, { token: h.adminToken }));

async function search(h: H, body: unknown) {
  return json<SearchResponse>(await h.call("POST", "/api/search/advanced", { token: h.adminToken, body }));
}

describe("saved queries", () => {
  it("creates the spec's default query and keeps who changed it", async () => {
    const h = await harness();
    const q = await createQuery(h);
    expect(q).toMatchObject({ name: "Untitled", tags: [], text: DEFAULT_QUERY.text, createdBy: "admin@example.com", updatedBy: "admin@example.com" });
    expect(JSON.parse(q.text)).toEqual({
      query: { query_string: { query: "untitled OR unnamed", fields: ["title", "abstract"] } },
      highlight: { fragment_size: 100, number_of_fragments: 2, no_match_size: 100, fields: { title: {}, abstract: {}, specification: {}, claims: {} } },
    });
    expect(JSON.parse(q.text)).toEqual(DEFAULT_QUERY_BODY);
    h.clock.advance(1000);
    const changed = await json<CategorizationQuery>(
      await h.call("PATCH", `/api/categorization/queries/${q.id}`, { token: h.adminToken, body: { name: " Batteries ", tags: ["bat", "Bat", "cell"] } }),
    );
    expect(changed).toMatchObject({ name: "Batteries", tags: ["bat", "cell"], text: DEFAULT_QUERY.text });
    expect(changed.updatedAt > q.updatedAt).toBe(true);
    const list = await json<{ items: CategorizationQuery[]; total: number }>(await h.call("GET", "/api/categorization/queries", { token: h.adminToken }));
    expect(list.total).toBe(1);
  });

  it("refuses a bad name, JSON or tag, and the last delete", async () => {
    const h = await harness();
    const q = await createQuery(h);
    const patch = (body: unknown) => h.call("PATCH", `/api/categorization/queries/${q.id}`, { token: h.adminToken, body });
    let res = await patch({ name: "  " });
    expect(res.status).toBe(400);
    expect(await message(res)).toBe(`name: ${M.nameRequired}`);
    res = await patch({ text: "{ nope" });
    expect(res.status).toBe(400);
    expect(await message(res)).toMatch(/^text: The query is not valid JSON:/);
    res = await patch({ text: "[1]" });
    expect(await message(res)).toBe(`text: ${M.notAnObject}`);
    res = await patch({ tags: ["a;b"] });
    expect(res.status).toBe(400);
    res = await h.call("DELETE", `/api/categorization/queries/${q.id}`, { token: h.adminToken });
    expect(res.status).toBe(409);
    expect(await message(res)).toBe(M.lastQuery);
    const second = await createQuery(h, { name: "Second" });
    expect((await h.call("DELETE", `/api/categorization/queries/${second.id}`, { token: h.adminToken })).status).toBe(204);
    expect((await h.call("GET", `/api/categorization/queries/${second.id}`, { token: h.adminToken })).status).toBe(404);
  });

  it("lets a reader read but not change or apply", async () => {
    const h = await harness();
    const q = await createQuery(h, { tags: ["x"] });
    const r = await h.createUser({ email: "reader@example.com" });
    await h.call("PATCH", `/api/auth/users/${r.id}`, { token: h.adminToken, body: { id: r.id, permissions: ["portfolio.read"] } });
    const reader = await h.login("reader@example.com", "secret1");
    expect((await h.call("GET", "/api/categorization/queries", { token: reader })).status).toBe(200);
    expect((await h.call("GET", "/api/categorization/jobs", { token: reader })).status).toBe(200);
    expect((await h.call("POST", "/api/categorization/queries", { token: reader, body: {} })).status).toBe(403);
    expect((await h.call("PATCH", `/api/categorization/queries/${q.id}`, { token: reader, body: { name: "n" } })).status).toBe(403);
    for (const path of [`/${q.id}/apply`, `/${q.id}/remove`, "/apply", "/prune"]) {
      expect((await h.call("POST", `/api/categorization/queries${path}`, { token: reader })).status, path).toBe(403);
    }
    await h.createUser({ email: "none@example.com" });
    const none = await h.login("none@example.com", "secret1");
    expect((await h.call("GET", "/api/categorization/queries", { token: none })).status).toBe(403);
  });
});

describe("applying queries to the portfolio", () => {
  async function portfolio(h: H) {
    await importApps(h, [
      { id: "B1", title: "Battery pack cooling", tags: "legacy:0.5" },
      { id: "B2", title: "Battery charger", portfolioId: "public" },
      { id: "B3", title: "Solid battery electrolyte" },
      { id: "W1", title: "Wireless antenna" },
      { id: "W2", title: "Wireless battery charging" },
    ]);
  }

  it("apply tags every match with its relevance, remove takes them off, counts follow", async () => {
    const h = await harness();
    await portfolio(h);
    const q = await createQuery(h, { name: "Batteries", tags: ["energy", "legacy"], text: queryText("battery") });
    const job = await trigger(h, `/${q.id}/apply`);
    expect(job).toMatchObject({ kind: "apply", status: "completed", done: 4, total: 4, changed: 4, queryId: q.id, queryName: "Batteries", error: null });
    expect(job.finishedAt).not.toBeNull();
    const scores = await search(h, { query: { query_string: { query: "battery", fields: ["title"] } }, size: 10 });
    for (const hit of scores.data) {
      const a = await app(h, hit.id);
      expect(a.tags.find((t) => t.name === "energy")?.score, hit.id).toBeCloseTo(hit.score!, 4);
      expect(a.tags.find((t) => t.name === "legacy")?.score, hit.id).toBeCloseTo(hit.score!, 4);
    }
    // B1 had legacy: its score replaced, its place kept (spec 2 §4), not counted twice.
    expect((await app(h, "B1")).tags.map((t) => t.name)).toEqual(["legacy", "energy"]);
    expect((await app(h, "W1")).tags).toEqual([]);
    expect(await tagCounts(h)).toEqual({ energy: 4, legacy: 4 });
    // The tags are searchable at once (the index follows).
    expect((await search(h, { query: { term: { "tags.name": "energy" } }, size: 0 })).total).toBe(4);

    // Applying again changes nothing.
    const again = await trigger(h, `/${q.id}/apply`);
    expect(again).toMatchObject({ done: 4, changed: 0 });
    expect(await tagCounts(h)).toEqual({ energy: 4, legacy: 4 });

    const removed = await trigger(h, `/${q.id}/remove`);
    expect(removed).toMatchObject({ kind: "remove", status: "completed", done: 4, changed: 4 });
    expect(await tagCounts(h)).toEqual({});
    expect((await app(h, "B1")).tags).toEqual([]);
    expect((await search(h, { query: { term: { "tags.name": "energy" } }, size: 0 })).total).toBe(0);

    const jobs = await json<CategorizationJob[]>(await h.call("GET", `/api/categorization/jobs?queryId=${q.id}`, { token: h.adminToken }));
    expect(jobs.map((j) => j.kind)).toEqual(["remove", "apply", "apply"]);
  });

  it("apply-all applies every query with tags and reports the others", async () => {
    const h = await harness();
    await portfolio(h);
    await createQuery(h, { name: "Batteries", tags: ["energy"], text: queryText("battery") });
    await createQuery(h, { name: "Radio", tags: ["radio"], text: queryText("wireless") });
    await createQuery(h, { name: "Empty" });
    await createQuery(h, { name: "Broken", tags: ["x"], text: JSON.stringify({ query: { fuzzy: { title: "x" } } }) });
    const job = await trigger(h, "/apply");
    // W2 matches both queries: looked at and changed once per query.
    expect(job).toMatchObject({ kind: "applyAll", status: "completed", total: 6, done: 6, changed: 6 });
    expect(job.skipped.map((s) => s.name)).toEqual(["Broken", "Empty"]);
    expect(job.skipped[0]!.reason).toMatch(/Unsupported query clause "fuzzy"/);
    expect(await tagCounts(h)).toEqual({ energy: 4, radio: 2, legacy: 1 });
    expect((await app(h, "W2")).tags.map((t) => t.name)).toEqual(["energy", "radio"]);
  });

  it("cleanup removes a query's tags where it no longer matches, unless another query giving it matches", async () => {
    const h = await harness();
    await portfolio(h);
    const q = await createQuery(h, { name: "Batteries", tags: ["energy"], text: queryText("battery") });
    await trigger(h, `/${q.id}/apply`);
    expect((await tagCounts(h)).energy).toBe(4);
    // Narrowed to "battery pack OR solid"; another query gives energy to chargers.
    await h.call("PATCH", `/api/categorization/queries/${q.id}`, { token: h.adminToken, body: { text: queryText("pack OR solid") } });
    await createQuery(h, { name: "Chargers", tags: ["energy"], text: queryText("charger") });
    const job = await trigger(h, "/prune", { id: q.id });
    expect(job).toMatchObject({ kind: "prune", status: "completed", total: 4, done: 4, changed: 1 });
    expect((await tagCounts(h)).energy).toBe(3);
    expect((await app(h, "W2")).tags.map((t) => t.name)).toEqual([]);
    expect((await app(h, "B2")).tags.map((t) => t.name)).toEqual(["energy"]);
    expect((await app(h, "B1")).tags.map((t) => t.name)).toEqual(["legacy", "energy"]);
    // Every query: the same rule, nothing more to remove.
    expect(await trigger(h, "/prune")).toMatchObject({ status: "completed", changed: 0 });
  });

  it("refuses to start on a query without tags or that the engine refuses", async () => {
    const h = await harness();
    const empty = await createQuery(h);
    let res = await h.call("POST", `/api/categorization/queries/${empty.id}/apply`, { token: h.adminToken });
    expect(res.status).toBe(400);
    expect(await message(res)).toBe(M.noTags);
    const broken = await createQuery(h, { tags: ["x"], text: JSON.stringify({ query: { fuzzy: { title: "x" } } }) });
    res = await h.call("POST", `/api/categorization/queries/${broken.id}/apply`, { token: h.adminToken });
    expect(res.status).toBe(400);
    expect(await message(res)).toBe('Unsupported query clause "fuzzy" at query.fuzzy');
    res = await h.call("POST", "/api/categorization/queries/nope/remove", { token: h.adminToken });
    expect(res.status).toBe(404);
  });

  it("walks a match set larger than a batch, in batches, the server answering meanwhile", async () => {
    const h = await harness();
    const n = CATEGORIZATION_BATCH * 2 + 37;
    await importApps(
      h,
      Array.from({ length: n }, (_, i) => ({ id: `A${i}`, title: i % 2 ? `Sensor array ${i}` : `Sensor ${i}`, portfolioId: i % 3 ? "public" : "" })),
    );
    const q = await createQuery(h, { name: "Sensors", tags: ["sensing"], text: queryText("sensor") });
    const answer = await json<JobTriggered>(await h.call("POST", `/api/categorization/queries/${q.id}/apply`, { token: h.adminToken }), 202);
    expect(answer.message).toBe("Apply triggered");
    // While it runs, other requests are answered and see partial progress.
    const seen: number[] = [];
    let job = answer.job;
    while (job.status !== "completed") {
      job = await json<CategorizationJob>(await h.call("GET", `/api/categorization/jobs/${job.id}`, { token: h.adminToken }));
      seen.push(job.done);
      await new Promise((r) => setImmediate(r));
    }
    expect(job).toMatchObject({ done: n, total: n, changed: n });
    expect(seen.some((d) => d > 0 && d < n)).toBe(true);
    expect(await tagCounts(h)).toEqual({ sensing: n });
  });
});

describe("cancelling a job", () => {
  it("stops a running job after the step under way, drops a queued one, refuses a finished one", async () => {
    const h = await harness();
    const n = CATEGORIZATION_BATCH * 4;
    await importApps(h, Array.from({ length: n }, (_, i) => ({ id: `C${i}`, title: `Valve ${i}` })));
    const q = await createQuery(h, { name: "Valves", tags: ["valve"], text: queryText("valve") });
    const post = (path: string, token = h.adminToken) => h.call("POST", path, { token });
    const running = (await json<JobTriggered>(await post(`/api/categorization/queries/${q.id}/apply`), 202)).job;
    const queued = (await json<JobTriggered>(await post(`/api/categorization/queries/${q.id}/remove`), 202)).job;
    // Once the first job has written something, cancel it: it stops within a step, what it changed stays.
    let now = running;
    while (now.done === 0) {
      now = await json<CategorizationJob>(await h.call("GET", `/api/categorization/jobs/${running.id}`, { token: h.adminToken }));
      await new Promise((r) => setImmediate(r));
    }
    const cancelled = await json<CategorizationJob>(await post(`/api/categorization/jobs/${running.id}/cancel`));
    expect(cancelled).toMatchObject({ status: "cancelled", total: n });
    expect(cancelled.done).toBeGreaterThan(0);
    expect(cancelled.done).toBeLessThan(n);
    expect(cancelled.finishedAt).not.toBeNull();
    const tagged = (await tagCounts(h)).valve ?? 0;
    expect(tagged).toBe(cancelled.changed);
    // The queued job never starts once cancelled.
    const dropped = await json<CategorizationJob>(await post(`/api/categorization/jobs/${queued.id}/cancel`));
    expect(dropped).toMatchObject({ status: "cancelled", startedAt: null, done: 0 });
    await new Promise((r) => setTimeout(r, 50));
    expect((await tagCounts(h)).valve).toBe(tagged);
    // Finished, unknown, or asked by a reader.
    const finished = await post(`/api/categorization/jobs/${running.id}/cancel`);
    expect(finished.status).toBe(409);
    expect(await message(finished)).toBe(M.jobFinished);
    const unknown = await post("/api/categorization/jobs/nope/cancel");
    expect(unknown.status).toBe(404);
    expect(await message(unknown)).toBe(M.jobNotFound);
    const next = (await json<JobTriggered>(await post(`/api/categorization/queries/${q.id}/apply`), 202)).job;
    const reader = await h.createUser({ email: "reader@cancel.test" });
    await h.call("PATCH", `/api/auth/users/${reader.id}`, { token: h.adminToken, body: { id: reader.id, permissions: ["portfolio.read"] } });
    const readerToken = await h.login("reader@cancel.test", "secret1");
    expect((await post(`/api/categorization/jobs/${next.id}/cancel`, readerToken)).status).toBe(403);
    // Not cancelled, the next job runs to the end.
    expect(await waitFor(h, next)).toMatchObject({ status: "completed", done: n });
    expect((await tagCounts(h)).valve).toBe(n);
  });

  it("a query deleted while it is being applied is applied no further: its own job ends cancelled, apply-all goes on", async () => {
    const h = await harness();
    const n = CATEGORIZATION_BATCH * 4;
    await importApps(h, [
      ...Array.from({ length: n }, (_, i) => ({ id: `D${i}`, title: `Damper ${i}` })),
      { id: "G1", title: "Gasket seal" },
    ]);
    const post = (path: string) => h.call("POST", path, { token: h.adminToken });
    const remove = async (id: string) => expect((await h.call("DELETE", `/api/categorization/queries/${id}`, { token: h.adminToken })).status).toBe(204);
    const started = async (job: CategorizationJob) => {
      let now = job;
      while (now.done === 0) {
        now = await json<CategorizationJob>(await h.call("GET", `/api/categorization/jobs/${job.id}`, { token: h.adminToken }));
        await new Promise((r) => setImmediate(r));
      }
    };
    // Apply all walks "A dampers" first (by name); deleted under way, it is left, and "B gaskets" is applied.
    const first = await createQuery(h, { name: "A dampers", tags: ["damping"], text: queryText("damper") });
    await createQuery(h, { name: "B gaskets", tags: ["sealing"], text: queryText("gasket") });
    const all = (await json<JobTriggered>(await post("/api/categorization/queries/apply"), 202)).job;
    await started(all);
    await remove(first.id);
    const after = await waitFor(h, all);
    expect(after).toMatchObject({ status: "completed" });
    expect(after.done).toBeLessThan(n);
    expect(after.total).toBe(after.done);
    const damped = (await tagCounts(h)).damping!;
    expect(damped).toBeLessThan(n);
    expect((await app(h, "G1")).tags.map((t) => t.name)).toEqual(["sealing"]);

    // Its own Add tag(s) job ends cancelled.
    const second = await createQuery(h, { name: "C dampers", tags: ["damped"], text: queryText("damper") });
    const single = (await json<JobTriggered>(await post(`/api/categorization/queries/${second.id}/apply`), 202)).job;
    await started(single);
    await remove(second.id);
    const stopped = await waitFor(h, single);
    expect(stopped.status).toBe("cancelled");
    expect(stopped.done).toBeLessThan(n);
    expect((await tagCounts(h)).damped).toBe(stopped.changed);
  });
});
