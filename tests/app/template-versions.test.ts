import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MilestoneTemplate, TemplateContent } from "@contract/milestone-templates";
import { diffTemplates } from "@contract/template-diff";
import { VERSION_MESSAGES } from "@contract/versions";
import { formatDateTime } from "~/lib/format";
import { EDITOR } from "~/workflows/editor/texts";
import { VERSIONS } from "~/workflows/versions/texts";
import { isStale, shouldRevalidate } from "~/workflows/versions/versions";
import { ADMIN, browserWith, startApp, uniq, unescapeHtml, type Browser, type TestApp } from "../helpers/app";

const API = "/api/workflows/v2/workflows";
const DATA = "routes%2F_app.workflows.%24id.milestones_.%24milestoneId";

let app: TestApp;
let admin: Browser;
beforeAll(async () => {
  app = await startApp();
  admin = app.browser();
  await admin.signIn(ADMIN.email, ADMIN.password);
});
afterAll(() => app?.close());

const text = async (r: Response) => unescapeHtml(await r.text());

async function workflowWithTemplate() {
  const w = await app.adminApi("POST", API, { title: `Versions ${uniq()}`, clientCodes: [`V${uniq()}`] });
  expect(w.status).toBe(201);
  const workflowId = ((await w.json()) as { id: string }).id;
  const t = await app.adminApi("POST", `${API}/${workflowId}/milestones/draft/template`, { data: { title: "Office action", events: [{ code: "portfolio.application.created" }] } });
  expect(t.status).toBe(201);
  const templateId = ((await t.json()) as { id: string }).id;
  return { workflowId, templateId, url: `/workflows/${workflowId}/milestones/${templateId}` };
}

/** A page as a browser in New York sees it (the `tz` cookie the client script sets). */
const inNewYork = async (browser: Browser, url: string) =>
  text(await browser.send(new Request(`http://localhost${url}`, { headers: { Cookie: `${browser.header()}; tz=America/New_York` } })));

/** The history dropdown's HTML: a <details> menu, so it opens without JavaScript. */
function historyOf(html: string): string {
  const m = /<details class="history-menu">[\s\S]*?<\/details>/.exec(html);
  expect(m, "history menu").not.toBeNull();
  return m![0];
}

const templateOf = async (workflowId: string, templateId: string, draft = false) =>
  MilestoneTemplate.parse(await (await app.adminApi("GET", `${API}/${workflowId}/milestones/${templateId}${draft ? "/draft" : ""}`)).json());

/** The hidden fields of the page's Save form, as a browser without JavaScript would post them. */
function hiddenVersions(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ["baseVersion", "draftVersion"]) {
    const m = new RegExp(`<input type="hidden" name="${name}" value="(\\d+)"`).exec(html);
    if (m) out[name] = m[1]!;
  }
  return out;
}

