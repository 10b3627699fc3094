import { adminApi, expect, expectAccessible, signIn, test, unique } from "./fixtures";

const js = () => test.info().project.name === "js";

test("assistants are kept in step with the user's assistants team", async ({ page, request }) => {
  const api = await adminApi(request);
  const tag = unique("asst");
  const first = `${tag}-one@e2e.test`;
  const second = `${tag}-two@e2e.test`;
  await api.createUser({ email: first });
  await api.createUser({ email: second });
  const local = unique("boss");
  await signIn(page);
  await page.goto("/people/new");
  await page.getByLabel("First name").fill("Boss");
  await page.getByLabel("Last name").fill("Person");
  await page.getByLabel("Email").fill(`${local}@e2e.test`);
  await page.getByLabel("Password").fill("secret-123");
  const assistants = page.getByRole(js() ? "combobox" : "textbox", { name: "Assistants", exact: true });
  if (js()) {
    await assistants.fill(`${tag}-o`);
    await page.getByRole("option", { name: first }).click();
    await assistants.fill(second);
    await assistants.press("Enter");
    await expect(page.getByRole("button", { name: `Remove ${second}` })).toBeVisible();
  } else {
    await assistants.fill(`${first}; ${second}`);
  }
  await expectAccessible(page);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/people$/);

  await page.goto(`/teams?show=assistants&q=${local}`);
  const row = page.getByRole("row").filter({ hasText: `${local} assistants` });
  await expect(row).toContainText(first);
  await expect(row).toContainText(second);

  await page.goto(`/people?q=${local}`);
  await page.getByRole("link", { name: `${local}@e2e.test`, exact: true }).click();
  if (js()) {
    await page.getByRole("button", { name: `Remove ${first}` }).click();
  } else {
    await expect(assistants).toHaveValue(`${first}; ${second}`);
    await assistants.fill(second);
  }
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page).toHaveURL(/\/people$/);
  await page.goto(`/teams?show=assistants&q=${local}`);
  await expect(row).toContainText(second);
  await expect(row).not.toContainText(first);
});
