/**
 * The template editor's draft buttons and their conditions (spec 3 §2.6, §4.1), the commit summary, the state badge
 * as the activation toggle, and the §8 texts they show — against the built app and the embedded upstream.
 */
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MilestoneTemplate, TemplateContent } from "@contract/milestone-templates";
import { diffTemplates } from "@contract/template-diff";
import { WORKFLOW_MESSAGES as M } from "@contract/workflow-constants";
import { EDITOR } from "~/workflows/editor/texts";
import { TEMPLATES } from "~/workflows/texts";
import { VERSIONS } from "~/workflows/versions/texts";
import { ADMIN, browserWith, startApp, uniq, unescapeHtml, type Browser, type TestApp } from "../helpers/app";

const API = "/api/workflows/v2/workflows";
const DATA = "routes%2F_app.workflows.%24id.milestones_.%24milestoneId";

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

const text = async (r: Response) => unescapeHtml(await r.text());

/** A workflow with one template (offline, revision 1); `active` activates it first. */
async function workflowWithTemplate(active = false) {
  const w = await app.adminApi("POST", API, { title: `Drafts ${uniq()}`, clientCodes: [`D${uniq()}`] });
  expect(w.status).toBe(201);
  const workflowId = ((await w.json()) as { id: string }).id;
  const t = await app.adminApi("POST", `${API}/${workflowId}/milestones/draft/template`, { data: { title: `Office action ${uniq()}`, events: [{ code: "portfolio.application.created" }] } });
  expect(t.status).toBe(201);
  const templateId = ((await t.json()) as { id: string }).id;
  if (active) expect((await app.adminApi("POST", `${API}/${workflowId}/milestones/${templateId}/activate`)).status).toBe(200);
  return { workflowId, templateId, url: `/workflows/${workflowId}/milestones/${templateId}`, api: `${API}/${workflowId}/milestones/${templateId}` };
}

const read = async (apiPath: string) => {
  const r = await app.adminApi("GET", apiPath);
  return r.status === 200 ? MilestoneTemplate.parse(await r.json()) : null;
};

/** The hidden version fields of the page's first save form, as a browser without JavaScript posts them. */
function hiddenVersions(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ["baseVersion", "draftVersion"]) {
    const m = new RegExp(`<input type="hidden" name="${name}" value="(\\d+)"`).exec(html);
    if (m) out[name] = m[1]!;
  }
  return out;
}

/** The document a canvas would post (the template's content, a field changed). */
const documentOf = (t: MilestoneTemplate, change: Partial<TemplateContent>) => {
  const { commitMessage: _c, ...doc } = TemplateContent.parse(t);
  return JSON.stringify({ ...doc, ...change });
};

/** The save area's first button (Save or Save as draft) and whether its form posts to the draft. */
function saveButton(html: string) {
  const m = /<div class="editor-save"><form[^>]*>([\s\S]*?)<\/form>/.exec(html);
  expect(m, "save form").not.toBeNull();
  return { toDraft: m![1]!.includes('<input type="hidden" name="to" value="draft"/>'), label: />([^<>]+)<\/button>/.exec(m![1]!)![1] };
}

