import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMIT_MESSAGES } from "@contract/limits";
import { WORKFLOW_LIMITS, WORKFLOW_MESSAGES as M } from "@contract/workflow-constants";
import { TEMPLATES, WORKFLOWS } from "~/workflows/texts";
import { ADMIN, browserWith, refusingUpstream, startApp, uniq, unescapeHtml, type Browser, type TestApp } from "../helpers/app";
import { largeExport } from "../helpers/workflow-export";

const W = WORKFLOWS;
const T = TEMPLATES;
const DATA = {
  list: "routes%2F_app.workflows._index",
  create: "routes%2F_app.workflows.new",
  edit: "routes%2F_app.workflows.%24id.edit",
  page: "routes%2F_app.workflows.%24id._index",
  milestones: "routes%2F_app.workflows.%24id.milestones",
};
const API = "/api/workflows/v2/workflows";

let app: TestApp;
let admin: Browser;
let dataDir = "";
beforeAll(async () => {
  app = await startApp((dir) => {
    dataDir = dir;
  });
  admin = app.browser();
  await admin.signIn(ADMIN.email, ADMIN.password);
});
afterAll(() => app?.close());

async function json<T>(r: Response): Promise<T> {
  return (await r.json()) as T;
}

async function createWorkflow(title: string, clientCodes: string[] = []): Promise<string> {
  const r = await app.adminApi("POST", API, { title, clientCodes });
  expect(r.status, await r.clone().text()).toBe(201);
  return (await json<{ id: string }>(r)).id;
}

async function createTemplate(workflowId: string, title: string): Promise<string> {
  const r = await app.adminApi("POST", `${API}/${workflowId}/milestones/draft/template`, {
    data: { title, events: [{ code: "portfolio.application.created" }] },
  });
  expect(r.status, await r.clone().text()).toBe(201);
  return (await json<{ id: string }>(r)).id;
}

async function defaultId(): Promise<string | null> {
  return (await json<{ defaultWorkflow: string | null }>(await app.adminApi("GET", `${API}/settings`))).defaultWorkflow;
}

/** Makes sure some workflow is the default, so that a new one is not (the first workflow created becomes it). */
async function ensureDefault(): Promise<string> {
  return (await defaultId()) ?? (await createWorkflow(`Default ${uniq()}`));
}

const text = async (r: Response) => unescapeHtml(await r.text());

