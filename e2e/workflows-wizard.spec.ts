import type { APIRequestContext, Page } from "@playwright/test";
import { ADMIN, adminApi, expect, expectAccessible, signIn, test, unique } from "./fixtures";

/** A workflow made through the API, as the administrator. */
async function newWorkflow(request: APIRequestContext): Promise<{ id: string; title: string; token: string }> {
  const login = await request.post("/api/auth/login", { data: { email: ADMIN.email, password: ADMIN.password } });
  const { token } = (await login.json()) as { token: string };
  const title = unique("Wizard workflow");
  const created = await request.post("/api/workflows/v2/workflows", { headers: { Authorization: `Bearer ${token}` }, data: { title } });
  expect(created.status(), await created.text()).toBe(201);
  return { ...((await created.json()) as { id: string }), title, token };
}

async function templates(request: APIRequestContext, id: string, token: string) {
  const r = await request.get(`/api/workflows/v2/workflows/${id}/milestones`, { headers: { Authorization: `Bearer ${token}` } });
  return (await r.json()) as Array<{ title: string; events: Array<{ code: string; predicates: unknown; action: { title: string; notes: string[]; assignees: string[] } }> }>;
}

const stepHeading = (page: Page, n: number, name: string) => page.getByRole("heading", { name: `Step ${n} of 6: ${name}` });

