import { ADMIN, adminApi, expect, expectAccessible, signIn, test, unique, askConfirmation } from "./fixtures";

const js = () => test.info().project.name === "js";

test("creates, edits and deletes a user", async ({ page }) => {
  const email = `${unique("walk")}@e2e.test`;
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "People" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "People" })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("link", { name: "+ add new" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New User" })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("First name").fill("  Katherine ");
  await page.getByLabel("Last name").fill("Johnson");
  await page.getByLabel("Email").fill(`  ${email}  `);
  await page.getByLabel("Password").fill("orbit-123");
  await page.getByRole("button", { name: "Save" }).click();

  await expect(page).toHaveURL(/\/people$/);
  await expect(page.getByTestId("toast")).toContainText("User created");
  await page.getByRole("searchbox", { name: "Search people" }).fill(email);
  if (!js()) await page.getByRole("searchbox", { name: "Search people" }).press("Enter");
  await expect(page).toHaveURL(/[?&]q=walk-/);
  const row = page.getByRole("row").filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Katherine Johnson");

  await row.getByRole("link", { name: `Edit ${email}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit User" })).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Email")).not.toBeEditable();
  await expectAccessible(page);
  await page.getByLabel("Last name").fill("Goble Johnson");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page).toHaveURL(/\/people$/);
  await expect(page.getByTestId("toast")).toContainText("User updated");

  await page.goto(`/people?q=${encodeURIComponent(email)}`);
  await expect(page.getByRole("row").filter({ hasText: email })).toContainText("Katherine Goble Johnson");
  await page.getByRole("link", { name: email, exact: true }).click();
  const confirm = await askConfirmation(page, page.getByRole("button", { name: "Delete" }));
  await expect(confirm.getByRole("heading", { name: "Delete user?" })).toBeVisible();
  await expect(confirm).toContainText(`Katherine Goble Johnson (${email}) will be deleted. This action can't be undone.`);
  await expectAccessible(page);
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page).toHaveURL(/\/people$/);
  await expect(page.getByTestId("toast")).toContainText("User deleted");
  await page.goto(`/people?q=${encodeURIComponent(email)}`);
  await expect(page.getByText(`No people match “${email}”.`)).toBeVisible();
});

test("the new-user form shows every validation message and keeps what was typed", async ({ page }) => {
  await signIn(page);
  await page.goto("/people/new");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("First name is required")).toBeVisible();
  await expect(page.getByText("Last name is required")).toBeVisible();
  await expect(page.getByText("Email is required")).toBeVisible();
  await expect(page.getByText("Password is required")).toBeVisible();
  await expect(page).toHaveURL(/\/people\/new$/);
  await expectAccessible(page);

  await page.getByLabel("First name").fill("Dorothy");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill("abc");
  if (js()) {
    await page.getByLabel("Password").press("Tab");
    // Dirty and invalid: Save waits for valid input.
    await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();
  } else {
    await page.getByRole("button", { name: "Save" }).click();
  }
  await expect(page.getByText("Email has invalid format")).toBeVisible();
  await expect(page.getByText("Password must be at least 6 characters long.")).toBeVisible();
  await expect(page.getByText("First name is required")).toHaveCount(0);
  await expect(page.getByText("Last name is required")).toBeVisible();
  await expect(page.getByLabel("First name")).toHaveValue("Dorothy");
  await expect(page.getByLabel("Email")).toHaveValue("not-an-email");
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
});

test("a duplicate email shows the create failure toast and inline text", async ({ page, request }) => {
  const api = await adminApi(request);
  const email = `${unique("dupe")}@e2e.test`;
  await api.createUser({ email });
  await signIn(page);
  await page.goto("/people/new");
  await page.getByLabel("First name").fill("Mary");
  await page.getByLabel("Last name").fill("Jackson");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("secret-123");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Failed to create a new user. Check your input and try again.")).toBeVisible();
  await expect(page.getByTestId("toast")).toContainText("Create failed");
  await expect(page.getByLabel("First name")).toHaveValue("Mary");
  await expect(page.getByLabel("Email")).toHaveValue(email);
});

test("Randomize password fills a random password and keeps the other fields", async ({ page }) => {
  await signIn(page);
  await page.goto("/people/new");
  await page.getByLabel("First name").fill("Annie");
  await page.getByRole("button", { name: "Randomize password" }).click();
  await expect(page.getByLabel("Password")).toHaveValue(/^[0-9a-z]{12}$/);
  await expect(page.getByLabel("First name")).toHaveValue("Annie");
  await expect(page.getByText("Password is required")).toHaveCount(0);
});

test("cannot delete one's own account", async ({ page }) => {
  await signIn(page);
  await page.goto(`/people?q=${encodeURIComponent(ADMIN.email)}`);
  await page.getByRole("link", { name: ADMIN.email, exact: true }).click();
  await expect(page.getByRole("button", { name: "Delete" })).toBeDisabled();
  await expect(page.getByText("You cannot delete your own account.")).toBeVisible();
});

test("searches, sorts (remembered) and paginates on the server", async ({ page, request }) => {
  const api = await adminApi(request);
  const tag = unique("page");
  for (let i = 0; i < 27; i++) {
    await api.createUser({ email: `${tag}-${String(i).padStart(2, "0")}@e2e.test`, firstName: `N${String(i).padStart(2, "0")}`, lastName: tag });
  }
  await signIn(page);
  await page.goto("/people");
  const search = page.getByRole("searchbox", { name: "Search people" });
  await search.fill(tag);
  if (js()) {
    // Debounced: submits by itself.
    await expect(page).toHaveURL(new RegExp(`q=${tag}`));
  } else {
    await search.press("Enter");
  }
  await expect(page.getByText("27 people in total")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Pagination" })).toContainText("Page 1 of 2");
  const emails = page.locator("tbody tr td:first-child");
  await expect(emails.first()).toHaveText(`${tag}-00@e2e.test`);

  await page.getByLabel("Sort").selectOption("newest");
  if (!js()) await page.getByRole("button", { name: "Search" }).click();
  await expect(emails.first()).toHaveText(`${tag}-26@e2e.test`);
  await page.getByRole("link", { name: "Next" }).click();
  await expect(page.getByRole("navigation", { name: "Pagination" })).toContainText("Page 2 of 2");
  await expect(emails).toHaveCount(2);
  await expect(emails.last()).toHaveText(`${tag}-00@e2e.test`);

  // The sort is remembered for this list.
  await page.goto(`/people?q=${tag}`);
  await expect(page.getByLabel("Sort")).toHaveValue("newest");
  await expect(emails.first()).toHaveText(`${tag}-26@e2e.test`);
  await page.getByLabel("Sort").selectOption("oldest");
  if (!js()) await page.getByRole("button", { name: "Search" }).click();
  await expect(emails.first()).toHaveText(`${tag}-00@e2e.test`);
});