describe("workflow list: permissions (spec 3 §6)", () => {
  it("workflows.read sees the list, exports and the read-only edit page, but no write control; posting is a 404", async () => {
    await ensureDefault();
    const title = `Readable ${uniq()}`;
    const id = await createWorkflow(title, [`R${uniq()}`]);
    const reader = await browserWith(app, ["workflows.read"]);
    const page = await reader.get(`/workflows?q=${encodeURIComponent(title)}`);
    expect(page.status).toBe(200);
    const html = await text(page);
    expect(html).toContain(`href="/workflows/${id}"`);
    expect(html).toContain(`${W.actions.export} ${title}`);
    expect(html).toContain(`${W.actions.edit} ${title}`);
    for (const control of [W.addNew, W.actions.importWorkflow, `${W.actions.makeDefault} ${title}`, `${W.actions.clone} ${title}`, `${W.actions.delete} ${title}`]) {
      expect(html).not.toContain(control);
    }
    // The side navigation has the entry.
    expect(html).toMatch(/href="\/workflows"[^>]*>[\s\S]{0,400}Workflows/);
    const edit = await text(await reader.get(`/workflows/${id}/edit`));
    expect(edit).toContain(W.readOnlyNote);
    expect(edit).not.toContain(`>${W.save}<`);
    expect((await reader.get(`/workflows/${id}/export`)).status).toBe(200);
    // Every write is refused, even a confirmed one, and nothing changes.
    expect((await reader.post("/workflows?index", { intent: "delete", id, confirmed: "yes" })).status).toBe(404);
    expect((await reader.post("/workflows?index", { intent: "makeDefault", id, confirmed: "yes" })).status).toBe(404);
    expect((await reader.post("/workflows?index", { intent: "clone", id, title: "x", references: "R" })).status).toBe(404);
    expect((await reader.post("/workflows?index", { intent: "import", importString: "{}" })).status).toBe(404);
    expect((await reader.post(`/workflows/${id}/edit`, { intent: "save", title: "Changed" })).status).toBe(404);
    expect((await reader.get("/workflows/new")).status).toBe(404);
    expect((await reader.get(`/workflows?clone=${id}`)).status).toBe(200);
    expect(await text(await reader.get(`/workflows?clone=${id}&import=1`))).not.toContain(M.pasteImportString);
    const t = await createTemplate(id, "Read only template");
    const templates = await text(await reader.get(`/workflows/${id}`));
    expect(templates).toContain("Read only template");
    expect(templates).not.toContain(T.addNew);
    expect(templates).not.toContain(`${T.activate} Read only template`);
    expect((await reader.post(`/workflows/${id}?index`, { intent: "toggle", template: t, to: "activate", confirmed: "yes" })).status).toBe(404);
    expect((await app.adminApi("GET", `${API}/${id}`)).status).toBe(200);
  });

  it("without workflows.read every screen and the export are the not-found view, and the navigation has no entry", async () => {
    const id = await createWorkflow(`Hidden ${uniq()}`);
    const stranger = await browserWith(app, ["portfolio.read"]);
    for (const url of ["/workflows", "/workflows/new", `/workflows/${id}`, `/workflows/${id}/milestones`, `/workflows/${id}/edit`, `/workflows/${id}/export`]) {
      const r = await stranger.get(url);
      expect(r.status, url).toBe(404);
      if (!url.endsWith("/export")) expect(await r.text(), url).toContain("Nothing here :(");
    }
    expect(await (await stranger.get("/")).text()).not.toContain('href="/workflows"');
  });
});

describe("workflow form (spec 3 §2.2, §5, §8)", () => {
  it("'Title is required' (trimmed), client codes from the tag list, 'Create completed' on the list", async () => {
    const empty = await admin.post(`/workflows/new?_data=${DATA.create}`, { intent: "save", title: "   ", clientCodes: "A1; B2" });
    expect(empty.status).toBe(400);
    const reply = await json<{ error: Record<string, string[]>; initialValue: Record<string, string> }>(empty);
    expect(reply.error).toEqual({ title: [M.titleRequired] });
    expect(reply.initialValue.clientCodes).toBe("A1; B2");
    // Without JavaScript: the page again, what was typed kept.
    const page = await text(await admin.post("/workflows/new", { intent: "save", title: "", clientCodes: "KEEP1; KEEP2" }));
    expect(page).toContain(M.titleRequired);
    expect(page).toContain("KEEP1; KEEP2");
    const title = `Patents ${uniq()}`;
    const codes = [`C${uniq()}`, `D${uniq()}`];
    const ok = await admin.post("/workflows/new", { intent: "save", title: `  ${title}  `, clientCodes: `${codes[0]}; ${codes[1]}; ${codes[0]!.toLowerCase()}` });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/workflows");
    const list = await text(await admin.get(`/workflows?q=${encodeURIComponent(title)}`));
    expect(list).toContain(W.toasts.created);
    expect(list).toContain(title);
    const found = await json<{ items: Array<{ title: string; clientCodes: string[] }> }>(await app.adminApi("GET", `${API}?q=${encodeURIComponent(title)}`));
    expect(found.items[0]).toMatchObject({ title, clientCodes: codes });
  });

  it("a refused save says 'Reason: ' and the server's message, 'Failed to save a workflow...' inline, input kept", async () => {
    const code = `TAKEN${uniq()}`;
    const holder = `Holder ${uniq()}`;
    await createWorkflow(holder, [code]);
    const r = await admin.post("/workflows/new", { intent: "save", title: "Second", clientCodes: code });
    expect(r.status).toBe(409);
    const html = await text(r);
    expect(html).toContain(W.toasts.createFailed);
    expect(html).toContain(`Reason: ${M.clientCodeTaken(code, holder)}`);
    expect(html).toContain(M.workflowSaveFailed);
    expect(html).toContain(`value="Second"`);
    expect(html).toContain(code);
    // Edit: the same texts with 'Update failed'.
    const id = await createWorkflow(`Editable ${uniq()}`);
    const u = await text(await admin.post(`/workflows/${id}/edit`, { intent: "save", title: "Editable", clientCodes: code }));
    expect(u).toContain(W.toasts.updateFailed);
    expect(u).toContain(`Reason: ${M.clientCodeTaken(code, holder)}`);
  });

  it("edit: the record's values, saved with 'Update completed'", async () => {
    const id = await createWorkflow(`Before ${uniq()}`, ["E1X"]);
    const page = await text(await admin.get(`/workflows/${id}/edit`));
    expect(page).toContain(W.editTitle);
    expect(page).toContain("E1X");
    const after = `After ${uniq()}`;
    const saved = await admin.post(`/workflows/${id}/edit`, { intent: "save", title: after, clientCodes: "" });
    expect(saved.headers.get("Location")).toBe("/workflows");
    expect(await text(await admin.get("/workflows"))).toContain(W.toasts.updated);
    expect(await json<{ title: string; clientCodes: string[] }>(await app.adminApi("GET", `${API}/${id}`))).toMatchObject({ title: after, clientCodes: [] });
  });
});