test.describe("milestone template creation wizard", () => {
  // Six steps, each with an axe check on a shared two-core machine: more than the default minute.
  test.describe.configure({ timeout: 300_000 });
  test("with JavaScript: a dialog worked by keyboard, conditions added, the template created", async ({ page, request }) => {
    test.skip(test.info().project.name !== "js", "the dialog needs JavaScript");
    const wf = await newWorkflow(request);
    await signIn(page);
    const list = `/workflows/${wf.id}/milestones`;

    // Escape closes back to the list.
    await page.goto(`${list}/new`);
    const dialog = page.getByRole("dialog", { name: "New milestone template" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Title", { exact: true })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(page).toHaveURL(list);

    await page.goto(`${list}/new`);
    await expect(dialog.getByLabel("Title", { exact: true })).toBeFocused();
    await expect(dialog.getByLabel("Title", { exact: true })).toHaveValue("Default template title");
    await expectAccessible(page);
    // Next is refused while the required value is missing, with the message, focus on the field.
    await page.keyboard.press("Control+A");
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Enter");
    await expect(dialog.getByText("Template title is required")).toBeVisible();
    await expect(dialog.getByLabel("Title", { exact: true })).toBeFocused();
    const title = unique("OA received");
    await page.keyboard.type(title);
    await page.keyboard.press("Enter");

    // Step 2: uniqueness, source, event, conditions.
    await expect(stepHeading(page, 2, "Creation event")).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(dialog.getByLabel("Uniqueness")).toBeFocused();
    await dialog.getByLabel("Uniqueness").selectOption({ label: "Unique at a time" });
    await page.keyboard.press("Tab");
    await expect(dialog.getByLabel("Event source")).toBeFocused();
    await dialog.getByLabel("Event source").selectOption("email");
    await expect(dialog.getByLabel("Event", { exact: true })).toHaveValue("correspondence.recieved");
    await dialog.getByRole("button", { name: "Edit conditions" }).focus();
    await page.keyboard.press("Enter");
    const or = page.getByRole("dialog", { name: 'Edit "OR" conditions' });
    await expect(or).toBeVisible();
    await or.getByRole("button", { name: 'Add "OR" group' }).focus();
    await page.keyboard.press("Enter");
    const and = page.getByRole("dialog", { name: /Edit "AND" conditions/ });
    await expect(and).toBeVisible();
    await and.getByLabel("Field").selectOption("{{subject}}");
    await and.getByLabel("Function").selectOption("contains");
    await and.getByLabel("Value").fill("Office Action");
    // Enter in a condition's field stays in the dialog (it must not move the wizard on under it).
    await page.keyboard.press("Enter");
    await expect(and).toBeVisible();
    await expect(stepHeading(page, 2, "Creation event")).toBeAttached();
    await and.getByRole("button", { name: 'Add "AND" condition' }).click();
    await and.getByRole("group", { name: "Condition 2" }).getByLabel("Field").selectOption("{{receivedAt}}");
    // A date field: its functions only, and a due-date value.
    await expect(and.getByRole("group", { name: "Condition 2" }).getByLabel("Function").locator("option")).toHaveText(["is before", "is after", "is empty", "is not empty"]);
    await and.getByRole("group", { name: "Condition 2" }).getByLabel("Function").selectOption("after");
    await and.getByRole("group", { name: "Condition 2" }).getByLabel("Amount").fill("-30");
    await expectAccessible(page);
    await and.getByRole("button", { name: "Done" }).click();
    await or.getByRole("button", { name: "Done" }).click();
    await expect(dialog.getByText('{{subject}} contains (ignoring case) "Office Action" AND {{receivedAt}} is after {{now}} - 30 Days').first()).toBeVisible();
    await dialog.getByRole("button", { name: "Next" }).click();

    // Step 3: the milestone title.
    await expect(stepHeading(page, 3, "Milestone title")).toBeFocused();
    await expect(dialog.getByRole("textbox", { name: "Milestone title" })).toHaveValue("New milestone");
    await dialog.getByRole("textbox", { name: "Milestone title" }).fill("Respond to {{subject}}");
    await page.keyboard.press("Enter");

    // Step 4: dates (defaults 1 Days), the hours hint.
    await expect(stepHeading(page, 4, "Dates")).toBeFocused();
    const dueAt = dialog.getByRole("group", { name: "Due At" });
    await expect(dueAt.getByLabel("Amount")).toHaveValue("1");
    await expect(dueAt.getByLabel("Measures")).toHaveValue("Days");
    await expect(dueAt.getByText("0 to 24").first()).toBeVisible();
    await dueAt.getByLabel("Date", { exact: true }).selectOption("{{receivedAt}}");
    await dueAt.getByLabel("Amount").fill("3");
    await dueAt.getByLabel("Measures").selectOption("Months");
    await dialog.getByRole("button", { name: "Next" }).click();

    // Step 5: assignees (an address and a variable).
    await expect(stepHeading(page, 5, "Assignees")).toBeFocused();
    await dialog.getByRole("combobox", { name: "Assignees" }).fill("paralegal@firm.test");
    await page.keyboard.press("Enter");
    await dialog.getByLabel("Variable").selectOption("{{from}}");
    await dialog.getByRole("button", { name: "Next" }).click();

    // Step 6: notes in the rich text editor.
    await expect(stepHeading(page, 6, "Notes")).toBeFocused();
    const editor = dialog.getByRole("textbox", { name: "Note 1" });
    await expect(editor).toBeVisible();
    await editor.click();
    await page.keyboard.type("Check the claims");
    await dialog.getByRole("button", { name: "Add note" }).click();
    await dialog.getByRole("button", { name: "Remove note 2" }).click();
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Create milestone template" }).click();

    await expect(page).toHaveURL(list);
    await expect(page.getByTestId("toast")).toContainText("Create completed");
    await expect(page.getByRole("heading", { name: title })).toBeVisible();
    const [t] = (await templates(request, wf.id, wf.token)).filter((x) => x.title === title);
    expect(t!.events[0]!.code).toBe("correspondence.recieved");
    expect(t!.events[0]!.predicates).toEqual([
      [
        { field: "{{subject}}", function: "contains", arguments: ["Office Action"] },
        { field: "{{receivedAt}}", function: "after", arguments: [{ date: "{{now}}", amount: -30, measures: "Days" }] },
      ],
    ]);
    expect(t!.events[0]!.action).toMatchObject({ title: "Respond to {{subject}}", assignees: ["paralegal@firm.test", "{{from}}"], notes: ["<p>Check the claims</p>"] });
  });

  test("at 390 px the dialog fits the screen; Escape in a conditions dialog closes only that one", async ({ page, request }) => {
    test.skip(test.info().project.name !== "js", "the dialog needs JavaScript");
    await page.setViewportSize({ width: 390, height: 844 });
    const wf = await newWorkflow(request);
    await signIn(page);
    await page.goto(`/workflows/${wf.id}/milestones/new`);
    const dialog = page.getByRole("dialog", { name: "New milestone template" });
    await expect(dialog).toBeVisible();
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await dialog.getByRole("button", { name: "Next" }).click();
    await dialog.getByLabel("Event source").selectOption("workflow");
    await dialog.getByRole("button", { name: "Edit conditions" }).click();
    const or = page.getByRole("dialog", { name: 'Edit "OR" conditions' });
    await expect(or).toBeVisible();
    expect(await or.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await page.keyboard.press("Escape");
    await expect(or).toBeHidden();
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(`/workflows/${wf.id}/milestones/new`);
    await expect(dialog.getByRole("button", { name: "Edit conditions" })).toBeFocused();
  });

  test("assignee suggestions for an author holding exactly `workflows` (no users.read): typed, chosen, saved", async ({ page, request }) => {
    test.skip(test.info().project.name !== "js", "suggestions need JavaScript");
    const wf = await newWorkflow(request);
    const api = await adminApi(request);
    const tag = unique("sugg").toLowerCase();
    const paralegal = `${tag}@firm.test`;
    await api.createUser({ email: paralegal, firstName: "Priya", lastName: `Docket${tag.replace(/[^a-z0-9]/g, "")}` });
    const author = `author-${tag}@firm.test`;
    await api.createUser({ email: author, permissions: ["workflows"] });
    await signIn(page, author, "secret-123");
    await page.goto(`/workflows/${wf.id}/milestones/new`);
    const dialog = page.getByRole("dialog", { name: "New milestone template" });
    await dialog.getByRole("button", { name: "Next" }).click();
    await dialog.getByLabel("Event source").selectOption("portfolio");
    for (const [n, name] of [[3, "Milestone title"], [4, "Dates"], [5, "Assignees"]] as const) {
      await dialog.getByRole("button", { name: "Next" }).click();
      await expect(stepHeading(page, n, name)).toBeFocused();
    }
    // By last name: the field asks the assignee route, which answers this author, not /people/suggest (users.read).
    const asked = page.waitForResponse((r) => new URL(r.url()).pathname === "/workflows/assignees");
    await dialog.getByRole("combobox", { name: "Assignees" }).pressSequentially(`docket${tag.replace(/[^a-z0-9]/g, "")}`.slice(0, 14));
    expect((await asked).status()).toBe(200);
    const option = dialog.getByRole("option", { name: paralegal });
    await expect(option).toBeVisible();
    // The person's name beside the e-mail the field takes.
    await expect(option).toContainText(`Priya Docket${tag.replace(/[^a-z0-9]/g, "")}`);
    await expectAccessible(page);
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await expect(dialog.getByRole("list", { name: "Assignees" }).getByText(paralegal)).toBeVisible();
    await dialog.getByRole("button", { name: "Next" }).click();
    await dialog.getByRole("button", { name: "Create milestone template" }).click();
    await expect(page.getByTestId("toast")).toContainText("Create completed");
    const [t] = await templates(request, wf.id, wf.token);
    expect(t!.events[0]!.action.assignees).toEqual([paralegal]);
  });

  test("the docket's assignee filter asks the same route, for a paralegal holding exactly docketing_tasks.read", async ({ page, request }) => {
    const api = await adminApi(request);
    const tag = unique("filt").toLowerCase();
    const colleague = `${tag}@firm.test`;
    await api.createUser({ email: colleague, firstName: "Quinn", lastName: `Clerk${tag.replace(/[^a-z0-9]/g, "")}` });
    const paralegal = `paralegal-${tag}@firm.test`;
    await api.createUser({ email: paralegal, permissions: ["docketing_tasks.read"] });
    await signIn(page, paralegal, "secret-123");
    await page.goto("/milestones");
    const filter = page.getByRole("combobox", { name: "Assignee" }).or(page.getByRole("textbox", { name: "Assignee" }));
    await expect(filter).toHaveAttribute("type", "email");
    if (test.info().project.name === "no-js") {
      // Without JavaScript: the plain e-mail input, no list to fill.
      await expect(filter).not.toHaveAttribute("list");
      return;
    }
    const asked = page.waitForResponse((r) => new URL(r.url()).pathname === "/workflows/assignees");
    await filter.pressSequentially(`clerk${tag.replace(/[^a-z0-9]/g, "")}`.slice(0, 13));
    expect((await asked).status()).toBe(200);
    await expect(page.locator(`#docket-assignee-suggestions option[value="${colleague}"]`)).toHaveAttribute("label", `Quinn Clerk${tag.replace(/[^a-z0-9]/g, "")}`);
    await expectAccessible(page);
  });

  test("without JavaScript: a page that steps through, keeps what was typed, and creates", async ({ page, request }) => {
    test.skip(test.info().project.name !== "no-js", "the page without JavaScript");
    const wf = await newWorkflow(request);
    await signIn(page);
    const list = `/workflows/${wf.id}/milestones`;
    await page.goto(`${list}/new`);
    // The list under the wizard still links its Import to the list, not to the wizard's address.
    await expect(page.locator("#import-template")).toHaveAttribute("href", `${list}?import=1`);
    const title = unique("Filing");
    await page.getByLabel("Title", { exact: true }).fill("");
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByText("Template title is required")).toBeVisible();
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByLabel("Tags").fill("uspto; filing");
    await page.getByRole("button", { name: "Next" }).click();

    await expect(stepHeading(page, 2, "Creation event")).toBeVisible();
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByText("Creation event is required")).toBeVisible();
    await page.getByLabel("Event source").selectOption("portfolio");
    await page.getByRole("button", { name: "Next" }).click();
    // The source's first event is chosen, and the step shown again to check it.
    await expect(page.getByLabel("Event", { exact: true })).toHaveValue("portfolio.application.created");
    await page.getByRole("button", { name: 'Add "OR" group' }).click();
    await page.getByLabel("Field").selectOption("{{broadScore}}");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByLabel("Function").locator("option")).toHaveText(["is equal to", "is not equal to", "is one of", "is none of", "is greater than", "is less than", "is empty", "is not empty"]);
    await page.getByLabel("Function").selectOption("greaterThan");
    await page.getByLabel("Value").fill("7");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Next" }).click();

    await expect(stepHeading(page, 3, "Milestone title")).toBeVisible();
    await page.getByRole("textbox", { name: "Milestone title" }).fill("File {{reference}}");
    await page.getByRole("button", { name: "Next" }).click();
    await expect(stepHeading(page, 4, "Dates")).toBeVisible();
    await page.getByRole("group", { name: "Due At" }).getByLabel("Amount").fill("2");
    await page.getByRole("button", { name: "Next" }).click();
    await expect(stepHeading(page, 5, "Assignees")).toBeVisible();
    await page.getByRole("textbox", { name: "Assignees" }).fill("docket@firm.test");
    await page.getByRole("button", { name: "Next" }).click();
    await expect(stepHeading(page, 6, "Notes")).toBeVisible();
    await page.getByLabel("Note 1").fill('Call the client<script>alert(1)</script><img src="x" onerror="alert(1)">');
    await page.getByRole("button", { name: "Add note" }).click();
    await expect(page.getByLabel("Note 2")).toBeVisible();
    // Back two steps and forward again: everything typed is still there.
    await page.getByRole("button", { name: "Back" }).click();
    await expect(page.getByRole("textbox", { name: "Assignees" })).toHaveValue("docket@firm.test");
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByLabel("Note 1")).toHaveValue(/Call the client/);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Create milestone template" }).click();

    await expect(page).toHaveURL(list);
    await expect(page.getByTestId("toast")).toContainText("Create completed");
    await expect(page.getByRole("heading", { name: title })).toBeVisible();
    const [t] = (await templates(request, wf.id, wf.token)).filter((x) => x.title === title);
    expect(t!.events[0]!.predicates).toEqual([[{ field: "{{broadScore}}", function: "greaterThan", arguments: [7] }]]);
    // Stored by the one rich-text rule: the script and the image dropped, what is left a paragraph.
    expect(t!.events[0]!.action).toMatchObject({ title: "File {{reference}}", assignees: ["docket@firm.test"], notes: ["<p>Call the client</p>"] });
  });
});
