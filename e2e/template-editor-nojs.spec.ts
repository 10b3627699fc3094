import type { Page } from "@playwright/test";
import { CONNECT_MESSAGES } from "@contract/graph";
import { EVENT_CODES } from "@contract/workflow-contracts";
import { EDITOR } from "~/workflows/editor/texts";
import { ADMIN, expect, expectAccessible, signIn, test, unique } from "./fixtures";
import { docketEvents, toastSays } from "./workflows-fixtures";

/**
 * The template editor without JavaScript (spec 3 §2.6): the sample template of issue 35 built in the table editor
 * from the wizard's first graph (its one task removed), one server form per change: a start event, six steps with an
 * AND join, a form on a path, a roadmap of two stages, two variables; saved, activated, and run by the engine.
 */
test.skip(({ javaScriptEnabled }) => javaScriptEnabled !== false, "the table editor's own scenario: no-JS only");

const form = (page: Page, name: string) => page.getByRole("form", { name, exact: true });
/** A row's Edit link, by its accessible name. */
const summary = (page: Page, name: string) => page.getByRole("link", { name, exact: true });

async function addStep(page: Page, title: string, type = "task", duration = "1") {
  const f = form(page, EDITOR.addStep);
  await f.getByLabel(EDITOR.fields.type).selectOption(type);
  await f.getByLabel(EDITOR.fields.title, { exact: true }).fill(title);
  await f.getByLabel(EDITOR.fields.duration).fill(duration);
  await f.getByRole("button", { name: EDITOR.addStep }).click();
  await expect(page.getByRole("rowheader", { name: title, exact: true })).toBeVisible();
}

/** Adds a path and waits for its row (or, when `refused`, for the model's message beside the form). */
async function addPath(page: Page, from: string, to: string, taskTitle = "", refused?: string) {
  const rows = page.locator("#paths tbody tr");
  const before = await rows.count();
  const f = form(page, EDITOR.addPath);
  await f.getByLabel(EDITOR.fields.from, { exact: true }).selectOption({ label: from });
  await f.getByLabel(EDITOR.fields.to, { exact: true }).selectOption({ label: to });
  if (taskTitle) await f.getByLabel(EDITOR.fields.taskTitle).fill(taskTitle);
  await f.getByRole("button", { name: EDITOR.addPath }).click();
  if (refused) await expect(form(page, EDITOR.addPath).getByRole("alert")).toHaveText(refused);
  else await expect(rows).toHaveCount(before + 1);
}

async function stepStage(page: Page, title: string, stage: string) {
  await summary(page, EDITOR.editStep(title)).click();
  const f = form(page, EDITOR.editStep(title));
  await f.getByLabel(EDITOR.fields.stage).selectOption({ label: stage });
  await f.getByRole("button", { name: EDITOR.apply }).click();
  await expect(page.locator("#steps").getByRole("row", { name: new RegExp(`^${title} `) })).toContainText(stage);
}