describe("make default and delete (spec 3 §2.2, §8)", () => {
  it("Make default asks first, then makes it the default; the default has no Make default and cannot be deleted, and says why", async () => {
    await ensureDefault();
    const title = `Next default ${uniq()}`;
    const id = await createWorkflow(title);
    const ask = await admin.post(`/workflows?index&_data=${DATA.list}`, { intent: "makeDefault", id });
    expect(await json<unknown>(ask)).toMatchObject({ confirm: "makeDefault", id });
    expect(await defaultId()).not.toBe(id);
    // Without JavaScript the step is in the page.
    const step = await text(await admin.post("/workflows?index", { intent: "makeDefault", id }));
    expect(step).toContain(W.makeDefault.title);
    expect(step).toContain(W.makeDefault.message(title));
    const done = await admin.post("/workflows?index&q=x", { intent: "makeDefault", id, confirmed: "yes" });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/workflows?q=x");
    expect(await defaultId()).toBe(id);
    const list = await text(await admin.get(`/workflows?q=${encodeURIComponent(title)}`));
    expect(list).toContain(W.makeDefault.done(title));
    expect(list).toContain(W.defaultBadge);
    expect(list).not.toContain(`${W.actions.makeDefault} ${title}`);
    // Its Delete is disabled with the reason beside it…
    expect(list).toContain(M.defaultNotDeletable);
    expect(list).toMatch(new RegExp(`<button[^>]*disabled[^>]*aria-label="${W.actions.delete} ${title}"|<button[^>]*aria-label="${W.actions.delete} ${title}"[^>]*disabled`));
    // …and a post anyway (a stale page) is refused with the reason, never a silent no-op.
    const refused = await admin.post("/workflows?index", { intent: "delete", id, confirmed: "yes" });
    expect(refused.status).toBe(409);
    const html = await text(refused);
    expect(html).toContain(W.toasts.deleteFailed);
    expect(html).toContain(M.defaultNotDeletable);
    expect((await app.adminApi("GET", `${API}/${id}`)).status).toBe(200);
  });

  it("'Set default failed' when the upstream refuses", async () => {
    const id = await createWorkflow(`Refused ${uniq()}`);
    const { refuse } = refusingUpstream(app);
    refuse("POST", /\/makeDefault$/, 500, "boom");
    const r = await admin.post("/workflows?index", { intent: "makeDefault", id, confirmed: "yes" });
    expect(r.status).toBe(502);
    expect(await text(r)).toContain(M.setDefaultFailed);
  });

  it("Delete asks ('This action can't be undone.'), then deletes with 'Delete completed'", async () => {
    await ensureDefault();
    const title = `Doomed ${uniq()}`;
    const id = await createWorkflow(title);
    const ask = await text(await admin.post("/workflows?index", { intent: "delete", id }));
    expect(ask).toContain(W.confirmDelete.title);
    expect(ask).toContain(M.deleteWorkflowConfirm);
    expect(ask).toContain(W.confirmDelete.message(title));
    expect((await app.adminApi("GET", `${API}/${id}`)).status).toBe(200);
    const del = await admin.post("/workflows?index", { intent: "delete", id, confirmed: "yes" });
    expect(del.headers.get("Location")).toBe("/workflows");
    expect(await text(await admin.get("/workflows"))).toContain(W.toasts.deleted);
    expect((await app.adminApi("GET", `${API}/${id}`)).status).toBe(404);
  });
});

