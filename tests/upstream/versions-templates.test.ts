import Database from "better-sqlite3";
import { describe, expect, test } from "vitest";
import { MilestoneTemplate, TemplateContent } from "@contract/milestone-templates";
import type { TemplateDiff } from "@contract/template-diff";
import { RevisionSummary, VERSION_MESSAGES as VM, VersionConflict } from "@contract/versions";
import { NOWHERE_ID, WORKFLOW_MESSAGES as M } from "@contract/workflow-constants";
import { databaseFile, migrate, MIGRATIONS } from "../../upstream/src/db";
import { TemplatesStore } from "../../upstream/src/workflows/store";
import { harness, message, tempDir, type Harness } from "./helpers";
import { tokenWith } from "./token-with";
import { WF, activeTemplate, createWorkflow, emit, g, json, milestone } from "./workflows-helpers";

const MAIL = "correspondence.recieved";
const graph = (taskTitle: string, hours = 1) => ({
  steps: [g.step("start", "milestone-start"), g.step("task", "task", { title: taskTitle, durationHours: hours }), g.step("finish", "finish"), g.step(NOWHERE_ID, "nowhere")],
  paths: [g.path("start", "task"), g.path("task", "finish")],
});
/** The document of a template answer (what an editor sends back), with the version it was based on. */
const docOf = (t: MilestoneTemplate) => TemplateContent.parse(t);

async function setup() {
  const h = await harness();
  const w = await createWorkflow(h, { title: "Docket", clientCodes: ["ACME"] });
  const tpl = await activeTemplate(h, w.id, { title: "Office action", events: [{ code: MAIL }], ...graph("Review", 2) });
  const base = `${WF}/${w.id}/milestones/${tpl.id}`;
  const get = async (url = base) => MilestoneTemplate.parse(await json(await h.call("GET", url, { token: h.adminToken }), 200));
  const put = (url: string, body: unknown, token = h.adminToken) => h.call("PUT", url, { token, body });
  return { h, w, tpl, base, get, put };
}

const history = async (h: Harness, base: string) => RevisionSummary.array().parse(await json(await h.call("GET", `${base}/revisions`, { token: h.adminToken }), 200));

