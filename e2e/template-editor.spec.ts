import type { APIRequestContext, Page } from "@playwright/test";
import { CONNECT_MESSAGES, GRAPH_MESSAGES, NOWHERE_PORT } from "@contract/graph";
import { EVENT_CODES } from "@contract/workflow-contracts";
import { DEFAULT_MILESTONE_TITLE, NOWHERE_ID, WORKFLOW_MESSAGES } from "@contract/workflow-constants";
import { CONDITION_TEXTS } from "~/workflows/conditions/texts";
import { CANVAS } from "~/workflows/editor/canvas/texts";
import { FORM_TEXTS } from "~/workflows/editor/forms/texts";
import { EDITOR } from "~/workflows/editor/texts";
import { ADMIN, expect, expectAccessible, signIn, test, unique } from "./fixtures";
import { js, toastSays } from "./workflows-fixtures";

/**
 * The template editor's canvas (JavaScript only; e2e/template-editor-nojs.spec.ts builds a template without it): a
 * template built with the mouse, then one edited by keyboard alone, each saved through the page's own forms and
 * read back from the upstream.
 */
test.skip(() => !js(), "the canvas needs JavaScript");

type Doc = {
  steps: { id: string; type: string; title: string; display: { position: { x: number; y: number } } }[];
  paths: { from: { step: string; port?: string; action: { form?: { name: string } | null } }; to: { step: string; action: { title?: unknown } } }[];
  variables: { name: string; type: string }[];
  roadmap: { name: string; steps: string[] }[];
  tags: string[];
  events: { type: string; code: string; predicates: unknown; action: { title: string; finish: boolean } }[];
};