test("the sample template built in the tables, saved, activated and run by the engine", async ({ page, request }) => {
  // One walk through every table, a few dozen round trips: minutes on a loaded two-core machine.
  test.setTimeout(180_000);
  await signIn(page);
  const login = await request.post("/api/auth/login", { data: { email: ADMIN.email, password: ADMIN.password } });
  const headers = { Authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const clientCode = unique("ED").toUpperCase();
  const base = "/api/workflows/v2/workflows";
  const workflow = (await (await request.post(base, { headers, data: { title: `Editor ${clientCode}`, clientCodes: [clientCode] } })).json()) as { id: string };
  const events = [{ type: "create", code: EVENT_CODES.applicationCreated, predicates: [], action: { title: `Respond ${clientCode}` } }];
  const created = await request.post(`${base}/${workflow.id}/milestones/draft/template`, { headers, data: { data: { title: "Office action", events } } });
  const template = (await created.json()) as { id: string };

  await page.goto(`/workflows/${workflow.id}/milestones/${template.id}`);
  await expect(page.getByRole("heading", { level: 1, name: /Office action/ })).toBeVisible();
  await expect(page.getByText("Shortest planned duration: 1.0 hours")).toBeVisible();
  await expectAccessible(page);

  // From nothing: the wizard's one task goes; start, finish and nowhere stay.
  await summary(page, EDITOR.editStep("New task")).click();
  await page.getByRole("button", { name: EDITOR.deleteStep("New task") }).click();
  await expect(page.getByRole("rowheader", { name: "New task" })).toHaveCount(0);
  await expect(page.getByText("Path does not exists")).toBeVisible();
  // The header's badge (the History menu lists the draft too).
  await expect(page.getByRole("heading", { level: 1 }).getByText(EDITOR.badge.draft, { exact: true })).toBeVisible();

  await addStep(page, "Receive");
  await addStep(page, "Draft response", "task", "3");
  await addStep(page, "Review", "task", "2");
  await addStep(page, "Both done", "and", "0");
  await addStep(page, "File response");
  await addStep(page, "Report to client");

  await addPath(page, "Start", "Receive", "Receive {{reference}}");
  await addPath(page, "Receive", "Draft response");
  await addPath(page, "Receive", "Review");
  await addPath(page, "Draft response", "Both done");
  await addPath(page, "Review", "Both done");
  await addPath(page, "Both done", "File response");
  await addPath(page, "File response", "Report to client");
  await addPath(page, "Report to client", "Finish");
  // The model's rule, said beside the form: no second connection between the same two steps.
  await addPath(page, "Receive", "Review", "", CONNECT_MESSAGES.duplicate);

  // A form on the path from File response to Report to client.
  const pathEdit = EDITOR.editPath("File response", "Report to client");
  await summary(page, pathEdit).click();
  await form(page, pathEdit).getByLabel(EDITOR.fields.formName).fill("Filing");
  await form(page, pathEdit).getByRole("button", { name: EDITOR.apply }).click();
  await expect(page.locator("#paths").getByRole("row", { name: /^File response / })).toContainText("Filing ()");
  await summary(page, pathEdit).click();
  const property = page.locator(".row-editor").getByRole("form", { name: EDITOR.addProperty });
  await property.getByLabel(EDITOR.fields.propertyName).fill("Filing date");
  await property.getByLabel(EDITOR.fields.propertyType).selectOption("date");
  await property.getByLabel(EDITOR.fields.required).check();
  await property.getByRole("button", { name: EDITOR.addProperty }).click();
  await expect(page.locator("#paths").getByRole("row", { name: /^File response / })).toContainText("Filing (Filing date)");

  // A roadmap of two stages.
  for (const name of ["Preparation", "Filing"]) {
    await form(page, EDITOR.addStage).getByLabel(EDITOR.fields.stageName).fill(name);
    await form(page, EDITOR.addStage).getByRole("button", { name: EDITOR.addStage }).click();
    await expect(page.getByRole("rowheader", { name })).toBeVisible();
  }
  await stepStage(page, "Receive", "Preparation");
  await stepStage(page, "Draft response", "Preparation");
  await stepStage(page, "File response", "Filing");

  // Two variables: the next Var_N, and a named one.
  await form(page, EDITOR.addVariable).getByRole("button", { name: EDITOR.addVariable }).click();
  await expect(page.getByRole("rowheader", { name: "Var_1" })).toBeVisible();
  await form(page, EDITOR.addVariable).getByLabel(EDITOR.fields.variableName).fill("clientDueDate");
  await form(page, EDITOR.addVariable).getByLabel(EDITOR.fields.variableType).selectOption("date");
  await form(page, EDITOR.addVariable).getByRole("button", { name: EDITOR.addVariable }).click();
  await expect(page.getByRole("rowheader", { name: "clientDueDate" })).toBeVisible();

  // Receive 1 h, then the longer branch (3 h) joins, File 1 h, Report 1 h.
  await expect(page.getByText("Shortest planned duration: 6.0 hours")).toBeVisible();
  await expectAccessible(page);

  // At 390 px the page does not scroll sideways (the tables scroll in their own box) and an open row's form is on screen.
  const viewport = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  await summary(page, EDITOR.editStep("Review")).click();
  const stepForm = form(page, EDITOR.editStep("Review"));
  await expect(stepForm).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const box = (await stepForm.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await page.setViewportSize(viewport);

  await page.getByLabel(EDITOR.commitMessage).fill("The sample template");
  await page.getByRole("button", { name: EDITOR.saveActivate }).click();
  await expect(page).toHaveURL(new RegExp(`/workflows/${workflow.id}$`));
  await toastSays(page, EDITOR.savedAndActivated);

  const saved = (await (await request.get(`${base}/${workflow.id}/milestones/${template.id}`, { headers })).json()) as {
    active: boolean;
    hasDraft: boolean;
    steps: { title: string; type: string }[];
    roadmap: { name: string; steps: string[] }[];
    variables: { name: string }[];
    paths: { from: { action: { form?: { properties: { property: string; required: boolean }[] } } } }[];
  };
  expect(saved).toMatchObject({ active: true, hasDraft: false });
  expect(saved.steps.filter((s) => s.type === "task" || s.type === "and")).toHaveLength(6);
  expect(saved.roadmap.map((s) => [s.name, s.steps.length])).toEqual([
    ["Preparation", 2],
    ["Filing", 1],
  ]);
  expect(saved.variables.map((v) => v.name)).toEqual(["Var_1", "clientDueDate"]);
  expect(saved.paths.flatMap((p) => p.from.action.form?.properties ?? [])).toEqual([expect.objectContaining({ property: "filingDate", required: true })]);

  // The engine runs it: an event for the client code makes a milestone whose first task is Receive.
  const reference = unique("REF");
  const milestoneId = await (await docketEvents(request)).post({ code: EVENT_CODES.applicationCreated, reference, clientCode });
  const milestone = (await (await request.get(`/api/workflows/milestones/${milestoneId}`, { headers })).json()) as { tasks: { title: string; status: string }[] };
  expect(milestone.tasks).toEqual([expect.objectContaining({ title: `Receive ${reference}`, status: "open" })]);
});
