import type { APIRequestContext, Page } from "@playwright/test";
import { WORKFLOW_MESSAGES } from "@contract/workflow-constants";
import { EVENT_CODES } from "@contract/workflow-contracts";
import { MILESTONES } from "~/workflows/milestones/texts";
import { ADMIN, adminApi, expect, expectAccessible, signIn, test, unique } from "./fixtures";
import { docketEvents, js } from "./workflows-fixtures";

/**
 * A workflow for `clientCode` with one active template: start → "Prepare response" → (port filed, with a form)
 * "Report to client" → finish, or (port withdrawn) finish; milestones due in 3 days, assigned to `assignee`.
 */
async function docketFor(request: APIRequestContext, clientCode: string, assignee: string) {
  const login = await request.post("/api/auth/login", { data: { email: ADMIN.email, password: ADMIN.password } });
  const { token } = (await login.json()) as { token: string };
  const headers = { Authorization: `Bearer ${token}` };
  const ok = async (response: Awaited<ReturnType<APIRequestContext["post"]>>, status: number) => {
    expect(response.status(), await response.text()).toBe(status);
    return (await response.json()) as { id: string };
  };
  const base = "/api/workflows/v2/workflows";
  const workflow = await ok(await request.post(base, { headers, data: { title: `Docket ${clientCode}`, clientCodes: [clientCode] } }), 201);
  const title = `Office action ${clientCode}`;
  const events = [
    {
      type: "create",
      code: EVENT_CODES.applicationCreated,
      predicates: [],
      action: { title: `Respond ${clientCode}`, dueAt: { date: "{{now}}", amount: 3, measures: "Days" }, assignees: [assignee], notes: ["<p>Call the <b>client</b> first</p>"] },
    },
  ];
  const template = await ok(await request.post(`${base}/${workflow.id}/milestones/draft/template`, { headers, data: { data: { title, events } } }), 201);
  const step = (id: string, type: string, stepTitle: string) => ({ id, type, title: stepTitle, durationHours: type === "task" ? 1 : 0 });
  const content = {
    title,
    events,
    steps: [step("start", "milestone-start", "Start"), step("prepare", "task", "Prepare response"), step("report", "task", "Report to client"), step("finish", "finish", "Finish"), step("100500", "nowhere", "Nowhere")],
    paths: [
      { from: { step: "start" }, to: { step: "prepare", action: { assignees: [assignee] } } },
      {
        from: {
          step: "prepare",
          port: "filed",
          action: {
            form: {
              name: "Filing",
              properties: [
                { name: "Filing date", property: "filingDate", type: "date", required: true },
                { name: "Fee", property: "fee", type: "number" },
                { name: "Reviewer", property: "reviewer", type: "email", required: true },
              ],
            },
          },
        },
        to: { step: "report", action: { assignees: [assignee] } },
      },
      { from: { step: "prepare", port: "withdrawn" }, to: { step: "finish" } },
      { from: { step: "report" }, to: { step: "finish" } },
    ],
  };
  await ok(await request.put(`${base}/${workflow.id}/milestones/${template.id}`, { headers, data: content }), 200);
  await ok(await request.post(`${base}/${workflow.id}/milestones/${template.id}/activate`, { headers }), 200);
  const external = await docketEvents(request);
  return {
    /** Posts an event for `reference` and waits until the engine (on the job queue) has made its milestone. */
    event: (reference: string) => external.post({ code: EVENT_CODES.applicationCreated, reference, clientCode }),
  };
}

