import { adminApi, expect, expectAccessible, signIn, test, unique } from "./fixtures";

const js = () => test.info().project.name === "js";

test("a save that half succeeds says so: the user is updated, the assistants team is not", async ({ page, request }) => {
  const api = await adminApi(request);
  const local = unique("half");
  const helper = `${unique("helper")}@e2e.test`;
  const user = await api.createUser({ email: `${local}@e2e.test` });
  await api.createUser({ email: helper });
  await signIn(page);
  // A plain team already holds the name the user's assistants team would get ("{local} assistants").
  await page.goto("/teams/new");
  await page.getByLabel("Name").fill(`${local} assistants`);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).not.toHaveURL(/\/teams\/new$/);

  await page.goto(`/people/${user.id}`);
  await page.getByLabel("First name").fill("Renamed");
  const assistants = page.getByRole(js() ? "combobox" : "textbox", { name: "Assistants", exact: true });
  await assistants.fill(helper);
  if (js()) await assistants.press("Enter");
  await page.getByRole("button", { name: "Update" }).click();

  // Not "Update failed": what was saved, and what was not.
  const toast = page.getByRole("status").or(page.getByRole("alert")).filter({ hasText: "The assistants team could not be updated" });
  await expect(toast.first()).toBeVisible();
  await expect(page.getByText("Update failed")).toHaveCount(0);
  await expectAccessible(page);
  await page.reload();
  await expect(page.getByLabel("First name")).toHaveValue("Renamed");
});