describe("clone (spec 3 §2.2)", () => {
  it("the dialog: the original's title plus ' (clone)', its references each with a count; the rules; 'Clone completed'", async () => {
    await ensureDefault();
    const title = `Original ${uniq()}`;
    const keep = `K${uniq()}`.toUpperCase();
    const take = `T${uniq()}`.toUpperCase();
    const id = await createWorkflow(title, [keep, take]);
    await createTemplate(id, "Office action");
    // A matter with the client code `take`: its event is recorded by the engine (on the job queue).
    const event = await app.adminApi("POST", "/api/workflows/milestones", { code: "portfolio.application.created", reference: `APP-${uniq()}`, clientCode: take });
    expect(event.status).toBe(202);
    const deadline = Date.now() + 15_000;
    let count = 0;
    while (Date.now() < deadline && count === 0) {
      count = (await json<{ count: number }>(await app.adminApi("GET", `/api/workflows/migration/inventions/${take}/count`))).count;
      if (count === 0) await new Promise((r) => setTimeout(r, 200));
    }
    expect(count).toBe(1);

    const data = await json<{ clone: { id: string; title: string; references: Array<{ reference: string; count: number }> } }>(
      await admin.get(`/workflows?clone=${id}&_data=${DATA.list}`),
    );
    expect(data.clone).toEqual({
      id,
      title,
      references: expect.arrayContaining([
        { reference: keep, count: 0 },
        { reference: take, count: 1 },
      ]) as unknown,
    });
    const page = await text(await admin.get(`/workflows?clone=${id}`));
    expect(page).toContain(`value="${title} (clone)"`);
    expect(page).toContain(W.clone.reference(take, 1));
    expect(page).toContain(W.clone.reference(keep, 0));

    const none = await admin.post(`/workflows?index&clone=${id}&_data=${DATA.list}`, { intent: "clone", id, title: "Copy" });
    expect(none.status).toBe(400);
    expect((await json<{ error: Record<string, string[]> }>(none)).error).toEqual({ references: [M.cloneReferenceRequired] });
    const untitled = await admin.post(`/workflows?index&clone=${id}&_data=${DATA.list}`, { intent: "clone", id, title: "  ", references: take });
    expect((await json<{ error: Record<string, string[]> }>(untitled)).error).toEqual({ title: [M.titleRequired] });
    // Without JavaScript the dialog comes back with what was chosen.
    const kept = await text(await admin.post(`/workflows?index&clone=${id}`, { intent: "clone", id, title: "", references: take }));
    expect(kept).toContain(M.titleRequired);
    expect(kept).toMatch(new RegExp(`value="${take}"[^>]*checked|checked[^>]*value="${take}"`));

    const cloneTitle = `${title} (clone)`;
    const ok = await admin.post(`/workflows?index&clone=${id}`, { intent: "clone", id, title: cloneTitle, references: take });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/workflows");
    const list = await text(await admin.get(`/workflows?q=${encodeURIComponent(title)}`));
    expect(list).toContain(W.toasts.cloned);
    const found = await json<{ items: Array<{ id: string; title: string; clientCodes: string[] }> }>(
      await app.adminApi("GET", `${API}?q=${encodeURIComponent(title)}`),
    );
    const copy = found.items.find((w) => w.title === cloneTitle)!;
    expect(copy.clientCodes).toEqual([take]);
    expect(found.items.find((w) => w.id === id)!.clientCodes).toEqual([keep]);
    const templates = await json<Array<{ title: string }>>(await app.adminApi("GET", `${API}/${copy.id}/milestones`));
    expect(templates.map((t) => t.title)).toEqual(["Office action"]);
  });

  it("each reference travels as its own value: a client code with a comma ('ACME, Inc.') is one reference", async () => {
    await ensureDefault();
    const title = `Commas ${uniq()}`;
    const acme = `ACME, Inc. ${uniq()}`;
    const other = `Beta, LLC ${uniq()}`;
    const keep = `K${uniq()}`;
    const id = await createWorkflow(title, [acme, other, keep]);
    const page = await text(await admin.get(`/workflows?clone=${id}`));
    expect(unescapeHtml(page)).toContain(W.clone.reference(acme, 0));
    const ok = await admin.post(`/workflows?index&clone=${id}`, { intent: "clone", id, title: `${title} (clone)`, references: [acme, other] });
    expect(ok.status, await ok.clone().text()).toBe(302);
    const found = await json<{ items: Array<{ id: string; title: string; clientCodes: string[] }> }>(
      await app.adminApi("GET", `${API}?q=${encodeURIComponent(title)}`),
    );
    expect(found.items.find((w) => w.title === `${title} (clone)`)!.clientCodes).toEqual([acme, other]);
    expect(found.items.find((w) => w.id === id)!.clientCodes).toEqual([keep]);
  });

  it("a workflow without references says it cannot be cloned; 'Clone failed' when the upstream refuses", async () => {
    await ensureDefault();
    const id = await createWorkflow(`Bare ${uniq()}`);
    const page = await text(await admin.get(`/workflows?clone=${id}`));
    expect(page).toContain(W.clone.noReferences);
    const r = await admin.post(`/workflows?index&clone=${id}`, { intent: "clone", id, title: "Copy", references: "NOPE" });
    expect(r.status).toBe(400);
    const html = await text(r);
    expect(html).toContain(M.cloneFailed);
    expect(html).toContain(M.cloneReferenceUnknown("NOPE"));
  });
});

