import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONNECT_MESSAGES, GRAPH_MESSAGES } from "@contract/graph";
import { MilestoneTemplate } from "@contract/milestone-templates";
import { EDITOR } from "~/workflows/editor/texts";
import { ADMIN, browserWith, refusingUpstream, startApp, uniq, unescapeHtml, type Browser, type TestApp } from "../helpers/app";

const API = "/api/workflows/v2/workflows";
const DATA = "routes%2F_app.workflows.%24id.milestones_.%24milestoneId";

let app: TestApp;
let admin: Browser;
beforeAll(async () => {
  app = await startApp();
  admin = app.browser();
  await admin.signIn(ADMIN.email, ADMIN.password);
});
// The app is started in beforeAll; the refusal reads its context when a test asks for one.
const { refuse } = refusingUpstream({
  get context() {
    return app.context;
  },
} as TestApp);
afterAll(() => app?.close());

const text = async (r: Response) => unescapeHtml(await r.text());

async function workflowWithTemplate(title = `Editor ${uniq()}`) {
  const w = await app.adminApi("POST", API, { title, clientCodes: [`E${uniq()}`] });
  expect(w.status).toBe(201);
  const workflowId = ((await w.json()) as { id: string }).id;
  const t = await app.adminApi("POST", `${API}/${workflowId}/milestones/draft/template`, { data: { title: "Office action", events: [{ code: "portfolio.application.created" }] } });
  expect(t.status).toBe(201);
  const templateId = ((await t.json()) as { id: string }).id;
  return { workflowId, templateId, title, url: `/workflows/${workflowId}/milestones/${templateId}` };
}

const templateOf = async (workflowId: string, templateId: string, draft = false) =>
  MilestoneTemplate.parse(await (await app.adminApi("GET", `${API}/${workflowId}/milestones/${templateId}${draft ? "/draft" : ""}`)).json());

