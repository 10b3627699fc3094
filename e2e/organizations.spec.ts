import { expect, expectAccessible, signIn, test, unique, askConfirmation } from "./fixtures";

test("creates an organization, picks it for a user, renames it and deletes it", async ({ page }) => {
  const name = unique("Org");
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Organizations" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Organizations" })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("link", { name: "+ add new" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New Organization" })).toBeVisible();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Name is required")).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Name").fill(`  ${name}  `);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Organization created");

  // The new organization is offered on the new-user form (trimmed).
  await page.goto("/people/new");
  await expect(page.getByRole("group", { name: "Organizations" }).getByLabel(name, { exact: true })).toBeVisible();

  await page.goto(`/organizations?q=${encodeURIComponent(name)}`);
  await page.getByRole("link", { name: `Edit ${name}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit Organization" })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Name").fill(`${name} renamed`);
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByTestId("toast")).toContainText("Organization updated");

  await page.goto(`/organizations?q=${encodeURIComponent(`${name} renamed`)}`);
  await page.getByRole("link", { name: `Edit ${name} renamed` }).click();
  const confirm = await askConfirmation(page, page.getByRole("button", { name: "Delete" }));
  await expect(confirm.getByRole("heading", { name: "Delete organization?" })).toBeVisible();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("toast")).toContainText("Organization deleted");
  await page.goto(`/organizations?q=${encodeURIComponent(name)}`);
  await expect(page.getByText(`No organizations match “${name}”.`)).toBeVisible();
});
