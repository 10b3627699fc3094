import { DEFAULT_TASK_TITLE, WORKFLOW_MESSAGES } from "@contract/workflow-constants";
import { EVENT_CODES } from "@contract/workflow-contracts";
import { MILESTONES } from "~/workflows/milestones/texts";
import { TEMPLATES, WORKFLOWS } from "~/workflows/texts";
import { WIZARD } from "~/workflows/wizard/texts";
import { adminApi, askConfirmation, expect, expectAccessible, signIn, test, unique } from "./fixtures";
import { dialog, docketEvents, download, js, tags, toastSays } from "./workflows-fixtures";

/** Spec 3 §6: what the docket's staff hold, and nothing else. */
const DOCKET_PERMISSIONS = ["workflows", "workflows.read", "docketing_tasks.read"];
const PASSWORD = "secret-123";
const NOT_FOUND = "Nothing here :(";

/**
 * The whole of issue 34's walk, through the screens, by a user with exactly the permissions of §6: a workflow created,
 * cloned, exported, imported, made default and deleted; a template made with the wizard and activated; an external
 * event (the administrator posting it) makes a milestone whose task the user completes until the milestone finishes.
 * The other workflows and docket specs check each screen in detail as the administrator; this one checks that every
 * step works for this user, and that a user without these permissions meets 'Nothing here :(' everywhere.
 */