describe("Save or Save as draft (spec 3 §2.6, §4.1)", () => {
  it("an OFFLINE template's Save makes it the template; a running one offers Save as draft, kept in its draft with 'Draft saved'", async () => {
    const offline = await workflowWithTemplate();
    expect(saveButton(await text(await admin.get(offline.url)))).toEqual({ toDraft: false, label: EDITOR.save });

    const { url, api, workflowId } = await workflowWithTemplate(true);
    const page = await text(await admin.get(url));
    expect(saveButton(page)).toEqual({ toDraft: true, label: VERSIONS.saveAsDraft });
    expect(page).not.toContain(`>${VERSIONS.discardDraft}<`);
    const before = (await read(api))!;

    // Without JavaScript: the working document parked in a new draft; back to the editor, which shows the draft.
    const saved = await admin.post(url, { intent: "save", to: "draft", ...hiddenVersions(page) });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(url);
    const shown = await text(await admin.get(url));
    expect(shown).toContain(M.draftSaved);
    expect(shown).toContain(`<span class="badge badge-draft">${EDITOR.badge.draft}</span>`);
    expect(shown).toContain(`>${VERSIONS.discardDraft}<`);
    expect((await read(`${api}/draft`))!.title).toBe(before.title);
    // The template list's label comes from the kit's draft.
    expect(await text(await admin.get(`/workflows/${workflowId}`))).toContain(`>${M.pendingChanges}<`);

    // With JavaScript: the canvas's document travels with the post; the answer is JSON, the page stays.
    const canvas = await admin.post(`${url}?_data=${DATA}`, { intent: "save", to: "draft", ...hiddenVersions(shown), document: documentOf(before, { title: "Parked" }) });
    expect(canvas.status).toBe(200);
    expect(await canvas.json()).toEqual({ ok: true, toast: { type: "success", message: M.draftSaved } });
    expect((await read(`${api}/draft`))!.title).toBe("Parked");
    // The running template is untouched.
    const now = (await read(api))!;
    expect({ title: now.title, revision: now.revision, active: now.active }).toEqual({ title: before.title, revision: before.revision, active: true });
  });

  it("'Overwrite draft?' when someone saved a draft since the page was loaded: nothing overwritten unseen; yes overwrites", async () => {
    const { url, api } = await workflowWithTemplate(true);
    const other = await browserWith(app, ["workflows"]);
    const page = await text(await admin.get(url));
    const template = (await read(api))!;
    // Someone else begins a draft after this page was loaded.
    expect((await other.post(url, { intent: "edit", op: "addStage", form: "add-stage", name: "Theirs" })).status).toBe(302);
    const theirs = (await read(`${api}/draft`))!;

    const asked = await admin.post(`${url}?_data=${DATA}`, { intent: "save", to: "draft", ...hiddenVersions(page), document: documentOf(template, { title: "Mine" }) });
    expect(asked.status).toBe(409);
    const reply = (await asked.json()) as { confirm: string; stale: boolean; overwrite: { version: number; author: string } };
    expect(reply).toMatchObject({ confirm: "overwrite-draft", stale: true, overwrite: { version: theirs.version, author: theirs.updatedBy!.split("@")[0] } });
    expect((await read(`${api}/draft`))!.roadmap.map((s) => s.name)).toEqual(["Theirs"]);
    // Without JavaScript the same answer is the page with the question, its text, and the form that says yes.
    const html = await text(await admin.post(url, { intent: "save", to: "draft", ...hiddenVersions(page) }));
    expect(html).toContain(`<h2 id="overwrite-draft-title">${VERSIONS.overwriteTitle}</h2>`);
    expect(html).toContain(`saved by ${theirs.updatedBy!.split("@")[0]} on `);
    expect(html).toContain(`<input type="hidden" name="draftVersion" value="${theirs.version}"/>`);
    expect(html).toMatch(/<a[^>]*class="btn btn-secondary"[^>]*>Cancel<\/a>/);

    // Yes: the same save, based on the version it was told.
    const yes = await admin.post(`${url}?_data=${DATA}`, { intent: "save", to: "draft", draftVersion: String(theirs.version), document: documentOf(template, { title: "Mine" }) });
    expect(yes.status).toBe(200);
    expect((await read(`${api}/draft`))!.title).toBe("Mine");
  });

  it("a draft save the upstream refuses: 'Update draft failed' with its reason, nothing kept", async () => {
    const { url, api } = await workflowWithTemplate(true);
    const t = (await read(api))!;
    const bad = await admin.post(`${url}?_data=${DATA}`, {
      intent: "save",
      to: "draft",
      document: documentOf(t, { roadmap: [{ name: "A", steps: ["task-1"] }, { name: "B", steps: ["task-1"] }] }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ ok: false, toast: { type: "error", message: M.updateDraftFailed } });
    expect(await read(`${api}/draft`)).toBeNull();
  });
});

describe("Discard draft (spec 3 §4.1)", () => {
  it("asks 'Discard draft?', then drops the template's draft and shows the template: 'Draft discarded'; a draft changed since is kept: 'Delete draft failed'", async () => {
    const { url, api } = await workflowWithTemplate();
    expect((await admin.post(url, { intent: "edit", op: "addStage", form: "add-stage", name: "Filing" })).status).toBe(302);
    const page = await text(await admin.get(url));
    const loaded = hiddenVersions(page);
    expect(loaded.draftVersion).toBeDefined();
    expect(page).toContain(`>${VERSIONS.discardDraft}<`);

    const ask = await text(await admin.post(url, { intent: "discard-draft", draftVersion: loaded.draftVersion! }));
    expect(ask).toContain(VERSIONS.discardTitle);
    expect(ask).toContain(VERSIONS.discardMessage);
    expect(await read(`${api}/draft`)).not.toBeNull();

    // The draft changed after the page was loaded: not dropped unseen.
    expect((await admin.post(url, { intent: "edit", op: "addStage", form: "add-stage", name: "Grant" })).status).toBe(302);
    const stale = await admin.post(url, { intent: "discard-draft", confirmed: "yes", draftVersion: loaded.draftVersion! });
    expect(stale.status).toBe(409);
    const staleHtml = await text(stale);
    expect(staleHtml).toContain(M.deleteDraftFailed);
    expect(staleHtml).toContain(VERSIONS.draftChanged);
    expect((await read(`${api}/draft`))!.roadmap.map((s) => s.name)).toEqual(["Filing", "Grant"]);

    const fresh = hiddenVersions(await text(await admin.get(url)));
    const done = await admin.post(url, { intent: "discard-draft", confirmed: "yes", draftVersion: fresh.draftVersion! });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(url);
    const back = await text(await admin.get(url));
    expect(back).toContain(M.draftDiscarded);
    expect(back).not.toContain(`>${VERSIONS.discardDraft}<`);
    expect(await read(`${api}/draft`)).toBeNull();
    expect((await read(api))!.hasDraft).toBe(false);
  });

  it("a draft that is itself a new template: Save keeps it a draft, its label on the list, Discard deletes it and returns to the workflow: 'Draft deleted'", async () => {
    const { url, api, workflowId, templateId } = await workflowWithTemplate();
    // No route makes a stand-alone draft yet: set it so.
    const db = new Database(path.join(dataDir, "backoffice.sqlite"));
    db.prepare("update milestone_templates set type = 'draft' where id = ?").run(templateId);
    db.close();
    expect(await text(await admin.get(`/workflows/${workflowId}`))).toContain(`>${M.draftLabel}<`);
    const page = await text(await admin.get(url));
    expect(saveButton(page)).toEqual({ toDraft: true, label: EDITOR.save });
    expect(page).toContain(VERSIONS.newTemplate);
    const saved = await admin.post(url, { intent: "save", to: "draft", ...hiddenVersions(page) });
    expect(saved.status).toBe(302);
    expect(await text(await admin.get(url))).toContain(M.draftSaved);
    expect((await read(api))!.type).toBe("draft");

    const ask = await text(await admin.post(url, { intent: "discard-draft" }));
    expect(ask).toContain(VERSIONS.deleteDraftMessage);
    const done = await admin.post(url, { intent: "discard-draft", confirmed: "yes" });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/workflows/${workflowId}`);
    expect(await text(await admin.get(`/workflows/${workflowId}`))).toContain(M.draftDeleted);
    expect(await read(api)).toBeNull();
  });

  it("Save & Activate of a draft template commits it (it becomes a template) and activates it", async () => {
    const { url, api, workflowId, templateId } = await workflowWithTemplate();
    const db = new Database(path.join(dataDir, "backoffice.sqlite"));
    db.prepare("update milestone_templates set type = 'draft', revision = 0 where id = ?").run(templateId);
    db.close();
    const page = await text(await admin.get(url));
    const done = await admin.post(url, { intent: "save-activate", ...hiddenVersions(page), commitMessage: "First" });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/workflows/${workflowId}`);
    expect(await text(await admin.get(`/workflows/${workflowId}`))).toContain(M.savedAndActivated);
    // (Its revision follows the one this test's setup made before turning it into a draft.)
    expect(await read(api)).toMatchObject({ type: "template", active: true, commitMessage: "First" });
  });

  it("a reader has no draft buttons and cannot post them", async () => {
    const { url } = await workflowWithTemplate();
    expect((await admin.post(url, { intent: "edit", op: "addStage", form: "add-stage", name: "Filing" })).status).toBe(302);
    const reader = await browserWith(app, ["workflows.read"]);
    const html = await text(await reader.get(url));
    for (const t of [VERSIONS.discardDraft, VERSIONS.saveAsDraft, EDITOR.saveActivate]) expect(html, t).not.toContain(`>${t}<`);
    expect((await reader.post(url, { intent: "discard-draft", confirmed: "yes" })).status).toBe(404);
    expect((await reader.post(url, { intent: "save", to: "draft" })).status).toBe(404);
  });
});