describe("the template editor's saves carry the version the page was loaded with (versions kit)", () => {
  it("two browsers saving the same template: one success, one 409 with its text, the commit message kept", async () => {
    const { url, workflowId, templateId } = await workflowWithTemplate();
    const other = await browserWith(app, ["workflows"]);
    const mine = await text(await admin.get(url));
    const theirs = await text(await other.get(url));
    const versions = hiddenVersions(mine);
    expect(versions).toEqual({ baseVersion: String((await templateOf(workflowId, templateId)).version) });
    expect(hiddenVersions(theirs)).toEqual(versions);
    // Theirs first: a canvas document with a new title.
    const t = await templateOf(workflowId, templateId);
    const first = await other.post(`${url}?_data=${DATA}`, { intent: "save", ...versions, document: JSON.stringify({ ...t, title: "Theirs" }) });
    expect(first.status, await first.clone().text()).toBe(200);
    // Mine, based on the same version: refused, nothing saved, the 409's text shown and the page kept.
    const stale = await admin.post(`${url}?_data=${DATA}`, { intent: "save", ...versions, commitMessage: "Mine", document: JSON.stringify({ ...t, title: "Mine" }) });
    expect(stale.status).toBe(409);
    const reply = (await stale.json()) as Record<string, unknown>;
    const now = await templateOf(workflowId, templateId);
    expect(now.title).toBe("Theirs");
    expect(reply).toMatchObject({ ok: false, stale: true, values: { commitMessage: "Mine" }, toast: { message: EDITOR.updateFailed } });
    expect(reply.message).toBe(VERSION_MESSAGES.stale(now.version!, now.updatedBy));
    // Without JavaScript: the page again, with the message and the commit message typed.
    const html = await text(await admin.post(url, { intent: "save-activate", ...versions, commitMessage: "Mine again" }));
    expect(html).toContain(VERSION_MESSAGES.stale(now.version!, now.updatedBy));
    expect(html).toContain('value="Mine again"');
    expect((await templateOf(workflowId, templateId)).active).toBe(false);
    // Reloaded, the page carries the new version and its save goes through.
    const fresh = hiddenVersions(await text(await admin.get(url)));
    expect(fresh).toEqual({ baseVersion: String(now.version) });
    expect((await admin.post(url, { intent: "save", ...fresh, commitMessage: "Mine" })).status).toBe(302);
  });

  it("a draft's save names the draft's version: a draft changed elsewhere since is a 409, and the draft keeps every edit", async () => {
    const { url, workflowId, templateId } = await workflowWithTemplate();
    const other = await browserWith(app, ["workflows"]);
    expect((await admin.post(url, { intent: "edit", op: "addStage", form: "add-stage", name: "Filing" })).status).toBe(302);
    const draft = await templateOf(workflowId, templateId, true);
    const loaded = hiddenVersions(await text(await admin.get(url)));
    expect(loaded).toEqual({ baseVersion: String(draft.revision), draftVersion: String(draft.version) });
    // Someone else edits the draft after the page was loaded.
    expect((await other.post(url, { intent: "edit", op: "addStage", form: "add-stage", name: "Grant" })).status).toBe(302);
    const stale = await admin.post(`${url}?_data=${DATA}`, { intent: "save", ...loaded });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ ok: false, stale: true, toast: { message: EDITOR.updateFailed } });
    // Nothing lost: the draft holds both edits, the template neither.
    const kept = await templateOf(workflowId, templateId, true);
    expect(kept.roadmap.map((s) => s.name)).toEqual(["Filing", "Grant"]);
    const template = await templateOf(workflowId, templateId);
    expect(template.hasDraft).toBe(true);
    expect(template.roadmap).toEqual([]);
    // The page reloaded commits the draft and drops it at once.
    const fresh = hiddenVersions(await text(await admin.get(url)));
    expect(fresh.draftVersion).toBe(String(kept.version));
    expect((await admin.post(url, { intent: "save", ...fresh })).status).toBe(302);
    const saved = await templateOf(workflowId, templateId);
    expect(saved.hasDraft).toBe(false);
    expect(saved.roadmap.map((s) => s.name)).toEqual(["Filing", "Grant"]);
  });

  it("a page whose save was refused as stale is not reloaded (the canvas keeps its unsaved document)", () => {
    const args = { defaultShouldRevalidate: true } as Parameters<typeof shouldRevalidate>[0];
    expect(shouldRevalidate({ ...args, actionResult: { ok: false, stale: true } })).toBe(false);
    expect(isStale({ ok: false, message: "x" })).toBe(false);
    expect(shouldRevalidate({ ...args, actionResult: { ok: false, message: "x" } })).toBe(true);
  });
});