test("a docket user with exactly the §6 permissions walks workflows to a finished milestone; without them, 'Nothing here :('", async ({ page, request, browser }) => {
  const admin = await adminApi(request);
  const email = `${unique("docket")}@e2e.test`.toLowerCase();
  const outsider = `${unique("outsider")}@e2e.test`.toLowerCase();
  await Promise.all([
    admin.createUser({ email, password: PASSWORD, permissions: DOCKET_PERMISSIONS }),
    admin.createUser({ email: outsider, password: PASSWORD, permissions: ["portfolio.read"] }),
  ]);
  const title = unique("Walk");
  const [keep, take] = [unique("K").toUpperCase(), unique("T").toUpperCase()];
  const on = WORKFLOWS.actionOn;

  await signIn(page, email, PASSWORD);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: WORKFLOWS.listTitle }).click();

  // Created.
  await page.getByRole("link", { name: WORKFLOWS.addNew }).click();
  await page.getByLabel(WORKFLOWS.labels.title).fill(title);
  await tags(page, WORKFLOWS.labels.clientCodes, [keep, take]);
  await page.getByRole("button", { name: WORKFLOWS.save }).click();
  await toastSays(page, WORKFLOWS.toasts.created);

  // Cloned, taking one client code over.
  await page.goto(`/workflows?q=${encodeURIComponent(title)}`);
  await page.getByRole("link", { name: on(WORKFLOWS.actions.clone, title) }).click();
  await dialog(page, WORKFLOWS.clone.title(title)).getByLabel(WORKFLOWS.clone.reference(take, 0)).check();
  await dialog(page, WORKFLOWS.clone.title(title)).getByRole("button", { name: WORKFLOWS.clone.submit }).click();
  await toastSays(page, WORKFLOWS.toasts.cloned);
  const clone = WORKFLOWS.clone.defaultTitle(title);
  await expect(page.getByRole("row").filter({ hasText: clone })).toContainText(take);

  // Exported, and the export string imported under another title (its client code stays with the original).
  const exported = JSON.parse(await download(page, page.getByRole("link", { name: on(WORKFLOWS.actions.export, title), exact: true }))) as {
    workflow: { title: string; clientCodes: string[] };
  };
  expect(exported.workflow).toEqual({ title, clientCodes: [keep] });
  const imported = unique("Walk imported");
  await page.getByRole("link", { name: WORKFLOWS.actions.importWorkflow }).click();
  await dialog(page, WORKFLOWS.import.title)
    .getByLabel(WORKFLOWS.import.label)
    .fill(JSON.stringify({ ...exported, workflow: { ...exported.workflow, title: imported } }));
  await dialog(page, WORKFLOWS.import.title).getByRole("button", { name: WORKFLOWS.import.submit }).click();
  await toastSays(page, WORKFLOWS.import.successful);

  // Made default.
  await page.goto(`/workflows?q=${encodeURIComponent(imported)}`);
  const make = await askConfirmation(page, page.getByRole("button", { name: on(WORKFLOWS.actions.makeDefault, imported) }));
  await make.getByRole("button", { name: WORKFLOWS.makeDefault.confirm }).click();
  await toastSays(page, WORKFLOWS.makeDefault.done(imported));

  // Deleted (the clone).
  await page.goto(`/workflows?q=${encodeURIComponent(clone)}`);
  const del = await askConfirmation(page, page.getByRole("button", { name: on(WORKFLOWS.actions.delete, clone) }));
  await del.getByRole("button", { name: WORKFLOWS.confirmDelete.confirm }).click();
  await toastSays(page, WORKFLOWS.toasts.deleted);
  await expect(page.getByText(WORKFLOWS.emptySearch(clone))).toBeVisible();

  // A template made with the wizard, the user its assignee: a dialog with JavaScript, one form per step without.
  await page.goto(`/workflows?q=${encodeURIComponent(title)}`);
  await page.getByRole("link", { name: title, exact: true }).click();
  await expect(page).toHaveURL(/\/workflows\/[^/?]+$/);
  const workflowId = new URL(page.url()).pathname.split("/")[2]!;
  await page.getByRole("link", { name: TEMPLATES.addNew }).click();
  const wizard = js() ? page.getByRole("dialog", { name: WIZARD.title }) : page.locator("main");
  const next = () => wizard.getByRole("button", { name: WIZARD.next }).click();
  const step = (n: number) => expect(wizard.getByRole("heading", { name: `${WIZARD.stepOf(n, 6)}: ${WIZARD.steps[n - 1]}` })).toBeVisible();
  const template = unique("Filing walk");
  await wizard.getByLabel(WIZARD.labels.title, { exact: true }).fill(template);
  await next();
  await step(2);
  await wizard.getByLabel(WIZARD.labels.source).selectOption("portfolio");
  // Without JavaScript the source's first event is chosen on the server, and the step shown again to check it.
  if (!js()) await next();
  await expect(wizard.getByLabel(WIZARD.labels.code, { exact: true })).toHaveValue(EVENT_CODES.applicationCreated);
  await next();
  await step(3);
  const milestone = unique("Respond");
  await wizard.getByRole("textbox", { name: WIZARD.labels.milestoneTitle }).fill(milestone);
  await next();
  await step(4);
  await next();
  await step(5);
  if (js()) await tags(page, WIZARD.labels.assignees, [email]);
  else await wizard.getByRole("textbox", { name: WIZARD.labels.assignees }).fill(email);
  await next();
  await step(6);
  await wizard.getByRole("button", { name: WIZARD.create }).click();
  await toastSays(page, WIZARD.created);

  // Activated.
  const activate = await askConfirmation(page, page.getByRole("button", { name: `${TEMPLATES.activate} ${template}` }));
  await activate.getByRole("button", { name: TEMPLATES.confirmActivate.confirm }).click();
  await toastSays(page, TEMPLATES.activated(template));

  // An event from outside (an application filed for the original's client code) makes a milestone on the user's docket.
  const reference = unique("REF");
  const id = await (await docketEvents(request)).post({ code: EVENT_CODES.applicationCreated, reference, clientCode: keep });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: MILESTONES.title }).click();
  const card = page.getByRole("list", { name: MILESTONES.title }).getByRole("listitem").filter({ hasText: milestone });
  await expect(card.getByText(DEFAULT_TASK_TITLE)).toBeVisible();
  await expectAccessible(page);

  // Its task completed: the milestone finishes.
  await page.locator(`a[href^="/milestones/${id}?"]`).click();
  await expect(page.getByRole("heading", { level: 1, name: milestone })).toBeVisible();
  await page.getByRole("button", { name: MILESTONES.form.complete }).click();
  await toastSays(page, WORKFLOW_MESSAGES.tasksUpdated);
  await expect(async () => {
    if (!js()) await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: milestone }).locator("xpath=..").getByText(MILESTONES.status.completed)).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByRole("button", { name: MILESTONES.form.complete })).toHaveCount(0);

  // Without the permissions: every workflows and docket address is the not-found view.
  const context = await browser.newContext({ javaScriptEnabled: js() });
  const other = await context.newPage();
  await signIn(other, outsider, PASSWORD);
  const nav = other.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: WORKFLOWS.listTitle })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: MILESTONES.title })).toHaveCount(0);
  const w = `/workflows/${workflowId}`;
  // The two areas in the browser; every other address by its answer (the same server-rendered view, fewer page loads).
  for (const url of ["/workflows", "/milestones"]) {
    expect((await other.goto(url))?.status(), url).toBe(404);
    await expect(other.getByRole("heading", { level: 1, name: NOT_FOUND })).toBeVisible();
  }
  for (const url of ["/workflows/new", w, `${w}/edit`, `${w}/milestones`, `${w}/milestones/new`, `/milestones/${id}`]) {
    const response = await other.request.get(url);
    expect(response.status(), url).toBe(404);
    expect(await response.text(), url).toContain(`>${NOT_FOUND}</h1>`);
  }
  // The export is a download, not a page: a plain 404.
  expect((await other.request.get(`${w}/export`)).status()).toBe(404);
  await context.close();
});