describe("the commit summary (spec 3 §2.6 commit modal)", () => {
  it("Save & Activate's form lists what it commits from the draft in the differ's words", async () => {
    const { url, api } = await workflowWithTemplate();
    expect(await text(await admin.get(url))).not.toContain(VERSIONS.whatChanges);
    expect((await admin.post(url, { intent: "edit", op: "addStep", form: "add-step", type: "task", title: "Report to client", durationHours: "2", notification: "", stage: "" })).status).toBe(302);
    expect((await admin.post(url, { intent: "edit", op: "addStage", form: "add-stage", name: "Filing" })).status).toBe(302);
    const [current, draft] = [(await read(api))!, (await read(`${api}/draft`))!];
    const { commitMessage: _a, ...before } = TemplateContent.parse(current);
    const { commitMessage: _b, ...after } = TemplateContent.parse(draft);
    const { changes } = diffTemplates(before, after);
    expect(changes.length).toBeGreaterThanOrEqual(2);
    const html = await text(await admin.get(url));
    const form = /<form[^>]*aria-label="Save &amp; Activate"[^>]*>([\s\S]*?)<\/form>|<form[^>]*aria-label="Save & Activate"[^>]*>([\s\S]*?)<\/form>/.exec(html);
    expect(form, "Save & Activate form").not.toBeNull();
    const body = form![1] ?? form![2]!;
    expect(body).toContain(`<summary>${VERSIONS.whatChanges} (${changes.length})</summary>`);
    for (const c of changes) expect(body).toContain(c.text);
    expect(body).toContain("Step 'Report to client' added");
  });
});

