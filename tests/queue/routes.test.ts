import { afterEach, describe, expect, it } from "vitest";
import type { FipCollection, QueueCollection } from "@contract/queues";
import type { PortfolioSink } from "../../upstream/src/dispatcher/portfolio-sink";
import { startFakeDocket } from "../../upstream/src/fip/fake-server";
import { startFakeOffice } from "../../upstream/src/patent-office/fake-server";
import { harness, message } from "../upstream/helpers";

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

const until = async (check: () => Promise<boolean>, ms = 5000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** A test double of the portfolio's store: knows 16123456 only. */
function portfolioDouble() {
  const updates: { id: string; title: string; claims: string }[] = [];
  const sink: PortfolioSink = {
    async updateFromOffice(id, fields) {
      if (id !== "16123456") return "not-found";
      updates.push({ id, title: fields.title, claims: fields.claims });
      return "updated";
    },
    async existing(ids) {
      return new Set(ids.filter((id) => id === "16123456"));
    },
  };
  return { sink, updates };
}

async function setup(options: { office?: boolean; concurrency?: number } = {}) {
  const office = await startFakeOffice({
    applications: [
      { applicationNumber: "16123456", title: "Widget", claims: ["1. A widget."], customerNumber: "100", changedAt: "2024-02-01T00:00:00Z" },
      { applicationNumber: "16999999", title: "Not ours", customerNumber: "100", changedAt: "2024-02-02T00:00:00Z" },
    ],
  });
  const docket = await startFakeDocket({ matters: [{ fipId: "FIP:M-1", matterNumber: "ACME-001", auditDate: "2026-01-02" }] });
  servers.push(office, docket);
  const portfolio = portfolioDouble();
  const h = await harness({
    queues: {
      office: options.office === false ? {} : { baseUrl: office.url, apiKey: office.apiKey },
      docket: { baseUrl: docket.url, apiKey: docket.apiKey, matterUrlTemplate: "https://fip.example/m/{id}" },
      customerNumbers: ["100"],
      concurrency: options.concurrency ?? 1,
      portfolio: portfolio.sink,
    },
  });
  const as = (token: string) => ({
    get: (url: string) => h.call("GET", url, { token }),
    post: (url: string, body: unknown = {}) => h.call("POST", url, { token, body }),
    put: (url: string, body: unknown) => h.call("PUT", url, { token, body }),
    del: (url: string) => h.call("DELETE", url, { token }),
  });
  return { h, office, docket, portfolio, admin: as(h.adminToken), as };
}

describe("permissions (spec 2 §6)", () => {
  it("read needs portfolio.read / uspto.read / docketing_tasks.read; writes need portfolio / uspto / docketing_tasks", async () => {
    const { h, as } = await setup({ concurrency: 0 });
    const user = await h.createUser({ email: "reader@example.com" });
    const granted = await h.call("PATCH", `/api/auth/users/${user.id}`, {
      token: h.adminToken,
      body: { id: user.id, permissions: ["portfolio.read", "uspto.read", "docketing_tasks.read"] },
    });
    expect(granted.status).toBe(200);
    await h.createUser({ email: "none@example.com" });
    const reader = as(await h.login("reader@example.com", "secret1"));
    const none = as(await h.login("none@example.com", "secret1"));
    const first = await reader.get("/api/dispatcher/");
    expect([first.status, first.status === 200 ? "" : await message(first)]).toEqual([200, ""]);
    expect((await reader.post("/api/uspto/downloads/sorted")).status).toBe(200);
    expect((await reader.post("/api/fip/matters/sorted")).status).toBe(200);
    expect((await reader.get("/api/uspto/config")).status).toBe(200);
    for (const res of [
      await none.get("/api/dispatcher/"),
      await none.post("/api/uspto/downloads/sorted"),
      await none.post("/api/fip/matters/sorted"),
      await reader.post("/api/dispatcher/schedule", { applications: ["16123456"] }),
      await reader.post("/api/dispatcher/pause"),
      await reader.post("/api/uspto/downloads", { applications: ["16123456"] }),
      await reader.get("/api/uspto/sync"),
      await reader.post("/api/uspto/sync/delete"),
      await reader.post("/api/uspto/config/schedule", { newCron: "0 * * * *" }),
      await reader.get("/api/fip/matters/byFipId/FIP:M-1"),
      await reader.del("/api/fip/matters/x"),
    ]) {
      expect(res.status).toBe(403);
    }
    expect((await h.call("GET", "/api/dispatcher/")).status).toBe(401);
  });
});

describe("processing (dispatcher)", () => {
  it("schedules, runs against the fake office, updates the portfolio; pause, resume, requeue, delete", async () => {
    const { admin, portfolio, office } = await setup();
    expect((await admin.post("/api/dispatcher/pause")).status).toBe(200);
    const scheduled = await admin.post("/api/dispatcher/schedule", { applications: ["16123456", "77777777", "16999999"] });
    expect(((await scheduled.json()) as { data: { status: string }[] }).data.map((j) => j.status)).toEqual(["queued", "queued", "queued"]);
    await new Promise((r) => setTimeout(r, 100));
    expect(office.requests).toEqual([]); // paused: nothing ran
    expect(await (await admin.get("/api/dispatcher/status")).json()).toEqual({ active: false });
    await admin.post("/api/dispatcher/resume");
    const list = async () => (await (await admin.get("/api/dispatcher/?status=&sort=oldest")).json()) as QueueCollection;
    await until(async () => (await list()).aggs.completed === 1 && (await list()).aggs.failed === 2);
    const c = await list();
    expect(c.data.find((j) => j.id === "77777777")).toMatchObject({ status: "failed", message: "The patent office has no application 77777777." });
    expect(c.data.find((j) => j.id === "16999999")?.message).toBe("Unable to find application with id 16999999 in the portfolio.");
    expect(portfolio.updates).toEqual([{ id: "16123456", title: "Widget", claims: "1. A widget." }]);
    // default filter: inprogress and failed
    const filtered = (await (await admin.get("/api/dispatcher/?status=inprogress,failed")).json()) as QueueCollection;
    expect(filtered.total).toBe(2);
    // requeue = schedule again
    await admin.post("/api/dispatcher/pause");
    await admin.post("/api/dispatcher/schedule", { applications: ["77777777"] });
    expect((await list()).data.find((j) => j.id === "77777777")?.status).toBe("requeued");
    expect((await admin.del("/api/dispatcher/77777777")).status).toBe(204);
    expect((await admin.del("/api/dispatcher/77777777")).status).toBe(404);
    expect((await admin.get("/api/dispatcher/?status=bogus")).status).toBe(400);
    expect((await admin.post("/api/dispatcher/schedule", { applications: [] })).status).toBe(400);
  });

  it("without configuration a job fails naming the missing setting", async () => {
    const { admin } = await setup({ office: false });
    await admin.post("/api/dispatcher/schedule", { applications: ["16123456"] });
    await until(async () => ((await (await admin.get("/api/dispatcher/")).json()) as QueueCollection).aggs.failed === 1);
    const c = (await (await admin.get("/api/dispatcher/")).json()) as QueueCollection;
    expect(c.data[0]?.message).toMatch(/^USPTO_API_URL is not set/);
    expect(c.missing).toMatch(/^USPTO_API_URL is not set/);
  });
});

describe("USPTO", () => {
  it("sync queues changed applications; downloads update or mark unmatched; remove unmatched; customer numbers; priority", async () => {
    const { admin } = await setup();
    await admin.post("/api/uspto/downloads/pause");
    const synced = await admin.get("/api/uspto/sync");
    expect([synced.status, await synced.json()]).toEqual([200, { inProgress: false, queued: 2 }]);
    expect(await (await admin.get("/api/uspto/sync/status")).json()).toEqual({ inProgress: false, lastError: null });
    const sorted = async (body: unknown = {}) => (await (await admin.post("/api/uspto/downloads/sorted", body)).json()) as QueueCollection;
    let c = await sorted({ status: [] });
    expect(c.data.map((j) => [j.id, j.status, j.customerNumber])).toEqual([
      ["16123456", "queued", "100"],
      ["16999999", "queued", "100"],
    ]);
    expect(c.aggsCustomers).toEqual([{ customerNumber: "100", counts: { queued: 2 }, total: 2 }]);
    expect((await admin.put("/api/uspto/downloads/16999999", { priority: 5 })).status).toBe(200);
    expect((await sorted({ sort: "priority" })).data[0]).toMatchObject({ id: "16999999", priority: 5 });
    await admin.post("/api/uspto/downloads/resume");
    await until(async () => (await sorted()).aggs.queued === 0 && (await sorted()).aggs.inprogress === 0);
    c = await sorted({ status: [] });
    expect(c.data.find((j) => j.id === "16999999")).toMatchObject({ status: "warning", isUnmatched: true });
    expect(c.toDelete).toBe(1);
    expect((await admin.put("/api/uspto/downloads/16123456", { priority: 5 })).status).toBe(409);
    expect(await (await admin.post("/api/uspto/sync/mark")).json()).toEqual({ marked: 1 });
    expect((await sorted({ isUnmatched: true })).total).toBe(1);
    expect(await (await admin.post("/api/uspto/sync/customer-numbers")).json()).toEqual({ updated: 0, skipped: 2, errors: [] });
    expect(await (await admin.post("/api/uspto/sync/delete")).json()).toEqual({ deleted: 1 });
    expect((await sorted({ status: [] })).total).toBe(1);
    // A second sync finds nothing new; deleting the cache makes it fetch everything again.
    expect(await (await admin.get("/api/uspto/sync")).json()).toEqual({ inProgress: false, queued: 0 });
    expect((await sorted({ status: [] })).total).toBe(1);
    expect(await (await admin.del("/api/uspto/sync/cache")).json()).toEqual({ deleted: 1 });
    expect(await (await admin.get("/api/uspto/sync")).json()).toEqual({ inProgress: false, queued: 2 });
  });

  it("a download of an application the office no longer has ends as delete", async () => {
    const { admin } = await setup();
    await admin.post("/api/uspto/downloads", { applications: ["16000404"] });
    const sorted = async () => (await (await admin.post("/api/uspto/downloads/sorted", { status: ["delete"] })).json()) as QueueCollection;
    await until(async () => (await sorted()).total === 1);
    expect((await sorted()).data[0]).toMatchObject({ id: "16000404", status: "delete", message: "The patent office has no application 16000404." });
  });

  it("a sync the office refuses answers 409 with the reason and records it", async () => {
    const { admin, office } = await setup({ concurrency: 0 });
    office.tooMany(100);
    await admin.post("/api/uspto/config/too-many-requests-delay", { delayMs: 0 });
    const res = await admin.get("/api/uspto/sync");
    expect([res.status, await message(res)]).toEqual([409, "The patent office answered 429 Too Many Requests again after waiting."]);
    expect(await (await admin.get("/api/uspto/sync/status")).json()).toMatchObject({ inProgress: false, lastError: expect.stringMatching(/429/) });
  });

  it("configuration: cron validated with the spec's messages, next runs, time-out in minutes, durations in ms", async () => {
    const { admin } = await setup({ concurrency: 0 });
    const cfg = (await (await admin.get("/api/uspto/config")).json()) as { schedule: { current: string; nextRuns: string[] } };
    expect(cfg.schedule.current).toBe("* * * * *");
    expect(cfg.schedule.nextRuns).toHaveLength(5);
    let res = await admin.post("/api/uspto/config/schedule", { newCron: "* * *" });
    expect([res.status, await message(res)]).toEqual([400, "Cron expression must have at least 5 fields"]);
    res = await admin.post("/api/uspto/config/schedule", { newCron: "61 * * * *" });
    expect(await message(res)).toBe("Invalid minute: 61");
    res = await admin.post("/api/uspto/config/schedule", { newCron: "0  2 * * 1-5" });
    expect(await res.json()).toMatchObject({ current: "0 2 * * 1-5" });
    res = await admin.post("/api/uspto/config/request-timeout", { timeoutMinutes: 2 });
    expect(await res.json()).toEqual({ current: 120_000, default: 60_000 });
    expect((await admin.post("/api/uspto/config/request-timeout", { timeoutMinutes: 0 })).status).toBe(400);
    expect(await (await admin.post("/api/uspto/config/download-repeat", { intervalMs: 0 })).json()).toMatchObject({ current: 0 });
    expect(await (await admin.post("/api/uspto/config/too-many-requests-delay", { delayMs: 30_000 })).json()).toMatchObject({ current: 30_000 });
    expect((await admin.post("/api/uspto/config/too-many-requests-delay", { delayMs: -1 })).status).toBe(400);
  });
});

describe("FIP", () => {
  it("sync matter re-fetches from the docket system; failures recorded; filters, sort, aggregates, delete", async () => {
    const { admin, docket } = await setup({ concurrency: 0 });
    let res = await admin.get("/api/fip/matters/byFipId/FIP:M-1");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toMatchObject({ fipId: "FIP:M-1", matterNumber: "ACME-001", synchronized: true, error: null, matterUrl: "https://fip.example/m/M-1" });
    res = await admin.get("/api/fip/matters/byFipId/FIP:M-2");
    expect(await res.json()).toMatchObject({ synchronized: false, error: "The docket system has no matter FIP:M-2." });
    expect((await admin.get("/api/fip/matters/byFipId/nocolon")).status).toBe(400);
    const list = async (body: unknown) => (await (await admin.post("/api/fip/matters/sorted", body)).json()) as FipCollection;
    expect((await list({})).aggs).toEqual({ failed: 1, synchronized: 1 });
    expect((await list({ sort: "asc" })).data.map((m) => m.fipId)).toEqual(["FIP:M-2", "FIP:M-1"]);
    expect((await list({ sort: "desc" })).data.map((m) => m.fipId)).toEqual(["FIP:M-1", "FIP:M-2"]);
    expect((await list({ status: ["failed"] })).total).toBe(1);
    docket.matters.set("M-2", { fipId: "FIP:M-2", matterNumber: "ACME-002" });
    await admin.get("/api/fip/matters/byFipId/FIP:M-2");
    expect((await list({})).aggs).toEqual({ failed: 0, synchronized: 2 });
    const id = (await list({})).data[0]!.id;
    expect((await admin.del(`/api/fip/matters/${id}`)).status).toBe(204);
    expect((await admin.del(`/api/fip/matters/${id}`)).status).toBe(404);
  });
});