describe("the template editor (spec 3 §2.6)", () => {
  it("is where a template card's title leads from the workflow's template list", async () => {
    const { url, workflowId } = await workflowWithTemplate();
    for (const list of [`/workflows/${workflowId}`, `/workflows/${workflowId}/milestones`]) {
      expect(await text(await admin.get(list))).toMatch(new RegExp(`<h3[^>]*><a[^>]*href="${url}"[^>]*>Office action</a></h3>`));
    }
    expect((await admin.get(url)).status).toBe(200);
  });

  it("renders on its own: BACK, the workflow and template titles, the OFFLINE badge, the duration, the tables and the picture", async () => {
    const { url, title, workflowId } = await workflowWithTemplate();
    const r = await admin.get(url);
    expect(r.status).toBe(200);
    const html = await text(r);
    expect(html).toContain(`href="/workflows/${workflowId}"`);
    expect(html).toContain(`>${EDITOR.back}<`);
    expect(html).toContain(title);
    expect(html).toContain("Office action");
    expect(html).toContain(EDITOR.badge.offline);
    expect(html).toContain("Shortest planned duration: 1.0 hours");
    for (const t of [EDITOR.exportTemplate, EDITOR.deleteTemplate, EDITOR.save, EDITOR.saveActivate, EDITOR.commitMessage, EDITOR.addStep, EDITOR.addPath, EDITOR.defineRoadmap, EDITOR.variables, EDITOR.properties]) {
      expect(html, t).toContain(t);
    }
    expect(html).toContain("<svg");
    // Not the template list: the list's heading is not on the page.
    expect(html).not.toContain("Create milestone template");
  });

  it("not found without workflows.read, for a missing template and for another workflow's; a reader sees no write control and cannot post", async () => {
    const { url, workflowId, templateId } = await workflowWithTemplate();
    const stranger = await browserWith(app, ["portfolio.read"]);
    const hidden = await stranger.get(url);
    expect(hidden.status).toBe(404);
    expect(await hidden.text()).toContain("Nothing here :(");
    expect((await admin.get(`/workflows/${workflowId}/milestones/nope`)).status).toBe(404);
    const other = await workflowWithTemplate();
    expect((await admin.get(`/workflows/${other.workflowId}/milestones/${templateId}`)).status).toBe(404);
    const reader = await browserWith(app, ["workflows.read"]);
    const html = await text(await reader.get(url));
    expect(html).toContain(EDITOR.exportTemplate);
    for (const t of [EDITOR.deleteTemplate, EDITOR.saveActivate, EDITOR.addStep]) expect(html).not.toContain(t);
    expect((await reader.post(url, { intent: "edit", op: "addStage", name: "X" })).status).toBe(404);
    expect((await reader.post(url, { intent: "delete", confirmed: "yes" })).status).toBe(404);
    // Export is a read: a GET download the reader may take; the admin's `export` post leads there.
    expect((await admin.post(url, { intent: "export" })).headers.get("Location")).toBe(`${url}/export`);
    const exported = await reader.get(`${url}/export`);
    expect(exported.status).toBe(200);
    expect((await stranger.get(`${url}/export`)).status).toBe(404);
    expect(exported.headers.get("Content-Disposition")).toContain("attachment");
    expect(JSON.parse(await exported.text())).toMatchObject({ title: "Office action", active: false });
  });

  it("edit: table forms post one edit each, kept in the draft; the model's refusal is a 400 beside the form, what was typed kept", async () => {
    const { url, workflowId, templateId } = await workflowWithTemplate();
    const added = await admin.post(url, { intent: "edit", op: "addStep", form: "add-step", type: "task", title: "Report to client", durationHours: "2", notification: "always", stage: "" });
    expect(added.status, await added.clone().text()).toBe(302);
    expect(added.headers.get("Location")).toBe(`${url}#steps`);
    const draft = await templateOf(workflowId, templateId, true);
    expect(draft.steps.find((s) => s.title === "Report to client")).toMatchObject({ id: "step-1", durationHours: 2, options: { notifications: { email: "always" } } });
    expect((await templateOf(workflowId, templateId)).steps.some((s) => s.title === "Report to client")).toBe(false);
    const page = await text(await admin.get(url));
    expect(page).toContain(EDITOR.badge.draft);
    expect(page).toContain("Report to client");
    const twice = await admin.post(`${url}?_data=${DATA}`, { intent: "edit", op: "addPath", form: "add-path", from: "start", to: "task-1", taskTitle: "Kept title" });
    expect(twice.status).toBe(400);
    expect(await twice.json()).toMatchObject({ ok: false, message: CONNECT_MESSAGES.duplicate, form: "add-path", values: { taskTitle: "Kept title" } });
    const html = await text(await admin.post(url, { intent: "edit", op: "addPath", form: "add-path", from: "finish", to: "task-1", taskTitle: "Kept title" }));
    expect(html).toContain(CONNECT_MESSAGES.fromSink);
    expect(html).toContain('value="Kept title"');
    // A stage twice, a step in one stage.
    expect((await admin.post(url, { intent: "edit", op: "addStage", form: "add-stage", name: "Filing" })).status).toBe(302);
    const again = await admin.post(`${url}?_data=${DATA}`, { intent: "edit", op: "addStage", form: "add-stage", name: "Filing" });
    expect(await again.json()).toMatchObject({ message: GRAPH_MESSAGES.roadmapStageTwice("Filing") });
    // The canvas's JSON edit goes the same way.
    const json = await admin.post(`${url}?_data=${DATA}`, { intent: "edit", edit: JSON.stringify({ type: "setStepStage", step: "task-1", stage: "Filing" }) });
    expect(json.status).toBe(204);
    expect((await templateOf(workflowId, templateId, true)).roadmap).toEqual([{ name: "Filing", steps: ["task-1"] }]);
  });

  it("save makes the draft the template; save-activate refuses an unreachable finish, then saves, activates and goes back", async () => {
    const { url, workflowId, templateId } = await workflowWithTemplate();
    expect((await admin.post(url, { intent: "edit", op: "deletePath", from: "task-1", to: "finish" })).status).toBe(302);
    const refused = await admin.post(`${url}?_data=${DATA}`, { intent: "save-activate", commitMessage: "first" });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ message: EDITOR.finishUnreachable, toast: { message: EDITOR.finishUnreachable } });
    expect(await text(await admin.post(url, { intent: "save-activate" }))).toContain(EDITOR.finishUnreachable);
    expect((await admin.post(url, { intent: "edit", op: "addPath", from: "task-1", to: "finish" })).status).toBe(302);
    const saved = await admin.post(url, { intent: "save" });
    expect(saved.status).toBe(302);
    const t = await templateOf(workflowId, templateId);
    expect(t.hasDraft).toBe(false);
    expect(t.paths.some((p) => p.from.step === "task-1" && p.to.step === "finish")).toBe(true);
    const activated = await admin.post(url, { intent: "save-activate", commitMessage: "Ready" });
    expect(activated.status).toBe(302);
    expect(activated.headers.get("Location")).toBe(`/workflows/${workflowId}`);
    const list = await text(await admin.get(`/workflows/${workflowId}`));
    expect(list).toContain(EDITOR.savedAndActivated);
    expect((await templateOf(workflowId, templateId)).active).toBe(true);
    expect(await text(await admin.get(url))).toContain(EDITOR.badge.online);
  });

  it("save with the canvas's whole document answers JSON; the upstream's model check names the first problem", async () => {
    const { url, workflowId, templateId } = await workflowWithTemplate();
    const t = await templateOf(workflowId, templateId);
    const doc = { ...t, roadmap: [{ name: "A", steps: ["task-1"] }, { name: "B", steps: ["task-1"] }] };
    const bad = await admin.post(`${url}?_data=${DATA}`, { intent: "save", document: JSON.stringify(doc) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ ok: false, message: GRAPH_MESSAGES.roadmapStepTwice("New task"), toast: { message: EDITOR.updateFailed } });
    const ok = await admin.post(`${url}?_data=${DATA}`, { intent: "save", document: JSON.stringify({ ...t, title: "Renamed" }) });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ ok: true });
    expect((await templateOf(workflowId, templateId)).title).toBe("Renamed");
  });

  it("delete asks first, then deletes and goes back to the workflow", async () => {
    const { url, workflowId, templateId } = await workflowWithTemplate();
    const ask = await text(await admin.post(url, { intent: "delete" }));
    expect(ask).toContain(EDITOR.deleteTitle);
    expect(ask).toContain(EDITOR.deleteMessage);
    const done = await admin.post(url, { intent: "delete", confirmed: "yes" });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/workflows/${workflowId}`);
    expect((await app.adminApi("GET", `${API}/${workflowId}/milestones/${templateId}`)).status).toBe(404);
  });

  it("a step's notification changed while it has tasks asks 'There are N tasks…', and only Yes updates them", async () => {
    const { url, workflowId, templateId } = await workflowWithTemplate();
    await app.adminApi("POST", `${API}/${workflowId}/milestones/${templateId}/activate`);
    const w = (await (await app.adminApi("GET", `${API}/${workflowId}`)).json()) as { clientCodes: string[] };
    const ev = await app.adminApi("POST", "/api/workflows/milestones", { code: "portfolio.application.created", reference: `REF-${uniq()}`, clientCode: w.clientCodes[0] });
    expect([200, 202]).toContain(ev.status);
    const count = async () => (await (await app.adminApi("GET", `${API}/${workflowId}/milestones/${templateId}/steps/task-1/tasks/count`)).json()) as number;
    for (let i = 0; i < 200 && (await count()) === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await count()).toBe(1);
    // Every step's counts in one call (the editor's loader reads this, not one call per step).
    expect(await (await app.adminApi("GET", `${API}/${workflowId}/milestones/${templateId}/statistics`)).json()).toEqual({ "task-1": [{ status: "open", count: 1 }] });
    const fields = { intent: "edit", op: "updateStep", form: "step-task-1", id: "task-1", title: "New task", durationHours: "1", notification: "never", stage: "" };
    const ask = await text(await admin.post(url, fields));
    expect(ask).toContain(EDITOR.tasksExist(1));
    expect((await templateOf(workflowId, templateId)).hasDraft).toBe(false);
    const yes = await admin.post(url, { ...fields, confirmed: "yes" });
    expect(yes.status).toBe(302);
    const after = await text(await admin.get(url));
    expect(after).toContain(EDITOR.tasksUpdated);
    expect(after).toContain(EDITOR.tasksUpdatedMessage(1));
    expect((await templateOf(workflowId, templateId, true)).steps.find((s) => s.id === "task-1")!.options.notifications.email).toBe("never");
  });

  it("failures say the spec's texts: 'Task(s) update error' with nothing kept, 'Delete failed' with the server's message", async () => {
    const { url, workflowId, templateId } = await workflowWithTemplate();
    await app.adminApi("POST", `${API}/${workflowId}/milestones/${templateId}/activate`);
    const w = (await (await app.adminApi("GET", `${API}/${workflowId}`)).json()) as { clientCodes: string[] };
    await app.adminApi("POST", "/api/workflows/milestones", { code: "portfolio.application.created", reference: `REF-${uniq()}`, clientCode: w.clientCodes[0] });
    const open = async () => (await (await app.adminApi("GET", `${API}/${workflowId}/milestones/${templateId}/steps/task-1/tasks/count`)).json()) as number;
    for (let i = 0; i < 200 && (await open()) === 0; i++) await new Promise((r) => setTimeout(r, 50));
    refuse("POST", /\/steps\/task-1\/options$/, 500, "boom");
    const fields = { intent: "edit", op: "updateStep", form: "step-task-1", id: "task-1", title: "New task", durationHours: "1", notification: "", stage: "", isCriticalDate: "on", confirmed: "yes" };
    const failed = await text(await admin.post(url, fields));
    expect(failed).toContain(EDITOR.taskUpdateError);
    expect(failed).toContain(EDITOR.taskUpdateErrorMessage);
    expect((await templateOf(workflowId, templateId)).hasDraft).toBe(false);
    // An open milestone keeps its template: the upstream refuses, the page says why.
    const refused = await text(await admin.post(url, { intent: "delete", confirmed: "yes" }));
    expect(refused).toContain(EDITOR.deleteFailed);
    expect(refused).toContain("There are 1 open milestones of this template");
  });
});