describe("the history dropdown, a revision's preview and Activate (spec 3 §2.6, §4.1)", () => {
  it("lists the draft and the revisions newest first with status, date in the user's zone, author before the @ and message", async () => {
    const { url, workflowId, templateId } = await workflowWithTemplate();
    const first = await templateOf(workflowId, templateId);
    expect((await admin.post(url, { intent: "edit", op: "addStage", form: "add-stage", name: "Filing" })).status).toBe(302);
    const loaded = hiddenVersions(await text(await admin.get(url)));
    expect((await admin.post(url, { intent: "save", ...loaded, commitMessage: "Filing stage" })).status).toBe(302);
    expect((await admin.post(url, { intent: "edit", op: "addStage", form: "add-stage", name: "Grant" })).status).toBe(302);
    const draft = await templateOf(workflowId, templateId, true);
    const revisions = (await (await app.adminApi("GET", `${API}/${workflowId}/milestones/${templateId}/revisions`)).json()) as { revision: number; createdAt: string; commitMessage: string }[];
    expect(revisions.map((r) => r.revision)).toEqual([first.revision + 1, first.revision]);
    const menu = historyOf(await inNewYork(admin, url));
    const order = [VERSIONS.draft, VERSIONS.revision(first.revision + 1), VERSIONS.revision(first.revision)].map((label) => menu.indexOf(`<strong>${label}</strong>`));
    expect(order.every((i) => i >= 0), menu).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(menu).toContain(VERSIONS.status.draft);
    expect(menu).toContain(VERSIONS.status.offline);
    expect(menu).toContain(VERSIONS.status.past);
    expect(menu).toContain("Filing stage");
    expect(menu).toContain(formatDateTime(revisions[0]!.createdAt, "America/New_York"));
    expect(menu).toContain(formatDateTime(draft.updatedAt, "America/New_York"));
    expect(menu).toContain(`· ${ADMIN.email.split("@")[0]}<`);
    expect(menu).not.toContain(ADMIN.email);
    // The draft is what the editor shows; each revision leads to its preview.
    expect(menu).toMatch(new RegExp(`<a aria-current="page"[^>]*href="${url}"`));
    expect(menu).toContain(`href="${url}/revisions/${first.revision}"`);
  });

  it("a revision's preview is read-only with its label as the badge; Activate makes its content current as a new revision", async () => {
    const { url, workflowId, templateId } = await workflowWithTemplate();
    const first = await templateOf(workflowId, templateId);
    expect((await admin.post(url, { intent: "edit", op: "addStage", form: "add-stage", name: "Filing" })).status).toBe(302);
    expect((await admin.post(url, { intent: "save", ...hiddenVersions(await text(await admin.get(url))), commitMessage: "Filing stage" })).status).toBe(302);
    const second = await templateOf(workflowId, templateId);
    expect(second.roadmap.map((s) => s.name)).toEqual(["Filing"]);

    const preview = `${url}/revisions/${first.revision}`;
    const html = await text(await admin.get(preview));
    expect(html).toContain(`<span class="badge badge-revision">${VERSIONS.revision(first.revision)}</span>`);
    expect(html).toContain(VERSIONS.preview);
    expect(html).toContain('<details class="history-menu">');
    expect(html).toContain(">" + VERSIONS.activate + "<");
    // Read-only: none of the editor's forms.
    for (const t of [EDITOR.save, EDITOR.saveActivate, EDITOR.addStep, EDITOR.deleteTemplate]) expect(html, t).not.toContain(`>${t}<`);
    expect(html).not.toContain('name="op"');
    // The current revision's preview offers no Activate.
    expect(await text(await admin.get(`${url}/revisions/${second.revision}`))).not.toContain(">" + VERSIONS.activate + "<");
    // A reader sees the preview without Activate and cannot post it; a missing revision is not found.
    const reader = await browserWith(app, ["workflows.read"]);
    const seen = await reader.get(preview);
    expect(seen.status).toBe(200);
    expect(await text(seen)).not.toContain(">" + VERSIONS.activate + "<");
    expect((await reader.post(preview, { intent: "activate", baseVersion: String(second.version) })).status).toBe(404);
    expect((await admin.get(`${url}/revisions/999`)).status).toBe(404);
    expect((await admin.get(`${url}/revisions/x`)).status).toBe(404);

    // Activate, based on a version that is no longer current: 409, its text, nothing changed.
    const stale = await admin.post(preview, { intent: "activate", baseVersion: String(first.version) });
    expect(stale.status).toBe(409);
    expect(await text(stale)).toContain(VERSION_MESSAGES.stale(second.version!, second.updatedBy));
    expect((await templateOf(workflowId, templateId)).revision).toBe(second.revision);
    // Activate from the page as loaded: back to the editor with 'Template activated'; the history never rewrites.
    const activated = await admin.post(preview, { intent: "activate", ...hiddenVersions(html) });
    expect(activated.status).toBe(302);
    expect(activated.headers.get("Location")).toBe(url);
    const editor = await text(await admin.get(url));
    expect(editor).toContain(VERSIONS.templateActivated);
    const now = await templateOf(workflowId, templateId);
    expect(now.revision).toBe(second.revision + 1);
    expect(now.roadmap).toEqual(first.roadmap);
    expect(historyOf(editor)).toContain(VERSION_MESSAGES.activatedRevision(first.revision));
  });
});