describe("the state badge (spec 3 §2.6 'ONLINE or OFFLINE (clickable)', §4.1)", () => {
  it("toggles activation after 'Activate template' / 'Deactivate template'; a reader's badge is a label", async () => {
    const { url, api } = await workflowWithTemplate();
    const t = (await read(api))!;
    const page = await text(await admin.get(url));
    expect(page).toContain(`aria-label="${VERSIONS.toggleBadge(EDITOR.badge.offline, TEMPLATES.activate)}"`);
    const ask = await text(await admin.post(url, { intent: "toggle", to: "activate" }));
    expect(ask).toContain(TEMPLATES.confirmActivate.title);
    expect(ask).toContain(TEMPLATES.confirmActivate.message(t.title));
    expect((await read(api))!.active).toBe(false);
    const on = await admin.post(url, { intent: "toggle", to: "activate", confirmed: "yes" });
    expect(on.status).toBe(302);
    expect(on.headers.get("Location")).toBe(url);
    const online = await text(await admin.get(url));
    expect(online).toContain(M.activated(t.title));
    expect(online).toContain(`aria-label="${VERSIONS.toggleBadge(EDITOR.badge.online, TEMPLATES.suspend)}"`);
    expect((await read(api))!.active).toBe(true);
    expect(await text(await admin.post(url, { intent: "toggle", to: "deactivate" }))).toContain(TEMPLATES.confirmDeactivate.title);
    expect((await admin.post(url, { intent: "toggle", to: "deactivate", confirmed: "yes" })).status).toBe(302);
    expect(await text(await admin.get(url))).toContain(M.deactivated(t.title));
    expect((await read(api))!.active).toBe(false);

    const reader = await browserWith(app, ["workflows.read"]);
    const seen = await text(await reader.get(url));
    expect(seen).toContain(`<span class="badge badge-offline">${EDITOR.badge.offline}</span>`);
    expect(seen).not.toContain("badge-toggle");
    expect((await reader.post(url, { intent: "toggle", to: "activate", confirmed: "yes" })).status).toBe(404);
  });
});
