import { adminApi, expect, expectAccessible, signIn, test, unique } from "./fixtures";

const js = () => test.info().project.name === "js";

test("user settings: a duplicate key blocks saving, a secure value is masked, a saved row is removed", async ({ page, request }) => {
  const api = await adminApi(request);
  const user = await api.createUser({ email: `${unique("set")}@e2e.test` });
  await signIn(page);
  await page.goto(`/people/${user.id}`);
  await page.getByRole("link", { name: "Manage user settings" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "User Settings" })).toBeVisible();
  await expect(page.getByText("No settings yet.")).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("button", { name: "Add row" }).click();
  await page.getByLabel("Key", { exact: true }).nth(0).fill("api key!");
  if (js()) await expect(page.getByLabel("Key", { exact: true }).nth(0)).toHaveValue("apikey");
  await page.getByLabel("Value", { exact: true }).nth(0).fill("top-secret");
  await page.getByLabel("Secure").nth(0).check();
  if (js()) await expect(page.getByLabel("Value", { exact: true }).nth(0)).toHaveAttribute("type", "password");
  await page.getByRole("button", { name: "Add row" }).click();
  await expect(page.getByLabel("Key", { exact: true }).nth(0)).toHaveValue(/^api ?key!?$/);
  await page.getByLabel("Key", { exact: true }).nth(1).fill("apikey");
  await page.getByLabel("Value", { exact: true }).nth(1).fill("other");
  if (js()) {
    await expect(page.getByText('Key "apikey" already exists.')).toBeVisible();
    await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();
  } else {
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText('Key "apikey" already exists.')).toBeVisible();
  }
  await expectAccessible(page);
  await page.getByLabel("Key", { exact: true }).nth(1).fill("mode");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Settings updated");

  await expect(page.getByLabel("Key", { exact: true }).nth(0)).toHaveValue("apikey");
  await expect(page.getByLabel("Key", { exact: true }).nth(0)).toHaveAttribute("readonly", "");
  await expect(page.getByLabel("Value", { exact: true }).nth(0)).toHaveAttribute("type", "password");
  await expect(page.getByLabel("Value", { exact: true }).nth(0)).not.toHaveValue("top-secret");
  expect(await page.content()).not.toContain("top-secret");

  await page.getByRole("button", { name: "Remove mode" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Setting deleted" })).toBeVisible();
  await expect(page.getByLabel("Key", { exact: true })).toHaveCount(1);
  await page.goto(page.url()); // a fresh GET (a reload would post the removal again)
  await expect(page.getByLabel("Key", { exact: true })).toHaveCount(1);
});
