import { ADMIN, expect, expectAccessible, signIn, test, unique, askConfirmation } from "./fixtures";

const js = () => test.info().project.name === "js";

test("creates a team, adds a member (duplicate and malformed refused), removes it, deletes the team", async ({ page }) => {
  const name = unique("Team");
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Teams" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Teams" })).toBeVisible();
  await expect(page.getByRole("radio", { name: "Teams" })).toBeChecked();
  await expectAccessible(page);

  await page.getByRole("link", { name: "+ add new" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New Team" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Name is required")).toBeVisible();
  await page.getByLabel("Name").fill(`  ${name}  `);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/teams$/);
  await expect(page.getByTestId("toast")).toContainText("Team created");

  await page.goto(`/teams/new`);
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Team already exists", { exact: true })).toBeVisible();

  await page.goto(`/teams?q=${encodeURIComponent(name)}`);
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit Team" })).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue(name);
  await expect(page.getByLabel("Assistants team")).toHaveValue("No");
  await expect(page.getByText("No members yet")).toBeVisible();
  await expectAccessible(page);

  const email = page.getByLabel("Email");
  const add = page.getByRole("button", { name: "Add", exact: true });
  await add.click();
  await expect(page.getByText("Email is required")).toBeVisible();
  await email.fill("not-an-email");
  await add.click();
  await expect(page.getByText("Email is not well-formed")).toBeVisible();
  await email.fill("member@e2e.test");
  await add.click();
  await expect(page.getByTestId("toast")).toContainText("Member Added");
  await expect(page.getByRole("listitem").filter({ hasText: "member@e2e.test" })).toBeVisible();
  await page.getByLabel("Email").fill("member@e2e.test");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByText("Email should be unique")).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("button", { name: "Remove member@e2e.test" }).click();
  await expect(page.getByTestId("toast")).toContainText("Member Removed");
  await expect(page.getByText("No members yet")).toBeVisible();

  const confirm = await askConfirmation(page, page.getByRole("button", { name: "Delete" }));
  await expect(confirm.getByRole("heading", { name: "Delete team?" })).toBeVisible();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page).toHaveURL(/\/teams$/);
  await expect(page.getByTestId("toast")).toContainText("Team deleted");
});

test("the all / assistants / teams filter: one choice from the URL, kept when the search is cleared", async ({ page, request }) => {
  const login = await request.post("/api/auth/login", { data: { email: ADMIN.email, password: ADMIN.password } });
  const { token } = (await login.json()) as { token: string };
  const headers = { Authorization: `Bearer ${token}` };
  const tag = unique("Filter");
  for (const data of [{ name: `${tag} regular` }, { name: `${tag} assistants`, assistantsTeam: true }]) {
    expect((await request.post("/api/auth/teams/", { headers, data })).status()).toBe(201);
  }
  const rows = page.getByRole("row");
  await signIn(page);
  await page.goto(`/teams?q=${encodeURIComponent(tag)}`);
  await expect(rows.filter({ hasText: `${tag} regular` })).toHaveCount(1);
  await expect(rows.filter({ hasText: `${tag} assistants` })).toHaveCount(0);

  await page.getByRole("radio", { name: "Assistants" }).check();
  if (!js()) await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/show=assistants/);
  await expect(rows.filter({ hasText: `${tag} assistants` })).toHaveCount(1);
  await expect(rows.filter({ hasText: `${tag} regular` })).toHaveCount(0);

  await page.getByRole("radio", { name: "All" }).check();
  if (!js()) await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/show=all/);
  await expect(rows.filter({ hasText: tag })).toHaveCount(2);
  await expectAccessible(page);

  // A search matching nothing: clearing it keeps the filter.
  await page.goto(`/teams?q=${encodeURIComponent(`${tag} none`)}&show=all`);
  await expect(page.getByText(`No teams match “${tag} none”.`)).toBeVisible();
  await page.getByRole("link", { name: "Clear the search" }).click();
  await expect(page).toHaveURL(/\/teams\?show=all$/);
  await expect(page.getByRole("radio", { name: "All" })).toBeChecked();
});
