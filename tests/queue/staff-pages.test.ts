/**
 * What staff trip over on the dashboards, through the built app without JavaScript: Delete asks first, rows selected
 * for bulk actions, Requeue all failed, a job found by its application id, failure toasts with the try-later sentence,
 * the inspect view's stack without the server's paths, and the side navigation's "Portfolio dashboard".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRY_LATER } from "~/lib/form-texts";
import type { QueueCollection } from "@contract/queues";
import { openDatabase, type Db } from "../../upstream/src/db";
import { SqliteJobQueue } from "../../upstream/src/queue/sqlite-queue";
import { ADMIN, startApp, type Browser, type TestApp } from "../helpers/app";

let app: TestApp;
let admin: Browser;
let db: Db;
let jobs: SqliteJobQueue;
beforeAll(async () => {
  let dataDir = "";
  app = await startApp((dir) => {
    dataDir = dir;
  });
  admin = app.browser();
  await admin.signIn(ADMIN.email, ADMIN.password);
  // The tests' app runs no worker: jobs are failed here, through the same queue on the same database, as a worker would.
  db = openDatabase(dataDir);
  jobs = new SqliteJobQueue(db);
});
afterAll(() => {
  db?.close();
  app?.close();
});

const html = async (url: string) => (await admin.get(url)).text();
/** The page a redirecting action lands on, with its flash toast. */
const landing = async (res: Response) => {
  expect(res.status).toBe(302);
  return html(res.headers.get("location")!);
};
const processing = async () => (await (await app.adminApi("GET", "/api/dispatcher/?status=")).json()) as QueueCollection;
const unescape = (s: string) => s.replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&");

function failJob(id: string) {
  const [job] = jobs.claim("processing", "test", 1, 60_000);
  expect(job?.id).toBe(id);
  const error = new Error(`No application ${id}.`);
  jobs.fail("processing", id, "test", { message: error.message, stack: `${error.stack}\n    at x (${process.cwd()}/server.js:1:1)` }, null);
}

describe("the dashboards for staff", () => {
  it("the side navigation names /processing 'Portfolio dashboard' (spec 1 §2)", async () => {
    const page = await html("/processing");
    expect(page).toMatch(/<a[^>]*href="\/processing"[^>]*>(?:(?!<\/a>)[\s\S])*Portfolio dashboard/);
  });

  it("finds a job by part of its application id, within the chosen statuses", async () => {
    expect((await admin.post("/processing", { intent: "schedule", text: "16123456 16234567 17000001" })).status).toBe(302);
    await admin.post("/processing", { intent: "pause" });
    const page = await html("/processing?filtered=1&status=queued&q=1612");
    expect(page).toContain('name="q"');
    expect(page).toContain("<code>16123456</code>");
    expect(page).not.toContain("<code>16234567</code>");
    expect(page).toContain("Total: 1");
    expect(await html("/uspto?filtered=1&status=queued&q=1612")).toContain('name="q"');
  });

  it("row Delete asks first (the kit's confirmation) and deletes once confirmed", async () => {
    let res = await admin.post("/processing?filtered=1&status=queued", { intent: "delete", id: "17000001" });
    expect(res.status).toBe(200);
    const step = unescape(await res.text());
    expect(step).toContain("Delete 17000001?");
    expect(step).toContain("This action can't be undone.");
    expect((await processing()).data.map((j) => j.id)).toContain("17000001");
    res = await admin.post("/processing?filtered=1&status=queued", { intent: "delete", id: "17000001", confirmed: "yes" });
    expect(await landing(res)).toContain("Delete completed");
    expect((await processing()).data.map((j) => j.id)).not.toContain("17000001");
  });

  it("FIP's row Delete asks first too (the step shows in the matter's row)", async () => {
    const res = await admin.post("/fip", { intent: "delete", id: "m-1" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('"actionData":{"routes/_app.fip":{"confirm":"delete","id":"m-1"}}');
  });

  it("failure toasts carry the try-later sentence", async () => {
    let res = await admin.post("/processing", { intent: "delete", id: "99999999", confirmed: "yes" });
    expect(unescape(await landing(res))).toContain(`Job not found. ${TRY_LATER}`);
    res = await admin.post("/uspto", { intent: "sync", confirmed: "yes" });
    expect(unescape(await landing(res))).toContain(TRY_LATER);
    res = await admin.post("/fip", { intent: "delete", id: "no-such-matter", confirmed: "yes" });
    expect(unescape(await landing(res))).toContain(TRY_LATER);
  });

  it("rows are selected for Requeue selected and Delete selected (asked first); Requeue all failed", async () => {
    const page = await html("/processing?filtered=1&status=queued");
    expect(page).toContain('form="bulk-jobs"');
    expect(page).toContain('id="bulk-jobs"');
    expect(page).toContain("Requeue selected");
    let res = await admin.post("/processing", { intent: "requeue-selected", ids: ["16123456", "16234567"] });
    expect(await landing(res)).toContain("2 jobs requeued.");
    expect((await processing()).data.filter((j) => j.status === "requeued").map((j) => j.id).sort()).toEqual(["16123456", "16234567"]);

    res = await admin.post("/processing", { intent: "delete-selected", ids: ["16234567"] });
    expect(res.status).toBe(200);
    const step = unescape(await res.text());
    expect(step).toContain("Delete the selected job?");
    expect(step).toMatch(/name="confirmed" value="yes"\/><input type="hidden" name="ids" value="16234567"\/>/);
    res = await admin.post("/processing", { intent: "delete-selected", ids: ["16234567"], confirmed: "yes" });
    expect(await landing(res)).toContain("1 job deleted.");
    expect((await processing()).data.map((j) => j.id)).toEqual(["16123456"]);

    await admin.post("/processing", { intent: "resume" });
    failJob("16123456");
    await admin.post("/processing", { intent: "pause" });
    expect(await html("/processing?filtered=1&status=failed")).toContain("Requeue all failed (1)");
    res = await admin.post("/processing", { intent: "requeue-failed" });
    expect(await landing(res)).toContain("1 job requeued.");
    expect((await processing()).data.map((j) => j.status)).toEqual(["requeued"]);
  });

  it("inspect shows the stack with paths relative to the project", async () => {
    await admin.post("/processing", { intent: "schedule", text: "18000001" });
    await admin.post("/processing", { intent: "resume" });
    // Claim order is by priority then run time: requeued 16123456 first; fail what comes.
    for (const j of jobs.claim("processing", "test", 5, 60_000)) jobs.fail("processing", j.id, "test", { message: "boom", stack: `Error: boom\n    at run (${process.cwd()}/upstream/src/dispatcher/services.ts:1:1)` }, null);
    await admin.post("/processing", { intent: "pause" });
    const page = await html("/processing?filtered=1&status=failed&inspect=18000001");
    expect(page).toContain('aria-labelledby="inspect-title"');
    expect(page).toContain("upstream/src/dispatcher/services.ts:1:1");
    expect(page).not.toContain(process.cwd());
    expect(page).toContain('id="inspect-18000001"');
  });
});
