import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MilestoneTemplate } from "@contract/milestone-templates";
import { CONDITION_TEXTS } from "~/workflows/conditions/texts";
import { EDITOR } from "~/workflows/editor/texts";
import { ADMIN, startApp, uniq, unescapeHtml, type Browser, type TestApp } from "../helpers/app";

/** The table editor's forms for what a path, a step, the template's events and a form's properties hold (spec 3 §3, §5). */
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

async function template() {
  const w = await app.adminApi("POST", API, { title: `Fields ${uniq()}`, clientCodes: [`F${uniq()}`] });
  const workflowId = ((await w.json()) as { id: string }).id;
  const t = await app.adminApi("POST", `${API}/${workflowId}/milestones/draft/template`, { data: { title: "Office action", events: [{ code: "portfolio.application.created" }] } });
  const templateId = ((await t.json()) as { id: string }).id;
  return { workflowId, templateId, url: `/workflows/${workflowId}/milestones/${templateId}` };
}

const draftOf = async (workflowId: string, templateId: string) =>
  MilestoneTemplate.parse(await (await app.adminApi("GET", `${API}/${workflowId}/milestones/${templateId}/draft`)).json());

describe("a path's fields as conditional alternatives, the else last (spec 3 §3 Path)", () => {
  it("Add alternative and the conditions editor's buttons post without JavaScript; Apply saves the list, the else last", async () => {
    const { url, workflowId, templateId } = await template();
    const base = { intent: "edit", op: "setAlternatives", form: "path-alt-title-start--task-1", from: "start", to: "task-1", field: "title" };
    const page = await text(await admin.get(`${url}?edit=path-start--task-1`));
    expect(page).toContain(EDITOR.alternatives.formLabel(EDITOR.alternatives.fields.title));
    expect(page).toContain(EDITOR.alternatives.add);

    // Add alternative: the form comes back with an alternative before the else, nothing kept.
    const added = await admin.post(url, { ...base, intent: ["edit", "title:add"], count: "1", "title.0.value": "Report" });
    const addedHtml = await text(added);
    expect(added.status).toBe(200);
    expect(addedHtml).toContain(EDITOR.alternatives.alternative(1));
    expect(addedHtml).toContain(EDITOR.alternatives.otherwise);
    expect(addedHtml).toContain(CONDITION_TEXTS.addGroup);
    // What was typed in the else moved with it (now alternative 2).
    expect(addedHtml).toMatch(/name="title\.1\.value"[^>]*value="Report"|value="Report"[^>]*name="title\.1\.value"/);
    expect((await app.adminApi("GET", `${API}/${workflowId}/milestones/${templateId}`).then((r) => r.json()) as { hasDraft: boolean }).hasDraft).toBe(false);

    // The conditions editor's Add group, then its condition's field.
    const group = await admin.post(`${url}?_data=${DATA}`, { ...base, intent: ["edit", "title.0:addGroup"], count: "2", "title.0.value": "Urgent", "title.1.value": "Report" });
    const grouped = (await group.json()) as { values: Record<string, string> };
    expect(grouped.values).toMatchObject({ count: "2", "title.0.0.0.field": "", "title.0.value": "Urgent", "title.1.value": "Report" });

    // A number condition without its number is refused beside the form, what was typed kept.
    const score = { "title.0.0.0.field": "{{broadScore}}", "title.0.0.0.prevField": "{{broadScore}}", "title.0.0.0.function": "greaterThan", "title.0.0.0.prevFunction": "greaterThan", "title.0.0.0.value": "" };
    const refused = await admin.post(`${url}?_data=${DATA}`, { ...base, count: "2", ...score, "title.0.value": "Urgent", "title.1.value": "Report" });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ ok: false, message: CONDITION_TEXTS.number, form: base.form, values: { "title.0.value": "Urgent" } });
    const refusedHtml = await text(await admin.post(url, { ...base, count: "2", ...score, "title.0.value": "Urgent", "title.1.value": "Report" }));
    expect(refusedHtml).toContain(CONDITION_TEXTS.number);
    expect(refusedHtml).toContain('value="Urgent"');

    const condition = { "title.0.0.0.field": "{{title}}", "title.0.0.0.prevField": "{{title}}", "title.0.0.0.function": "contains", "title.0.0.0.prevFunction": "contains" };
    const saved = await admin.post(url, { ...base, count: "2", ...condition, "title.0.0.0.value": "urgent", "title.0.value": "Urgent", "title.1.value": "Report" });
    expect(saved.status, await saved.clone().text()).toBe(302);
    expect(saved.headers.get("Location")).toBe(`${url}#paths`);
    const path = (await draftOf(workflowId, templateId)).paths.find((p) => p.from.step === "start" && p.to.step === "task-1")!;
    expect(path.to.action.title).toEqual([
      { predicates: [[{ field: "{{title}}", function: "contains", arguments: ["urgent"] }]], value: "Urgent" },
      { predicates: [], value: "Report" },
    ]);

    // The row's form shows the saved alternatives; the path form's Apply leaves them as they are.
    const open = await text(await admin.get(`${url}?edit=path-start--task-1`));
    expect(open).toContain('value="Urgent"');
    expect((await admin.post(url, { intent: "edit", op: "updatePath", form: "path-start--task-1", from: "start", to: "task-1", port: "", taskTitle: "", assignees: "a@example.com" })).status).toBe(302);
    const after = (await draftOf(workflowId, templateId)).paths.find((p) => p.to.step === "task-1")!;
    expect(after.to.action.title).toEqual(path.to.action.title);
    expect(after.to.action.assignees).toEqual(["a@example.com"]);

    // A due date with an alternative; one alternative is a plain value again.
    const due = { ...base, form: "path-alt-dueAt-start--task-1", field: "dueAt", count: "2", "dueAt.0.0.0.field": "{{broadScore}}", "dueAt.0.0.0.prevField": "{{broadScore}}", "dueAt.0.0.0.function": "greaterThan", "dueAt.0.0.0.prevFunction": "greaterThan", "dueAt.0.0.0.value": "5" };
    const dueSaved = await admin.post(url, { ...due, "dueAt.0.due.date": "{{now}}", "dueAt.0.due.amount": "2", "dueAt.0.due.measures": "Days", "dueAt.1.due.date": "{{now}}", "dueAt.1.due.amount": "10", "dueAt.1.due.measures": "Weeks" });
    expect(dueSaved.status, await dueSaved.clone().text()).toBe(302);
    expect((await draftOf(workflowId, templateId)).paths.find((p) => p.to.step === "task-1")!.to.action.dueAt).toEqual([
      { predicates: [[{ field: "{{broadScore}}", function: "greaterThan", arguments: [5] }]], value: { date: "{{now}}", amount: 2, measures: "Days" } },
      { predicates: [], value: { date: "{{now}}", amount: 10, measures: "Weeks" } },
    ]);
    expect((await admin.post(url, { ...base, count: "1", "title.0.value": "Plain" })).status).toBe(302);
    expect((await draftOf(workflowId, templateId)).paths.find((p) => p.to.step === "task-1")!.to.action.title).toBe("Plain");
  });
});