/** A workflow with one inactive template made as the wizard makes it (start → task → finish, and nowhere). */
async function templateFor(request: APIRequestContext, graph?: { steps: unknown[]; paths: unknown[] }) {
  const login = await request.post("/api/auth/login", { data: { email: ADMIN.email, password: ADMIN.password } });
  const headers = { Authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const base = "/api/workflows/v2/workflows";
  const ok = async (response: Awaited<ReturnType<APIRequestContext["post"]>>, status: number) => {
    expect(response.status(), await response.text()).toBe(status);
    return (await response.json()) as { id: string };
  };
  const code = unique("CV");
  const workflow = await ok(await request.post(base, { headers, data: { title: `Canvas ${code}`, clientCodes: [code] } }), 201);
  const events = [{ type: "create", code: EVENT_CODES.applicationCreated, predicates: [], action: { title: "Filing" } }];
  const title = `Filing ${code}`;
  const template = await ok(await request.post(`${base}/${workflow.id}/milestones/draft/template`, { headers, data: { data: { title, events } } }), 201);
  const item = `${base}/${workflow.id}/milestones/${template.id}`;
  if (graph) await ok(await request.put(item, { headers, data: { title, events, ...graph } }), 200);
  return {
    url: `/workflows/${workflow.id}/milestones/${template.id}`,
    workflowUrl: `/workflows/${workflow.id}`,
    read: async () => (await (await request.get(item, { headers })).json()) as Doc & { active: boolean },
  };
}

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
const status = (page: Page) => page.locator(".canvas-status");

/** Drags from a step's port (its default one unless named) to another step's input, with the mouse. */
async function connect(page: Page, from: string, to: string, port = "out") {
  // The mouse acts in the viewport only: the canvas is scrolled into it first.
  await page.locator(".react-flow").scrollIntoViewIfNeeded();
  const source = node(page, from).locator(`.react-flow__handle[data-handleid="${port}"]`);
  const target = node(page, to).locator(".react-flow__handle.target");
  const a = (await source.boundingBox())!;
  const b = (await target.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
  await page.mouse.up();
}

test("with the mouse: start, two steps and finish, connected, saved and activated", async ({ page, request }) => {
  const step = (id: string, type: string, title: string, x: number, y: number) => ({ id, type, title, display: { position: { x, y } } });
  const template = await templateFor(request, {
    steps: [step("start", "milestone-start", "Start", 0, 0), step("finish", "finish", "Finish", 900, 0), step(NOWHERE_ID, "nowhere", "Nowhere", 900, 300)],
    paths: [],
  });
  await signIn(page);
  await page.goto(template.url);
  const canvas = page.getByRole("region", { name: CANVAS.region });
  await expect(canvas.locator(".react-flow__node")).toHaveCount(3);

  // A task dragged from the dock onto the canvas, another clicked in (it lands in the middle of the view).
  const pane = canvas.locator(".react-flow__pane");
  const box = (await pane.boundingBox())!;
  // Dropped between start and finish, clear of the start's port: a step over it would take the connecting press.
  await page.getByRole("button", { name: CANVAS.insert("Task") }).dragTo(pane, { targetPosition: { x: box.width * 0.5, y: box.height * 0.2 } });
  await expect(node(page, "step-1")).toBeVisible();
  await page.getByRole("button", { name: CANVAS.insert("Task") }).click();
  await expect(node(page, "step-2")).toBeVisible();

  // The first one named through its form (a double click opens the table editor's form in a modal).
  await node(page, "step-1").dblclick();
  const form = page.getByRole("dialog", { name: CANVAS.editTitle });
  await form.getByLabel(EDITOR.fields.title, { exact: true }).fill("Draft the claims");
  await form.getByRole("button", { name: EDITOR.apply }).click();
  await expect(form).toBeHidden();
  await expect(node(page, "step-1")).toContainText("Draft the claims");

  // A connection to a task opens its editor (spec 3 §4.1); its Apply keeps it. One to finish needs none.
  // (The form names an untitled step by its id, the canvas by its type.)
  const keep = async (from: string, to: string, toInForm = to) => {
    const editor = page.getByRole("dialog", { name: CANVAS.newConnectionTitle });
    await editor.getByRole("form", { name: EDITOR.editPath(from, toInForm) }).getByRole("button", { name: EDITOR.apply }).click();
    await expect(editor).toBeHidden();
    await expect(status(page)).toHaveText(CANVAS.announce.connectionKept(from, to));
  };
  // Every step in view before the mouse drags between them (under load the first fit can come before the steps are sized).
  await page.getByRole("button", { name: CANVAS.fitView, exact: true }).click();
  await connect(page, "start", "step-1");
  await keep("Start", "Draft the claims");
  await connect(page, "step-1", "step-2");
  await keep("Draft the claims", "Task", "step-2");
  await connect(page, "step-2", "finish");
  await expect(canvas.locator(".react-flow__edge")).toHaveCount(3);
  // A connection the model refuses says why: one connection between the same two steps.
  await connect(page, "step-1", "step-2");
  await expect(status(page)).toHaveText(CANVAS.announce.refused(CONNECT_MESSAGES.duplicate));
  await expect(canvas.locator(".react-flow__edge")).toHaveCount(3);
  await expect(page.getByText(CANVAS.unsaved)).toBeVisible();
  await expectAccessible(page);

  const activate = page.getByRole("form", { name: EDITOR.saveActivate });
  await activate.getByLabel(EDITOR.commitMessage).fill("Built on the canvas");
  await activate.getByRole("button", { name: EDITOR.saveActivate }).click();
  await toastSays(page, WORKFLOW_MESSAGES.savedAndActivated);
  await expect(page).toHaveURL(template.workflowUrl);

  const saved = await template.read();
  expect(saved.active).toBe(true);
  expect(saved.steps.map((s) => s.id).sort()).toEqual([NOWHERE_ID, "finish", "start", "step-1", "step-2"]);
  expect(saved.steps.find((s) => s.id === "step-1")!.title).toBe("Draft the claims");
  expect(saved.paths.map((p) => `${p.from.step}>${p.to.step}`).sort()).toEqual(["start>step-1", "step-1>step-2", "step-2>finish"]);
});

test("by keyboard alone: insert from the dock, connect, move, undo and redo, save", async ({ page, request }) => {
  const template = await templateFor(request);
  await signIn(page);
  await page.goto(template.url);
  const canvas = page.getByRole("region", { name: CANVAS.region });
  await expect(canvas.locator(".react-flow__node")).toHaveCount(4);

  // Into the dock by Tab from the canvas's first control, then Enter on its Task.
  await page.getByRole("checkbox", { name: CANVAS.showWorkflow }).focus();
  const insertTask = page.getByRole("button", { name: CANVAS.insert("Task") });
  for (let i = 0; i < 12 && !(await insertTask.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(insertTask).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(status(page)).toHaveText(CANVAS.announce.inserted("Task"));
  // The new step has the focus.
  await expect(node(page, "step-1")).toBeFocused();

  // C starts a connection; its target is picked from a list.
  await page.keyboard.press("c");
  const picker = page.getByRole("dialog", { name: CANVAS.connectTitle("Task") });
  await expect(picker).toBeVisible();
  const target = picker.getByLabel(CANVAS.connectTarget);
  await expect(target).toBeFocused();
  await expect(target.locator("option")).toHaveText(["New task (Task)", "Finish (Finish)", "Nowhere (Nowhere)"]);
  await page.keyboard.press("ArrowDown");
  await expect(target).toHaveValue("finish");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(status(page)).toHaveText(CANVAS.announce.connected("Task", "Finish"));
  await expect(node(page, "step-1")).toBeFocused();

  // Arrows move it; Ctrl+Z undoes a move, Ctrl+Shift+Z redoes it.
  const before = (await template.read()).steps.length;
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Shift+ArrowDown");
  await expect(status(page)).toContainText("moved to");
  const moved = await status(page).textContent();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Control+z");
  await expect(status(page)).toHaveText(CANVAS.announce.undone);
  await page.keyboard.press("Control+Shift+z");
  await expect(status(page)).toHaveText(CANVAS.announce.redone);
  await page.keyboard.press("Control+z");
  await expect(status(page)).toHaveText(CANVAS.announce.undone);
  await expectAccessible(page);

  // Save (the page's own button), reached by Shift+Tab from the canvas.
  const save = page.getByRole("button", { name: EDITOR.save, exact: true });
  for (let i = 0; i < 60 && !(await save.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Shift+Tab");
  await expect(save).toBeFocused();
  await page.keyboard.press("Enter");
  await toastSays(page, EDITOR.saved);
  await expect(page.getByText(CANVAS.unsaved)).toBeHidden();

  const saved = await template.read();
  expect(saved.steps).toHaveLength(before + 1);
  const inserted = saved.steps.find((s) => s.id === "step-1")!;
  expect(inserted.type).toBe("task");
  expect(saved.paths.some((p) => p.from.step === "step-1" && p.to.step === "finish")).toBe(true);
  // The position the two kept moves announced.
  const [x, y] = moved!.match(/moved to (-?\d+), (-?\d+)/)!.slice(1).map(Number);
  expect(inserted.display.position).toEqual({ x, y });
});

test("a new connection opens its editor (alternatives added and removed in the page): kept as one undo step, removed on Escape, and from the nowhere port only with a form", async ({ page, request }) => {
  const step = (id: string, type: string, title: string, x: number, y: number) => ({ id, type, title, display: { position: { x, y } } });
  const template = await templateFor(request, {
    steps: [step("start", "milestone-start", "Start", 0, 0), step("t1", "task", "Draft", 300, 0), step("t2", "task", "Review", 600, 0), step("t3", "task", "Check", 600, 300), step("finish", "finish", "Finish", 900, 0), step(NOWHERE_ID, "nowhere", "Nowhere", 900, 300)],
    paths: [{ from: { step: "start" }, to: { step: "t1" } }],
  });
  await signIn(page);
  await page.goto(template.url);
  const canvas = page.getByRole("region", { name: CANVAS.region });
  const edges = canvas.locator(".react-flow__edge");
  await expect(edges).toHaveCount(1);
  const editor = page.getByRole("dialog", { name: CANVAS.newConnectionTitle });
  // Every step in view before the mouse drags between them (under load the first fit can come before the steps are sized).
  await page.getByRole("button", { name: CANVAS.fitView, exact: true }).click();

  // To a task: the connection editor opens at once; Apply keeps the connection with what was typed, one undo step.
  await connect(page, "t1", "t2");
  await expect(editor).toBeVisible();
  await expect(status(page)).toHaveText(CANVAS.announce.connectionEditing("Draft", "Review"));
  // Its conditional alternatives: Add and Remove change the list in the page, focus following (no post).
  await editor.getByText(CANVAS.alternatives, { exact: true }).click();
  const titles = editor.getByRole("form", { name: EDITOR.alternatives.formLabel(EDITOR.alternatives.fields.title) });
  await expect(titles.getByRole("listitem").filter({ has: page.locator("h4") })).toHaveCount(1);
  await titles.getByRole("button", { name: EDITOR.alternatives.add }).press("Enter");
  await expect(titles.getByRole("heading", { name: EDITOR.alternatives.alternative(1) })).toBeVisible();
  await expect(titles.getByRole("button", { name: CONDITION_TEXTS.editConditions })).toBeFocused();
  await titles.getByRole("button", { name: EDITOR.alternatives.remove(1) }).press("Enter");
  await expect(titles.getByRole("heading", { name: EDITOR.alternatives.alternative(1) })).toHaveCount(0);
  await expect(titles.getByRole("button", { name: EDITOR.alternatives.add })).toBeFocused();
  await expect(editor).toBeVisible();
  const pathForm = editor.getByRole("form", { name: EDITOR.editPath("Draft", "Review") });
  await pathForm.getByLabel(EDITOR.fields.taskTitle, { exact: true }).fill("Review the draft");
  await pathForm.getByRole("button", { name: EDITOR.apply }).click();
  await expect(editor).toBeHidden();
  await expect(status(page)).toHaveText(CANVAS.announce.connectionKept("Draft", "Review"));
  await expect(edges).toHaveCount(2);
  await expect(node(page, "t1")).toBeFocused();
  await page.keyboard.press("Control+z");
  await expect(edges).toHaveCount(1);
  await page.keyboard.press("Control+Shift+z");
  await expect(edges).toHaveCount(2);

  // To finish: no editor.
  await connect(page, "t2", "finish");
  await expect(status(page)).toHaveText(CANVAS.announce.connected("Review", "Finish"));
  await expect(editor).toBeHidden();
  await expect(edges).toHaveCount(3);

  // Escape (Cancel) removes the new connection and gives the focus back to where it started.
  await connect(page, "t1", "t3");
  await expect(editor).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(editor).toBeHidden();
  await expect(status(page)).toHaveText(CANVAS.announce.connectionCancelled("Draft", "Check"));
  await expect(edges).toHaveCount(3);
  await expect(node(page, "t1")).toBeFocused();

  // From the nowhere port: the editor opens on the form; applied without one, the connection goes, saying why.
  await connect(page, "t1", NOWHERE_ID, NOWHERE_PORT);
  await expect(editor).toBeVisible();
  await expect(editor.getByLabel(EDITOR.fields.formName)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(editor).toBeHidden();
  await expect(status(page)).toHaveText(CANVAS.announce.connectionNeedsForm("Draft", "Nowhere", GRAPH_MESSAGES.nowherePortNeedsForm));
  await expect(edges).toHaveCount(3);
  await connect(page, "t1", NOWHERE_ID, NOWHERE_PORT);
  await editor.getByLabel(EDITOR.fields.formName).fill("Why it stopped");
  await page.keyboard.press("Enter");
  await expect(status(page)).toHaveText(CANVAS.announce.connectionKept("Draft", "Nowhere"));
  await expect(edges).toHaveCount(4);
  await expectAccessible(page);

  await page.getByRole("button", { name: EDITOR.save, exact: true }).click();
  await toastSays(page, EDITOR.saved);
  const saved = await template.read();
  expect(saved.paths.map((p) => `${p.from.step}>${p.to.step}`).sort()).toEqual(["start>t1", `t1>${NOWHERE_ID}`, "t1>t2", "t2>finish"]);
  expect(saved.paths.find((p) => p.to.step === "t2")!.to.action.title).toBe("Review the draft");
  const stopped = saved.paths.find((p) => p.to.step === NOWHERE_ID)!;
  expect(stopped.from.port).toBe(NOWHERE_PORT);
  expect(stopped.from.action.form?.name).toBe("Why it stopped");
});

test("the header's modals by keyboard: a variable, a roadmap stage picked for a step, the template's properties and events", async ({ page, request }) => {
  const step = (id: string, type: string, title: string, x: number, y: number) => ({ id, type, title, display: { position: { x, y } } });
  const template = await templateFor(request, {
    steps: [step("start", "milestone-start", "Start", 0, 0), step("t1", "task", "Draft", 300, 0), step("finish", "finish", "Finish", 600, 0), step(NOWHERE_ID, "nowhere", "Nowhere", 600, 300)],
    paths: [{ from: { step: "start" }, to: { step: "t1" } }],
  });
  await signIn(page);
  await page.goto(template.url);
  await expect(page.getByRole("region", { name: CANVAS.region }).locator(".react-flow__node")).toHaveCount(4);

  /** Opens a header link's modal by keyboard. */
  const open = async (link: string, title: string) => {
    await page.getByRole("link", { name: link }).focus();
    await page.keyboard.press("Enter");
    const modal = page.getByRole("dialog", { name: title });
    await expect(modal).toBeVisible();
    await expect(status(page)).toHaveText(CANVAS.announce.opened(title));
    return modal;
  };
  /** Escape closes a modal, says so, and gives the focus back to its link. */
  const close = async (link: string, title: string) => {
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: title })).toBeHidden();
    await expect(status(page)).toHaveText(CANVAS.announce.closed(title));
    await expect(page.getByRole("link", { name: link })).toBeFocused();
  };

  // Variables: one added (the modal stays open for the next, focus back in its form).
  const variables = await open(EDITOR.variables, EDITOR.variables);
  const addVariable = variables.getByRole("form", { name: EDITOR.addVariable });
  await addVariable.getByLabel(EDITOR.fields.variableType).selectOption("date");
  await addVariable.getByLabel(EDITOR.fields.variableName).fill("filedOn");
  await page.keyboard.press("Enter");
  await expect(status(page)).toHaveText(CANVAS.announce.edited(EDITOR.variables));
  await expect(variables.getByRole("listitem").locator("summary")).toHaveText(["filedOn (date)"]);
  await expect(variables.getByRole("form", { name: EDITOR.addVariable }).getByLabel(EDITOR.fields.variableName)).toBeFocused();
  await close(EDITOR.variables, EDITOR.variables);

  // The roadmap: a stage added (its mark says it is empty), then a step put in it with the stage picker.
  const roadmap = await open(EDITOR.defineRoadmap, EDITOR.roadmap);
  await roadmap.getByRole("form", { name: EDITOR.addStage }).getByLabel(EDITOR.fields.stageName).fill("Drafting");
  await page.keyboard.press("Enter");
  await expect(status(page)).toHaveText(CANVAS.announce.edited(EDITOR.roadmap));
  const picker = roadmap.getByRole("form", { name: FORM_TEXTS.stagePicker.label });
  await expect(picker.getByLabel(EDITOR.fields.stage).locator("option")).toHaveText([EDITOR.none, FORM_TEXTS.stagePicker.option("Drafting", "error")]);
  await picker.getByLabel(FORM_TEXTS.stagePicker.step).selectOption({ label: "Draft" });
  await picker.getByLabel(EDITOR.fields.stage).selectOption("Drafting");
  await picker.getByRole("button", { name: EDITOR.apply }).press("Enter");
  await expect(roadmap.getByRole("listitem").filter({ hasText: "Drafting" })).toContainText("(Draft)");
  await expect(node(page, "t1").getByText(CANVAS.roadmap)).toBeAttached();
  // (The header's link names the saved roadmap: Define until saved.)
  await close(EDITOR.defineRoadmap, EDITOR.roadmap);

  // Properties: tags, and the template's events: the first one's conditions in the conditions editor's dialogs, and a
  // second event added (an update that finishes the milestone). Apply closes the modal.
  const properties = await open(EDITOR.properties, EDITOR.properties);
  await properties.getByLabel(EDITOR.fields.tags).fill("patents; filing");
  const event = (n: number) => properties.getByRole("listitem").filter({ has: page.getByRole("heading", { name: FORM_TEXTS.events.event(n), exact: true }) });
  await event(1).getByRole("button", { name: CONDITION_TEXTS.editConditions }).press("Enter");
  const or = page.getByRole("dialog", { name: CONDITION_TEXTS.editOr });
  await or.getByRole("button", { name: CONDITION_TEXTS.addGroup }).press("Enter");
  const and = page.getByRole("dialog", { name: CONDITION_TEXTS.editAnd });
  await and.getByLabel(CONDITION_TEXTS.field).selectOption("{{clientCode}}");
  await and.getByLabel(CONDITION_TEXTS.function).selectOption("equals");
  await and.getByLabel(CONDITION_TEXTS.value).fill("ACME");
  await and.getByRole("button", { name: CONDITION_TEXTS.done }).press("Enter");
  await or.getByRole("button", { name: CONDITION_TEXTS.done }).press("Enter");
  await expect(or).toBeHidden();
  await expect(properties).toBeVisible();
  await properties.getByRole("button", { name: FORM_TEXTS.events.add }).press("Enter");
  await event(2).getByLabel(FORM_TEXTS.events.type).selectOption("update");
  await event(2).getByLabel(FORM_TEXTS.events.code).selectOption(EVENT_CODES.applicationUpdated);
  await event(2).getByLabel(FORM_TEXTS.events.outcome).selectOption("finish");
  await properties.getByLabel(EDITOR.fields.templateTitle).press("Enter");
  await expect(properties).toBeHidden();
  await expect(status(page)).toHaveText(CANVAS.announce.edited(EDITOR.properties));
  await expectAccessible(page);

  await page.getByRole("button", { name: EDITOR.save, exact: true }).click();
  await toastSays(page, EDITOR.saved);
  const saved = await template.read();
  expect(saved.variables.map((v) => [v.name, v.type])).toEqual([["filedOn", "date"]]);
  expect(saved.roadmap).toEqual([{ name: "Drafting", steps: ["t1"] }]);
  expect(saved.tags).toEqual(["patents", "filing"]);
  expect(saved.events.map((e) => [e.type, e.code, e.action.title, e.action.finish])).toEqual([
    ["create", EVENT_CODES.applicationCreated, "Filing", false],
    ["update", EVENT_CODES.applicationUpdated, DEFAULT_MILESTONE_TITLE, true],
  ]);
  expect(saved.events[0]!.predicates).toEqual([[{ field: "{{clientCode}}", function: "equals", arguments: ["ACME"] }]]);
});