describe("milestone templates on the versioned-document store", () => {
  test("save a draft, leave, come back to it, compare it with the current, commit it with a message, activate an older revision, see the history", async () => {
    const { h, base, get, put } = await setup();
    const t0 = await get();
    // The wizard's template and its first PUT are revisions 1 and 2.
    expect(t0).toMatchObject({ type: "template", revision: 2, version: 2, hasDraft: false });

    const edited = { ...docOf(t0), ...graph("Examine", 4), title: "Office action (US)", baseVersion: 0 };
    const d1 = MilestoneTemplate.parse(await json(await put(`${base}/draft`, edited), 200));
    expect(d1).toMatchObject({ type: "draft", isDraft: true, draftOf: t0.id, revision: 2, version: 1, title: "Office action (US)" });
    // Leave and come back: the template says it has a draft, the draft is as saved, by its own id too.
    expect((await get()).hasDraft).toBe(true);
    expect(await get(`${base}/draft`)).toEqual(d1);
    expect((await get(`${base.replace(t0.id, d1.id)}`)).id).toBe(d1.id);
    // The current template is untouched: the engine still runs it.
    expect((await get()).steps.find((s) => s.id === "task")?.title).toBe("Review");

    const cmp = await json<TemplateDiff & { from: string; to: string }>(await h.call("GET", `${base}/compare`, { token: h.adminToken }), 200);
    expect(cmp.from).toBe("current");
    expect(cmp.to).toBe("draft");
    expect(cmp.changes.map((c) => c.text)).toEqual([
      "Title 'Office action' → 'Office action (US)'",
      "Step 'Review' renamed to 'Examine'",
      "Step 'Examine' duration 2 → 4 hours",
    ]);
    expect(cmp.steps.changed).toEqual(["task"]);

    // Committed from the draft: based on the revision the draft started from, and on the draft as loaded.
    const committed = MilestoneTemplate.parse(
      await json(await put(base, { ...docOf(d1), commitMessage: "Examine for four hours", baseVersion: d1.revision, draftVersion: d1.version }), 200),
    );
    expect(committed).toMatchObject({ revision: 3, version: 3, hasDraft: false, commitMessage: "Examine for four hours", title: "Office action (US)", active: true });
    expect(await message(await h.call("GET", `${base}/draft`, { token: h.adminToken }))).toBe(M.draftNotFound);

    const r1 = MilestoneTemplate.parse(await json(await h.call("GET", `${base}/revisions/1`, { token: h.adminToken }), 200));
    expect(r1).toMatchObject({ type: "revision", revision: 1, title: "Office action", author: "admin@example.com" });
    const back = await json(await put(`${base}/activate/revision`, { revision: 2, baseVersion: 3 }), 200);
    expect(MilestoneTemplate.parse(back)).toMatchObject({ revision: 4, title: "Office action", commitMessage: VM.activatedRevision(2) });
    expect((await get()).steps.find((s) => s.id === "task")?.title).toBe("Review");

    const list = await history(h, base);
    expect(list.map((r) => [r.revision, r.commitMessage, r.current, r.activatedFrom])).toEqual([
      [4, "Activated revision 2", true, 2],
      [3, "Examine for four hours", false, null],
      [2, "", false, null],
      [1, "", false, null],
    ]);
    expect(list.every((r) => r.author === "admin@example.com")).toBe(true);
    const cmp2 = await json<TemplateDiff>(await h.call("GET", `${base}/compare?from=3&to=current`, { token: h.adminToken }), 200);
    expect(cmp2.changes.map((c) => c.text)).toContain("Step 'Examine' renamed to 'Review'");

    // The engine reads the current document: an event now creates the restored task.
    const ev = await emit(h, { code: MAIL, reference: "ACME-1", clientCode: "ACME", data: {} });
    expect((await milestone(h, ev.milestones[0]!)).tasks.map((t) => t.title)).toEqual(["Review"]);
  });

  test("two browsers saving the same template: one 200, one 409 with the version now; nothing lost", async () => {
    const { h, base, get, put } = await setup();
    const t0 = await get();
    const ann = { ...docOf(t0), title: "Ann's title" };
    const bob = { ...docOf(t0), title: "Bob's title" };

    // Both start a draft from the template.
    const [a, b] = await Promise.all([put(`${base}/draft`, { ...ann, baseVersion: 0 }), put(`${base}/draft`, { ...bob, baseVersion: 0 })]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const lost = a.status === 409 ? a : b;
    const refusal = VersionConflict.parse(await lost.json());
    expect(refusal).toMatchObject({ message: VM.overwriteDraft, version: 1, updatedBy: "admin@example.com" });
    const kept = (await get(`${base}/draft`)).title;
    expect(["Ann's title", "Bob's title"]).toContain(kept);
    // The one refused confirms 'Overwrite draft?' and sends the version it was told.
    const mine = a.status === 409 ? ann : bob;
    expect((await json<{ version: number }>(await put(`${base}/draft`, { ...mine, baseVersion: refusal.version }), 200)).version).toBe(2);

    // Both commit from the template's version: one revision, one 409.
    const [c1, c2] = await Promise.all([put(base, { ...ann, baseVersion: t0.version }), put(base, { ...bob, baseVersion: t0.version })]);
    expect([c1.status, c2.status].sort()).toEqual([200, 409]);
    const stale = VersionConflict.parse(await (c1.status === 409 ? c1 : c2).json());
    expect(stale).toMatchObject({ message: VM.stale(t0.version! + 1, "admin@example.com"), version: t0.version! + 1 });
    expect((await history(h, base)).length).toBe(3);
    // A revision older than the current cannot be activated over a newer one unseen.
    expect((await put(`${base}/activate/revision`, { revision: 1, baseVersion: t0.version })).status).toBe(409);
    // A discard of a draft someone saved since is refused too.
    expect((await h.call("DELETE", `${base}/draft/discard?baseVersion=1`, { token: h.adminToken })).status).toBe(409);
    expect((await h.call("DELETE", `${base}/draft/discard?baseVersion=2`, { token: h.adminToken })).status).toBe(204);

    // A draft begun before someone else's commit cannot be committed over it unseen.
    const now = await get();
    const draft = MilestoneTemplate.parse(await json(await put(`${base}/draft`, { ...ann, baseVersion: 0 }), 200));
    expect((await put(base, { ...bob, baseVersion: now.version })).status).toBe(200);
    const over = await put(base, { ...docOf(draft), baseVersion: draft.revision, draftVersion: draft.version });
    expect(over.status).toBe(409);
    expect((await get(`${base}/draft`)).version).toBe(draft.version);
    // A draft by its own id: DELETE discards it, the template stays.
    expect((await h.call("DELETE", `${base.replace(now.id, draft.id)}`, { token: h.adminToken })).status).toBe(204);
    expect((await get()).hasDraft).toBe(false);
  });

  test("saves without a version (the editor today) still work; an active template's revision must reach Finish; readers cannot write", async () => {
    const { h, base, get, put } = await setup();
    const t0 = await get();
    expect((await put(`${base}/draft`, docOf(t0))).status).toBe(200);
    expect((await put(`${base}/draft`, { ...docOf(t0), title: "Again" })).status).toBe(200);
    expect((await h.call("DELETE", `${base}/draft/discard`, { token: h.adminToken })).status).toBe(204);
    expect((await put(base, { ...docOf(t0), title: "Plain PUT" })).status).toBe(200);
    // Revision 1 (the wizard's first graph) reaches Finish; a broken document is refused before any revision.
    const broken = { ...docOf(t0), paths: docOf(t0).paths.filter((p) => p.to.step !== "finish") };
    expect(await message(await put(base, broken))).toBe(M.finishUnreachable);
    expect((await history(h, base)).length).toBe(3);
    expect((await put(`${base}/activate/revision`, { revision: 99 })).status).toBe(404);
    const reader = await tokenWith(h, "reader@example.com", ["workflows.read"]);
    expect((await h.call("GET", `${base}/revisions`, { token: reader })).status).toBe(200);
    expect((await put(`${base}/activate/revision`, { revision: 1 }, reader)).status).toBe(403);
    expect((await put(`${base}/draft`, docOf(t0), reader)).status).toBe(403);
  });

  test("the step options change is a revision whose message names it", async () => {
    const { h, base } = await setup();
    const res = await h.call("POST", `${base}/steps/task/options`, { token: h.adminToken, body: { options: { notification: { email: "always" } }, isCriticalDate: true } });
    expect(res.status).toBe(200);
    expect((await history(h, base))[0]).toMatchObject({ revision: 3, current: true, commitMessage: "Step 'Review' e-mail notification default → always; Step 'Review' marked as a critical date" });
  });

  test("a draft that is itself a new template: saved in place with its version, committed into a template, or discarded with it", async () => {
    const h = await harness();
    const w = await createWorkflow(h, { title: "Docket" });
    const db = new Database(databaseFile(h.dir));
    const store = new TemplatesStore(db, Date.now);
    const draft = store.create(w.id, TemplateContent.parse({ title: "New one", events: [{ code: MAIL }], ...graph("Review") }), { type: "draft" }, "admin@example.com");
    const base = `${WF}/${w.id}/milestones/${draft.id}`;
    const listed = MilestoneTemplate.array().parse(await json(await h.call("GET", `${WF}/${w.id}/milestones`, { token: h.adminToken }), 200));
    expect(listed.map((t) => [t.title, t.type])).toEqual([["New one", "draft"]]);
    const v = draft.version!;
    const saved = await json<MilestoneTemplate>(await h.call("PUT", `${base}/draft/template`, { token: h.adminToken, body: { ...docOf(draft), title: "New one v2", baseVersion: v } }), 200);
    expect(saved).toMatchObject({ type: "draft", version: v + 1, revision: 0 });
    const stale = await h.call("PUT", `${base}/draft/template`, { token: h.adminToken, body: { ...docOf(draft), baseVersion: v } });
    expect(stale.status).toBe(409);
    expect(await message(stale)).toBe(VM.overwriteDraft);
    expect((await history(h, base)).length).toBe(0);

    // Committed (Save & Activate's first half), it is a template at revision 1, offline until activated.
    const committed = await json<MilestoneTemplate>(await h.call("PUT", base, { token: h.adminToken, body: { ...docOf(saved), commitMessage: "First", baseVersion: v + 1 } }), 200);
    expect(committed).toMatchObject({ type: "template", revision: 1, active: false, isDraft: false, commitMessage: "First" });
    expect((await h.call("POST", `${base}/activate`, { token: h.adminToken })).status).toBe(200);

    // Another draft template discarded: it is gone, with anything the kit held for it.
    const other = store.create(w.id, TemplateContent.parse({ title: "Scratch", events: [{ code: MAIL }], ...graph("X") }), { type: "draft" }, null);
    expect((await h.call("DELETE", `${WF}/${w.id}/milestones/${other.id}/draft/template`, { token: h.adminToken })).status).toBe(204);
    expect((await h.call("GET", `${WF}/${w.id}/milestones/${other.id}`, { token: h.adminToken })).status).toBe(404);
    db.close();
  });

  test("a deleted template or workflow leaves no draft or revision behind", async () => {
    const { h, w, base, get, put } = await setup();
    await put(`${base}/draft`, docOf(await get()));
    const other = await createWorkflow(h, { title: "Other" });
    const tpl = await activeTemplate(h, other.id, { title: "Annuity", events: [{ code: MAIL }], ...graph("Pay") });
    await put(`${WF}/${other.id}/milestones/${tpl.id}/draft`, docOf(tpl));
    const db = new Database(databaseFile(h.dir));
    const rows = () => db.prepare("select (select count(*) from versioned_drafts) as drafts, (select count(*) from versioned_revisions) as revisions").get();
    expect(rows()).toEqual({ drafts: 2, revisions: 4 });
    expect((await h.call("DELETE", `${WF}/${other.id}`, { token: h.adminToken })).status).toBe(204);
    expect(rows()).toEqual({ drafts: 1, revisions: 2 });
    expect((await h.call("DELETE", base, { token: h.adminToken })).status).toBe(204);
    expect(rows()).toEqual({ drafts: 0, revisions: 0 });
    expect(w.isDefault).toBe(true);
    db.close();
  });

  test("POST …/workflows/compare names the changes between two documents the client sends", async () => {
    const { h, get } = await setup();
    const t0 = docOf(await get());
    const next = { ...t0, steps: [...t0.steps, { ...t0.steps[1]!, id: "file", title: "File" }], paths: [...t0.paths, { from: { step: "task" }, to: { step: "file" } }] };
    const res = await json<TemplateDiff>(await h.call("POST", `${WF}/compare`, { token: h.adminToken, body: { current: t0, next } }), 200);
    expect(res.changes.map((c) => c.text)).toEqual(["Step 'File' added", "Path Review → File added"]);
    expect(res.paths.added).toEqual(["task→file"]);
    expect((await h.call("POST", `${WF}/compare`, { token: h.adminToken, body: { current: t0 } })).status).toBe(400);
  });

  test("migration 103: each template's content becomes revision 1; a template's draft row moves to the kit under its id", () => {
    const dir = tempDir();
    const db = new Database(`${dir}/db.sqlite`);
    const upTo = MIGRATIONS.findIndex((m) => m.id === "103_versions");
    migrate(db, MIGRATIONS.slice(0, upTo));
    const at = "2026-01-01T00:00:00.000Z";
    db.prepare("insert into workflows (id, title, created_at, updated_at) values ('w', 'W', ?, ?)").run(at, at);
    const row = db.prepare(
      "insert into milestone_templates (id, workflow_id, title, type, draft_of, active, data, created_at, created_by, updated_at, updated_by) values (?, 'w', ?, ?, ?, 1, ?, ?, 'ann@x', ?, 'bob@x')",
    );
    row.run("t", "Template", "template", null, JSON.stringify({ steps: [], commitMessage: "Old" }), at, at);
    row.run("d", "Template v2", "draft", "t", JSON.stringify({ steps: [{ id: "a" }] }), at, at);
    row.run("n", "New", "draft", null, JSON.stringify({ steps: [] }), at, at);
    migrate(db);
    const store = new TemplatesStore(db, Date.now);
    expect(store.get("t")).toMatchObject({ revision: 1, hasDraft: true });
    expect(store.versions.revision("t", 1)).toMatchObject({ commitMessage: "Old", author: "bob@x", document: { title: "Template", steps: [] } });
    expect(store.draftOf("t")).toMatchObject({ id: "d", title: "Template v2", draftOf: "t", revision: 1, version: 1 });
    expect(store.get("d")).toBeNull();
    expect(store.get("n")).toMatchObject({ type: "draft", revision: 0, hasDraft: false });
    db.close();
  });
});
