/** The dashboards' upstream for staff: find a job by application id, requeue every failed job, stacks without the server's paths. */
import { describe, expect, it } from "vitest";
import type { QueueCollection } from "@contract/queues";
import { toItem } from "../../upstream/src/dispatcher/routes";
import { projectRelativeStack } from "../../upstream/src/queue/stack";
import { harness } from "../upstream/helpers";

const until = async (check: () => Promise<boolean>, ms = 5000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
};

async function setup() {
  // No patent office configured: every job fails at once, naming the missing setting.
  const h = await harness({ queues: { office: {}, docket: {}, customerNumbers: [], concurrency: 1 } });
  const get = async (url: string) => (await (await h.call("GET", url, { token: h.adminToken })).json()) as QueueCollection;
  const post = (url: string, body: unknown = {}) => h.call("POST", url, { token: h.adminToken, body });
  return { h, get, post };
}

describe("find a job by application id", () => {
  it("matches part of the id, any case, on processing and USPTO; % and _ are literal", async () => {
    const { get, post } = await setup();
    await post("/api/dispatcher/pause");
    await post("/api/dispatcher/schedule", { applications: ["16123456", "16234567", "PCT/US24/12345"] });
    expect((await get("/api/dispatcher/?q=1612")).data.map((j) => j.id)).toEqual(["16123456"]);
    expect((await get("/api/dispatcher/?q=pct/us")).data.map((j) => j.id)).toEqual(["PCT/US24/12345"]);
    expect((await get("/api/dispatcher/?q=%25")).total).toBe(0);
    expect((await get("/api/dispatcher/?q=")).total).toBe(3);
    await post("/api/uspto/downloads/pause");
    await post("/api/uspto/downloads", { applications: ["16123456", "17000001"] });
    const res = await post("/api/uspto/downloads/sorted", { q: "7000" });
    expect(((await res.json()) as QueueCollection).data.map((j) => j.id)).toEqual(["17000001"]);
    expect((await post("/api/uspto/downloads/sorted", { q: "x".repeat(41) })).status).toBe(400);
  });
});

describe("requeue all failed", () => {
  it("puts every failed job back in line at once, and only those", async () => {
    const { get, post } = await setup();
    await post("/api/dispatcher/schedule", { applications: ["16123456", "16234567"] });
    await until(async () => (await get("/api/dispatcher/")).aggs.failed === 2);
    await post("/api/dispatcher/pause");
    await post("/api/dispatcher/schedule", { applications: ["16345678"] });
    const res = await post("/api/dispatcher/requeue-failed");
    expect(await res.json()).toEqual({ requeued: 2 });
    const c = await get("/api/dispatcher/?status=requeued,queued,failed");
    expect(c.data.map((j) => [j.id, j.status, j.message]).sort()).toEqual([
      ["16123456", "requeued", null],
      ["16234567", "requeued", null],
      ["16345678", "queued", null],
    ]);
    expect((await post("/api/uspto/downloads/requeue-failed")).status).toBe(200);
  });
});

describe("stacks", () => {
  it("a failed job's stack names files relative to the project, never the server's absolute paths", async () => {
    const { get, post } = await setup();
    await post("/api/dispatcher/schedule", { applications: ["16123456"] });
    await until(async () => (await get("/api/dispatcher/")).aggs.failed === 1);
    const [job] = (await get("/api/dispatcher/?status=failed")).data;
    expect(job?.stack).toContain("upstream/src/");
    expect(job?.stack).not.toContain(process.cwd());
  });

  it("a stack recorded with absolute paths is served relative; paths outside the project keep node_modules/ or the file name", () => {
    const stack = [
      "Error: boom",
      `    at run (${process.cwd()}/upstream/src/dispatcher/services.ts:10:5)`,
      `    at file://${process.cwd()}/build/server.js:1:2`,
      "    at x (/opt/other/node_modules/hono/dist/index.js:3:4)",
      "    at y (/usr/lib/node/internal/timers.js:5:6)",
      "    at node:internal/process/task_queues:95:5",
    ].join("\n");
    expect(projectRelativeStack(stack)).toBe(
      [
        "Error: boom",
        "    at run (upstream/src/dispatcher/services.ts:10:5)",
        "    at build/server.js:1:2",
        "    at x (node_modules/hono/dist/index.js:3:4)",
        "    at y (timers.js:5:6)",
        "    at node:internal/process/task_queues:95:5",
      ].join("\n"),
    );
    const item = toItem({
      queue: "processing", id: "1", status: "failed", priority: 0, attempts: 1, maxAttempts: 3, runAt: 0, payload: {},
      message: "boom", stack, customerNumber: null, applicationChangedAt: null, isUnmatched: false, createdAt: 0, updatedAt: 0,
    });
    expect(item.stack).not.toContain(process.cwd());
  });
});