describe("export and import (spec 3 §3, §5, §8)", () => {
  it("Export downloads the export string; a failed export is 'Export failed' on the list", async () => {
    const title = `Exported ${uniq()}`;
    const id = await createWorkflow(title, ["EXP1"]);
    await createTemplate(id, "First");
    const r = await admin.get(`/workflows/${id}/export`);
    expect(r.status).toBe(200);
    expect(r.headers.get("Content-Disposition")).toMatch(/^attachment; filename="workflow-[\w-]+\.json"$/);
    const body = await json<{ workflow: { title: string; clientCodes: string[] }; templates: Array<{ title: string; active: boolean }> }>(r);
    expect(body.workflow).toEqual({ title, clientCodes: ["EXP1"] });
    expect(body.templates.map((t) => [t.title, t.active])).toEqual([["First", false]]);
    const gone = await admin.get("/workflows/no-such-workflow/export");
    expect(gone.status).toBe(302);
    expect(gone.headers.get("Location")).toBe("/workflows");
    expect(await text(await admin.get("/workflows"))).toContain(M.exportFailed);
  });

  it("Import workflow: invalid JSON, a string failing validation named, an upstream failure, then success", async () => {
    const open = await text(await admin.get("/workflows?import=1"));
    expect(open).toContain(M.pasteImportString);
    const bad = await admin.post("/workflows?index&import=1", { intent: "import", importString: "{not json" });
    expect(bad.status).toBe(400);
    const badHtml = await text(bad);
    expect(badHtml).toContain(M.importFailed);
    expect(badHtml).toContain(M.importInvalid);
    expect(badHtml).toContain("{not json");
    const invalid = await text(await admin.post("/workflows?index&import=1", { intent: "import", importString: JSON.stringify({ workflow: { clientCodes: [] } }) }));
    expect(invalid).toContain(M.importFailed);
    expect(invalid).toContain(`Reason: workflow.title: ${M.titleRequired}`);
    const empty = await admin.post(`/workflows?index&import=1&_data=${DATA.list}`, { intent: "import", importString: " " });
    expect((await json<{ error: Record<string, string[]> }>(empty)).error).toEqual({ importString: [W.import.required] });

    const title = `Imported ${uniq()}`;
    const source = { workflow: { title, clientCodes: [`IMP${uniq()}`] }, templates: [{ title: "Filed", active: true, events: [{ code: "portfolio.application.created" }] }] };
    const { refuse, restore } = refusingUpstream(app);
    refuse("POST", /\/workflows\/import$/, 500, "boom");
    const failed = await text(await admin.post("/workflows?index&import=1", { intent: "import", importString: JSON.stringify(source) }));
    expect(failed).toContain(M.importFailed);
    expect(failed).toContain(M.importCreationFailed);
    restore();

    const ok = await admin.post("/workflows?index&import=1", { intent: "import", importString: JSON.stringify(source) });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/workflows");
    const list = await text(await admin.get(`/workflows?q=${encodeURIComponent(title)}`));
    expect(list).toContain(M.importSuccessful);
    expect(list).toContain(title);
    const found = await json<{ items: Array<{ id: string }> }>(await app.adminApi("GET", `${API}?q=${encodeURIComponent(title)}`));
    const templates = await json<Array<{ title: string; active: boolean }>>(await app.adminApi("GET", `${API}/${found.items[0]!.id}/milestones`));
    expect(templates.map((t) => [t.title, t.active])).toEqual([["Filed", false]]);
  });
});