/** The page is as wide as a 390 px phone: nothing scrolls sideways. */
async function fitsPhone(page: Page) {
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Until the engine has moved the milestone on: with JavaScript the page polls; without it, it refreshes itself. */
async function waitForTask(page: Page, title: string) {
  await expect(async () => {
    if (!js()) await page.reload();
    await expect(page.getByRole("heading", { level: 3, name: title })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

test("an event creates a milestone and its assignee completes its tasks on /milestones until it finishes", async ({ page, request }) => {
  // A workflow, two events through the engine, two completions and three axe audits: several pages' worth of steps.
  test.setTimeout(360_000);
  const clientCode = unique("C");
  const email = `${unique("para")}@e2e.test`.toLowerCase();
  await (await adminApi(request)).createUser({ email, permissions: ["docketing_tasks.read"] });
  const docket = await docketFor(request, clientCode, email);
  const first = await docket.event(unique("REF-A"));
  await docket.event(unique("REF-B"));

  await signIn(page, email, "secret-123");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Milestones" }).click();
  await expect(page.getByRole("heading", { level: 1, name: MILESTONES.title })).toBeVisible();
  // The morning: my open milestones with their open tasks, the counts first.
  await expect(page.getByRole("checkbox", { name: MILESTONES.filters.mine })).toBeChecked();
  await expect(page.getByRole("navigation", { name: MILESTONES.counts.label }).getByRole("link")).toHaveCount(2);
  const cards = page.getByRole("list", { name: MILESTONES.title }).getByRole("listitem").filter({ hasText: `Respond ${clientCode}` });
  await expect(cards).toHaveCount(2);
  await expect(cards.first().getByText("Prepare response")).toBeVisible();
  await expectAccessible(page);

  // The filters are a GET form: sorting by newest puts the second event's milestone first.
  await page.getByLabel(MILESTONES.filters.sort).selectOption("-createdAt");
  if (!js()) await page.getByRole("button", { name: MILESTONES.filters.apply }).click();
  await expect(page).toHaveURL(/sort=-createdAt/);
  await page.getByLabel(MILESTONES.filters.sort).selectOption("dueAt");
  if (!js()) await page.getByRole("button", { name: MILESTONES.filters.apply }).click();
  await expect(page).toHaveURL(/sort=dueAt/);

  // At 390 px the docket reads without scrolling sideways.
  await fitsPhone(page);

  await page.locator(`a[href^="/milestones/${first}?"]`).click();
  await expect(page.getByRole("heading", { level: 1, name: `Respond ${clientCode}` })).toBeVisible();
  await expect(page.getByText("Call the client first")).toBeVisible();
  await expect(page.getByText(MILESTONES.page.createdByEvent(EVENT_CODES.applicationCreated))).toBeVisible();
  await expectAccessible(page);
  await fitsPhone(page);

  // Required fields: the messages, and what was typed stays.
  await page.getByLabel("Fee").fill("12.5");
  await page.getByRole("button", { name: MILESTONES.form.complete }).click();
  await expect(page.getByText(WORKFLOW_MESSAGES.formRequired("Filing date"))).toBeVisible();
  await expect(page.getByText(WORKFLOW_MESSAGES.formRequired("Reviewer"))).toBeVisible();
  await expect(page.getByText(MILESTONES.form.portRequired)).toBeVisible();
  await expect(page.getByLabel("Fee")).toHaveValue("12.5");
  await expectAccessible(page);

  // Filled by keyboard: the date, the reviewer, the port; Enter completes.
  await page.getByLabel("Filing date").fill("2026-12-01");
  await page.getByLabel("Reviewer").fill("rev@example.com");
  await page.getByRole("radio", { name: "filed" }).check();
  await page.getByRole("button", { name: MILESTONES.form.complete }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("toast")).toContainText(WORKFLOW_MESSAGES.tasksUpdated);
  await expect(page.getByTestId("toast")).toContainText(WORKFLOW_MESSAGES.tasksUpdatedMessage(1));
  await waitForTask(page, "Report to client");
  await expect(page.getByText(`Prepare response completed by ${email}`)).toBeVisible();

  await page.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 3, name: "Report to client" }) }).getByRole("button", { name: MILESTONES.form.complete }).click();
  await expect(page.getByTestId("toast")).toContainText(WORKFLOW_MESSAGES.tasksUpdated);
  await expect(async () => {
    if (!js()) await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: `Respond ${clientCode}` }).locator("xpath=..").getByText(MILESTONES.status.completed)).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByRole("button", { name: MILESTONES.form.complete })).toHaveCount(0);

  // One keystroke to the next milestone: N with JavaScript, the link without.
  if (js()) await page.keyboard.press("n");
  else await page.getByRole("link", { name: new RegExp(`^${MILESTONES.page.next}`) }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Respond ${clientCode}` })).toBeVisible();
  await expect(page).not.toHaveURL(new RegExp(`/milestones/${first}\\?`));
  await expect(page.getByRole("button", { name: MILESTONES.form.complete })).toBeVisible();
});

test("a user without docketing_tasks.read gets 'Nothing here :('", async ({ page, request }) => {
  const email = `${unique("nodocket")}@e2e.test`.toLowerCase();
  await (await adminApi(request)).createUser({ email, permissions: ["workflows.read"] });
  await signIn(page, email, "secret-123");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Milestones" })).toHaveCount(0);
  await page.goto("/milestones");
  await expect(page.getByRole("heading", { name: "Nothing here :(" })).toBeVisible();
});