describe("compare with current (spec 3 §2.6 compare mode, server-rendered)", () => {
  it("names each change, deleted red and created green with a sign and a word, the two pictures side by side, and quits to the editor", async () => {
    const { url, workflowId, templateId } = await workflowWithTemplate();
    expect(await text(await admin.get(url))).not.toContain(VERSIONS.compareWithCurrent);
    expect((await admin.post(url, { intent: "edit", op: "addStep", form: "add-step", type: "task", title: "Report to client", durationHours: "2", notification: "", stage: "" })).status).toBe(302);
    expect((await admin.post(url, { intent: "edit", op: "deletePath", from: "task-1", to: "finish" })).status).toBe(302);
    const editor = await text(await admin.get(url));
    const compareUrl = `${url}/compare?to=draft`;
    expect(editor).toContain(`href="${compareUrl}"`);
    expect(editor).toContain(`>${VERSIONS.compareWithCurrent}<`);

    const current = await templateOf(workflowId, templateId);
    const draft = await templateOf(workflowId, templateId, true);
    const { commitMessage: _a, ...before } = TemplateContent.parse(current);
    const { commitMessage: _b, ...after } = TemplateContent.parse(draft);
    const diff = diffTemplates(before, after);
    const added = diff.changes.filter((c) => c.kind === "added");
    const removed = diff.changes.filter((c) => c.kind === "removed");
    expect(added.length).toBeGreaterThan(0);
    expect(removed.length).toBeGreaterThan(0);

    const reader = await browserWith(app, ["workflows.read"]);
    const r = await reader.get(compareUrl);
    expect(r.status).toBe(200);
    const html = await text(r);
    for (const c of added) expect(html).toContain(`<li class="change-added"><span class="compare-sign" aria-hidden="true">${VERSIONS.kinds.added.sign}</span><span class="visually-hidden">${VERSIONS.kinds.added.text}: </span>${c.text}</li>`);
    for (const c of removed) expect(html).toContain(`<li class="change-removed"><span class="compare-sign" aria-hidden="true">${VERSIONS.kinds.removed.sign}</span><span class="visually-hidden">${VERSIONS.kinds.removed.text}: </span>${c.text}</li>`);
    // Two pictures, each captioned; the deleted path marked on the current one, the created step on the draft's.
    const [currentPicture, draftPicture] = html.split('<figcaption id="compare-current-caption">');
    expect(currentPicture).toContain('aria-labelledby="compare-current-caption"');
    expect(currentPicture).toContain("graph-edge diff-removed");
    expect(currentPicture).not.toContain("diff-added");
    expect(draftPicture).toContain('aria-labelledby="compare-other-caption"');
    expect(draftPicture).toMatch(/class="graph-node graph-node-task diff-added"/);
    expect(html).toContain(VERSIONS.pictureOf(VERSIONS.draft));
    expect(html).toContain(VERSIONS.pictureOf(VERSIONS.current(current.revision)));
    // 'Quit comparision mode' leads back to the editor's view.
    expect(html).toMatch(new RegExp(`<a[^>]*href="${url}"[^>]*>${VERSIONS.quitCompare}</a>`));
  });

  it("compares with a revision from its preview; the current version or a bad reference is not found", async () => {
    const { url, workflowId, templateId } = await workflowWithTemplate();
    const first = await templateOf(workflowId, templateId);
    expect((await admin.post(url, { intent: "edit", op: "addStage", form: "add-stage", name: "Filing" })).status).toBe(302);
    expect((await admin.post(url, { intent: "save", ...hiddenVersions(await text(await admin.get(url))) })).status).toBe(302);
    const preview = await text(await admin.get(`${url}/revisions/${first.revision}`));
    const compareUrl = `${url}/compare?to=${first.revision}`;
    expect(preview).toContain(`href="${compareUrl}"`);
    const html = await text(await admin.get(compareUrl));
    expect(html).toContain(VERSIONS.compareTitle(VERSIONS.current(first.revision + 1), VERSIONS.revision(first.revision)));
    // The current has the stage the revision has not: from the current to the revision, the stage goes.
    expect(html).toMatch(/<li class="change-removed">[^<]*<span[^>]*>−<\/span><span class="visually-hidden">Deleted: <\/span>[^<]*Filing[^<]*<\/li>/);
    for (const bad of ["current", "x", "999"]) expect((await admin.get(`${url}/compare?to=${bad}`)).status, bad).toBe(404);
    const stranger = await browserWith(app, ["portfolio.read"]);
    expect((await stranger.get(compareUrl)).status).toBe(404);
  });
});