describe("imports past the page body limit (1 MB)", () => {
  it("a 2 MB export of 50 templates is imported, from the list and from a workflow's page", async () => {
    const title = `Large ${uniq()}`;
    const text2mb = largeExport(title, 50, 2 * 1024 * 1024);
    expect(Buffer.byteLength(text2mb)).toBeGreaterThan(2 * 1024 * 1024);
    const ok = await admin.postMultipart("/workflows?index&import=1", { intent: "import", importString: text2mb });
    expect(ok.status, ok.status === 302 ? "" : /toast-description">([^<]*)/.exec(await ok.clone().text())?.[1]).toBe(302);
    const found = await json<{ items: Array<{ id: string }> }>(await app.adminApi("GET", `${API}?q=${encodeURIComponent(title)}`));
    const templates = await json<Array<{ title: string }>>(await app.adminApi("GET", `${API}/${found.items[0]!.id}/milestones`));
    expect(templates).toHaveLength(50);

    // A template's import string of over 1 MB on a workflow's page (one template with a large note).
    const id = await createWorkflow(`Target ${uniq()}`);
    const one = JSON.parse(largeExport("x", 1, 1.5 * 1024 * 1024)) as { templates: unknown[] };
    const template = await admin.postMultipart(`/workflows/${id}?import=1`, { intent: "import", importString: JSON.stringify(one.templates[0]) });
    expect(template.status, template.status === 302 ? "" : /toast-description">([^<]*)/.exec(await template.clone().text())?.[1]).toBe(302);
    expect(await json<unknown[]>(await app.adminApi("GET", `${API}/${id}/milestones`))).toHaveLength(1);
  });

  it("a string over WORKFLOW_LIMITS.importString: 413, 'Import failed' and the field's message, the text kept", async () => {
    const over = "x".repeat(WORKFLOW_LIMITS.importString + 1);
    const r = await admin.postMultipart("/workflows?index&import=1", { intent: "import", importString: over });
    expect(r.status).toBe(413);
    const html = await text(r);
    const message = LIMIT_MESSAGES.tooLong("Import string", WORKFLOW_LIMITS.importString);
    expect(message).toBe("Import string must be at most 5,000,000 characters.");
    expect(html).toContain(M.importFailed);
    expect(html).toContain(message);
    expect(html).toContain(`>${over}</textarea>`);
    // At the bound itself the length is no objection (the text is not an export, so it fails as such).
    const at = await text(await admin.postMultipart("/workflows?index&import=1", { intent: "import", importString: "x".repeat(WORKFLOW_LIMITS.importString) }));
    expect(at).toContain(M.importInvalid);
    expect(at).not.toContain(message);
  });
});

describe("a workflow's milestone templates (spec 3 §2.3, §4.1, §8)", () => {
  it("both routes: BACK, the title, '+ New' to the wizard, the three empty messages, groups sorted by title", async () => {
    const title = `Templates ${uniq()}`;
    const id = await createWorkflow(title);
    for (const url of [`/workflows/${id}`, `/workflows/${id}/milestones`]) {
      const html = await text(await admin.get(url));
      expect(html).toContain(`>${title}</h1>`);
      expect(html).toContain(T.back);
      expect(html).toContain(`href="/workflows/${id}/milestones/new"`);
      expect(html).toContain(T.noneCreated);
      expect(html).not.toContain(T.noActive);
    }
    await createTemplate(id, "zeta");
    await createTemplate(id, "Alpha");
    const b = await createTemplate(id, "beta");
    const data = await json<{ active: Array<{ title: string }>; inactive: Array<{ title: string }> }>(await admin.get(`/workflows/${id}/milestones?_data=${DATA.milestones}`));
    expect(data.active).toEqual([]);
    expect(data.inactive.map((c) => c.title)).toEqual(["Alpha", "beta", "zeta"]);
    const html = await text(await admin.get(`/workflows/${id}`));
    expect(html).toContain(T.noActive);
    expect(html).not.toContain(T.noInactive);
    expect(html).toContain("Application created");
    await app.adminApi("POST", `${API}/${id}/milestones/${b}/activate`);
    const all = (await app.adminApi("GET", `${API}/${id}/milestones`).then((r) => r.json())) as Array<{ id: string }>;
    for (const t of all) await app.adminApi("POST", `${API}/${id}/milestones/${t.id}/activate`);
    expect(await text(await admin.get(`/workflows/${id}`))).toContain(T.noInactive);
  });

  it("Activate / Suspend: the confirmation, the toasts, 'Update failed' when refused; not offered for drafts", async () => {
    const id = await createWorkflow(`Toggle ${uniq()}`);
    const name = `Filing ${uniq()}`;
    const t = await createTemplate(id, name);
    const page = await text(await admin.get(`/workflows/${id}`));
    expect(page).toContain(`${T.activate} ${name}`);
    const ask = await text(await admin.post(`/workflows/${id}?index`, { intent: "toggle", template: t, to: "activate" }));
    expect(ask).toContain(M.activateTemplate);
    expect(ask).toContain(T.confirmActivate.message(name));
    expect((await json<{ active: boolean }>(await app.adminApi("GET", `${API}/${id}/milestones/${t}`))).active).toBe(false);
    const on = await admin.post(`/workflows/${id}?index`, { intent: "toggle", template: t, to: "activate", confirmed: "yes" });
    expect(on.headers.get("Location")).toBe(`/workflows/${id}`);
    const activePage = await text(await admin.get(`/workflows/${id}`));
    expect(activePage).toContain(M.activated(name));
    expect(activePage).toContain(`${T.suspend} ${name}`);
    const askOff = await text(await admin.post(`/workflows/${id}/milestones`, { intent: "toggle", template: t, to: "deactivate" }));
    expect(askOff).toContain(M.deactivateTemplate);
    const off = await admin.post(`/workflows/${id}/milestones`, { intent: "toggle", template: t, to: "deactivate", confirmed: "yes" });
    expect(off.headers.get("Location")).toBe(`/workflows/${id}/milestones`);
    expect(await text(await admin.get(`/workflows/${id}/milestones`))).toContain(M.deactivated(name));

    const { refuse, restore } = refusingUpstream(app);
    refuse("POST", /\/activate$/, 500, "boom");
    const failed = await admin.post(`/workflows/${id}?index`, { intent: "toggle", template: t, to: "activate", confirmed: "yes" });
    expect(failed.status).toBe(502);
    expect(await text(failed)).toContain(M.updateFailed);
    restore();
    expect((await json<{ active: boolean }>(await app.adminApi("GET", `${API}/${id}/milestones/${t}`))).active).toBe(false);

    // Pending changes: a template with a draft. Draft: a draft that is itself a new template (no toggle).
    const content = await json<Record<string, unknown>>(await app.adminApi("GET", `${API}/${id}/milestones/${t}/export`));
    const { active: _active, ...draft } = content;
    expect((await app.adminApi("PUT", `${API}/${id}/milestones/${t}/draft`, { ...draft, title: name })).status).toBe(200);
    const d = await createTemplate(id, `New draft ${uniq()}`);
    // No route makes a stand-alone draft yet (the template editor's Save as draft of a new template will): set it so.
    const db = new Database(path.join(dataDir, "backoffice.sqlite"));
    db.prepare("update milestone_templates set type = 'draft' where id = ?").run(d);
    db.close();
    const data = await json<{ inactive: Array<{ id: string; isDraft: boolean; hasDraft: boolean }> }>(await admin.get(`/workflows/${id}?_data=${DATA.page}`));
    expect(data.inactive.find((c) => c.id === t)).toMatchObject({ hasDraft: true, isDraft: false });
    expect(data.inactive.find((c) => c.id === d)).toMatchObject({ isDraft: true });
    const labels = await text(await admin.get(`/workflows/${id}`));
    expect(labels).toContain(`>${M.pendingChanges}<`);
    expect(labels).toContain(`>${M.draftLabel}<`);
    expect(labels.match(new RegExp(`aria-label="(${T.activate}|${T.suspend}) `, "g"))).toHaveLength(1);
    const refusedDraft = await admin.post(`/workflows/${id}?index`, { intent: "toggle", template: d, to: "activate", confirmed: "yes" });
    expect(refusedDraft.status).toBe(409);
    expect(await text(refusedDraft)).toContain(M.draftsNotToggled);
  });

  it("Import: 'Paste import string'; invalid JSON, a failing string named, a creation failure; 'Import successful' / 'Milestone was created'", async () => {
    const id = await createWorkflow(`Import into ${uniq()}`);
    const open = await text(await admin.get(`/workflows/${id}?import=1`));
    expect(open).toContain(M.pasteImportString);
    expect(open).toContain(`>${T.cancel}<`);
    const bad = await admin.post(`/workflows/${id}?index&import=1`, { intent: "import", importString: "nope" });
    expect(bad.status).toBe(400);
    const badHtml = await text(bad);
    expect(badHtml).toContain(M.importFailed);
    expect(badHtml).toContain(M.importInvalid);
    expect(badHtml).toContain(">nope</textarea>");
    const invalid = await text(await admin.post(`/workflows/${id}/milestones?import=1`, { intent: "import", importString: JSON.stringify({ uniqueness: "sometimes" }) }));
    expect(invalid).toContain(M.importFailed);
    expect(invalid).toContain(`Reason: title: ${M.templateTitleRequired}`);
    const source = JSON.stringify({ title: "Imported template", events: [{ code: "portfolio.application.created" }] });
    const { refuse, restore } = refusingUpstream(app);
    refuse("POST", /\/milestones\/import$/, 503, "Service Unavailable");
    const failed = await text(await admin.post(`/workflows/${id}?index&import=1`, { intent: "import", importString: source }));
    expect(failed).toContain(M.importFailed);
    expect(failed).toContain(M.importCreationFailed);
    restore();
    const ok = await admin.post(`/workflows/${id}?index&import=1`, { intent: "import", importString: source });
    expect(ok.headers.get("Location")).toBe(`/workflows/${id}`);
    const page = await text(await admin.get(`/workflows/${id}`));
    expect(page).toContain(M.importSuccessful);
    expect(page).toContain(M.importMilestoneCreated);
    expect(page).toContain("Imported template");
  });

  it("an unknown workflow is the not-found view", async () => {
    const r = await admin.get("/workflows/no-such-workflow");
    expect(r.status).toBe(404);
    expect(await r.text()).toContain("Nothing here :(");
  });
});