describe("a step's transitions and instructions (spec 3 §3 Transition, §2.6, §5)", () => {
  it("transitions: the row's form adds, changes and removes them in one post; a refusal keeps what was typed", async () => {
    const { url, workflowId, templateId } = await template();
    const page = await text(await admin.get(`${url}?edit=step-task-1`));
    expect(page).toContain(EDITOR.transitions.formLabel("New task"));
    expect(page).toContain(EDITOR.transitions.newRow);
    const form = { intent: "edit", op: "setTransitions", form: "step-transitions-task-1", id: "task-1" };
    const added = await admin.post(url, { ...form, count: "1", "t.0.current": "open", "t.0.next": "done", "t.0.label": "Finish", "t.0.description": "When filed", "t.0.enabled": "on" });
    expect(added.status, await added.clone().text()).toBe(302);
    expect(added.headers.get("Location")).toBe(`${url}#steps`);
    const step = async () => (await draftOf(workflowId, templateId)).steps.find((s) => s.id === "task-1")!;
    expect((await step()).transitions).toEqual([{ current: "open", next: "done", enabled: true, label: "Finish", description: "When filed" }]);
    // The open row shows it, and an empty row to add another.
    const open = await text(await admin.get(`${url}?edit=step-task-1`));
    expect(open).toContain('value="When filed"');
    expect(open).toContain(EDITOR.transitions.remove(1));
    // Disable the first, add a second (the empty row left empty is not kept).
    const two = { ...form, count: "3", "t.0.current": "open", "t.0.next": "done", "t.0.label": "Finish", "t.1.current": "done", "t.1.next": "open", "t.1.label": "Reopen", "t.1.enabled": "on" };
    expect((await admin.post(url, two)).status).toBe(302);
    expect((await step()).transitions).toEqual([
      { current: "open", next: "done", enabled: false, label: "Finish", description: "" },
      { current: "done", next: "open", enabled: true, label: "Reopen", description: "" },
    ]);
    const refused = await admin.post(url, { ...form, count: "2", "t.0.current": "open", "t.0.label": "x".repeat(201), "t.1.current": "kept", "t.1.next": "here" });
    expect(refused.status).toBe(400);
    const html = await text(refused);
    expect(html).toContain('value="kept"');
    expect(html).toContain("step-transitions-task-1-error");
    expect((await admin.post(url, { ...form, count: "2", "t.0.current": "open", "t.0.remove": "on", "t.1.current": "done", "t.1.next": "open", "t.1.label": "Reopen", "t.1.enabled": "on" })).status).toBe(302);
    expect((await step()).transitions.map((t) => t.label)).toEqual(["Reopen"]);
  });

  it("instructions: rich text, sanitized, an empty paragraph stored as ''; the step form without it leaves them", async () => {
    const { url, workflowId, templateId } = await template();
    expect(await text(await admin.get(`${url}?edit=step-task-1`))).toContain(EDITOR.fields.instructions);
    const fields = { intent: "edit", op: "updateStep", form: "step-task-1", id: "task-1", title: "New task", durationHours: "1", notification: "", stage: "" };
    const step = async () => (await draftOf(workflowId, templateId)).steps.find((s) => s.id === "task-1")!;
    expect((await admin.post(url, { ...fields, instructions: '<p>Call the <strong>client</strong></p><script>alert(1)</script>' })).status).toBe(302);
    expect((await step()).options.instructions).toBe("<p>Call the <strong>client</strong></p>");
    const shown = await text(await admin.get(`${url}?edit=step-task-1`));
    expect(shown).toMatch(/<textarea[^>]*name="instructions"[^>]*>[^<]*Call the /);
    expect((await admin.post(url, { ...fields, title: "Renamed" })).status).toBe(302);
    expect((await step()).options.instructions).toBe("<p>Call the <strong>client</strong></p>");
    expect((await admin.post(url, { ...fields, instructions: "<p></p>" })).status).toBe(302);
    expect((await step()).options.instructions).toBe("");
  });
});

