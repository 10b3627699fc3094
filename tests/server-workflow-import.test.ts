import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IMPORT_BODY_BYTES, WORKFLOW_LIMITS } from "@contract/workflow-constants";
import { largeExport } from "./helpers/workflow-export";
import { signInCookie, startProductionServer, waitUntilUp, type RunningServer } from "./helpers/server";

/**
 * Import strings past the page body limit (1 MB) against the real process: the request guard's limit for the import
 * routes (server/guard.ts), the upstream's for its import endpoints (body-limit.ts, readJson), and nothing raised
 * elsewhere.
 */
// Disjoint from the other real-server tests: server.test 3900–4089, fuzz 4100–4179, guard 4200–4599 and 5100–5299,
// upload budget 4600–4899, health 4900–4989.
const PORT = 5400 + Math.floor(Math.random() * 100);
const base = `http://127.0.0.1:${PORT}`;
const admin = { email: "admin@import.test", password: "import-password" };
const MB = 1024 * 1024;

let server: RunningServer;
let dataDir: string;
let cookie = "";

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "backoffice-import-"));
  server = startProductionServer(PORT, dataDir, admin);
  await waitUntilUp(base, server, 30_000);
  cookie = await signInCookie(base, admin.email, admin.password);
});

afterAll(() => {
  server?.child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

/** The import dialog's post: multipart, as the dialog's form sends it. */
function postImport(url: string, importString: string, who = cookie) {
  const body = new FormData();
  body.append("intent", "import");
  body.append("importString", importString);
  return fetch(`${base}${url}`, { method: "POST", headers: { Origin: base, Cookie: who }, body, redirect: "manual" });
}

/** A post declaring `length` bytes of body and sending none: what the guard answers from the headers alone. */
function declared(url: string, length: number) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      `${base}${url}`,
      { method: "POST", agent: false, headers: { Origin: base, Cookie: cookie, "Content-Type": "multipart/form-data; boundary=x", "Content-Length": length } },
      (res) => {
        let body = "";
        res.on("data", (d: Buffer) => (body += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on("error", reject);
    req.flushHeaders();
  });
}

async function workflowNamed(title: string): Promise<{ id: string } | undefined> {
  const r = await fetch(`${base}/workflows?q=${encodeURIComponent(title)}&_data=routes%2F_app.workflows._index`, { headers: { Cookie: cookie } });
  return ((await r.json()) as { rows: { id: string; name: string }[] }).rows.find((w) => w.name === title);
}

describe("import strings over 1 MB (the real server)", () => {
  it("a 2 MB export of 50 templates is imported from the list; its templates all arrive", async () => {
    const title = "Large practice";
    const text = largeExport(title, 50, 2 * MB);
    expect(Buffer.byteLength(text)).toBeGreaterThan(2 * MB);
    const r = await postImport("/workflows?index&import=1", text);
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/workflows");
    const workflow = await workflowNamed(title);
    expect(workflow).toBeDefined();
    const page = await fetch(`${base}/workflows/${workflow!.id}`, { headers: { Cookie: cookie } });
    const html = await page.text();
    expect(html.match(/Template \d\d/g)?.length).toBeGreaterThanOrEqual(50);
  });

  it("a template's import string over 1 MB on a workflow's page", async () => {
    await postImport("/workflows?index&import=1", largeExport("Target", 1, 1000));
    const target = await workflowNamed("Target");
    const template = (JSON.parse(largeExport("x", 1, 1.5 * MB)) as { templates: unknown[] }).templates[0];
    const r = await postImport(`/workflows/${target!.id}/milestones?import=1`, JSON.stringify(template));
    expect(r.status).toBe(302);
  });

  it("a body past the import routes' bound is refused before it is read (413); other pages keep 1 MB", async () => {
    const over = await declared("/workflows?index", IMPORT_BODY_BYTES + 1);
    expect(over.status).toBe(413);
    expect(over.body).toContain("An import string may be at most");
    // The workflow form, beside the import routes, is not raised.
    expect((await declared("/workflows/new", 2 * MB)).status).toBe(413);
    expect((await declared("/workflows/some-id/edit", 2 * MB)).status).toBe(413);
  });

  it("a string over WORKFLOW_LIMITS.importString within the body bound: the page says so (413), not the guard", async () => {
    const r = await postImport("/workflows?index&import=1", "x".repeat(WORKFLOW_LIMITS.importString + 1));
    expect(r.status).toBe(413);
    const html = await r.text();
    expect(html).toContain("Import string must be at most 5,000,000 characters.");
    expect(html).toContain('id="import-workflow-dialog"');
  });
});