describe("a form property's details (spec 3 §3 Form, §5)", () => {
  it("description, save to, Required and Rich Text by type, a file's extensions, search terms and multiple; a type change clears the value", async () => {
    const { url, workflowId, templateId } = await template();
    const ref = { from: "task-1", to: "finish" };
    const pathForm = "path-form-task-1--finish";
    expect((await admin.post(url, { intent: "edit", op: "addFormProperty", form: pathForm, ...ref, propertyName: "Report date", propertyType: "string" })).status).toBe(302);
    const page = await text(await admin.get(`${url}?edit=path-task-1--finish`));
    expect(page).toContain(EDITOR.property.formLabel("Report date"));
    expect(page).toContain(EDITOR.property.richText);
    const form = { intent: "edit", op: "updateFormProperty", form: `${pathForm}-property-0`, ...ref, index: "0" };
    const property = async () => (await draftOf(workflowId, templateId)).paths.find((p) => p.from.step === "task-1" && p.to.step === "finish")!.from.action.form!.properties[0]!;
    expect((await admin.post(url, { ...form, propertyType: "string", description: "When it was sent", saveTo: "{{milestone.variables.Sent}}", required: "on" })).status).toBe(302);
    expect(await property()).toMatchObject({ type: "string", description: "When it was sent", saveTo: "{{milestone.variables.Sent}}", required: true, isRichText: false, ext: [], multiple: false });
    // A file: its extensions, search terms and multiple; Rich Text is gone.
    expect((await admin.post(url, { ...form, propertyType: "file", description: "", saveTo: "", ext: "pdf; docx", search: "report", multiple: "on", isRichText: "on" })).status).toBe(302);
    expect(await property()).toMatchObject({ type: "file", ext: ["pdf", "docx"], search: ["report"], multiple: true, isRichText: false, required: false });
    const file = await text(await admin.get(`${url}?edit=path-task-1--finish`));
    expect(file).toContain(EDITOR.property.ext);
    expect(file).not.toContain(`>${EDITOR.property.richText}<`);
    // A boolean has no Required, whatever is posted; the type change cleared the value the template held.
    const doc = await draftOf(workflowId, templateId);
    const withValue = { ...doc, paths: doc.paths.map((p) => (p.from.step === "task-1" && p.to.step === "finish" ? { ...p, from: { ...p.from, action: { form: { ...p.from.action.form!, properties: [{ ...p.from.action.form!.properties[0]!, value: "x" }] } } } } : p)) };
    expect((await app.adminApi("PUT", `${API}/${workflowId}/milestones/${templateId}/draft`, withValue)).status).toBeLessThan(300);
    expect((await property()).value).toBe("x");
    expect((await admin.post(url, { ...form, propertyType: "boolean", required: "on" })).status).toBe(302);
    const bool = await property();
    expect(bool).toMatchObject({ type: "boolean", required: false, ext: [], multiple: false });
    expect(bool.value).toBeUndefined();
    expect(await text(await admin.get(`${url}?edit=path-task-1--finish`))).not.toContain(`${pathForm}-property-0-required`);
  });
});
