import { adminApi, expect, expectAccessible, signIn, test, unique } from "./fixtures";

const js = () => test.info().project.name === "js";

test("the permission toggles go through all their transitions", async ({ page, request }) => {
  const api = await adminApi(request);
  const user = await api.createUser({ email: `${unique("perm")}@e2e.test` });
  await signIn(page);
  await page.goto(`/people/${user.id}`);
  await page.getByRole("link", { name: "Manage permissions" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Permissions" })).toBeVisible();
  await expectAccessible(page);
  const write = page.getByRole("checkbox", { name: "forms: Read and write" });
  const read = page.getByRole("checkbox", { name: "forms: Read", exact: true });
  const save = async () => {
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("toast")).toContainText("Permissions updated");
  };
  const expectState = async (w: boolean, r: boolean) => {
    await expect(write).toBeChecked({ checked: w });
    await expect(read).toBeChecked({ checked: r });
  };

  if (js()) {
    await write.click(); // none → write
    await expectState(true, false);
    await read.click(); // write → read (exclusive)
    await expectState(false, true);
    await read.click(); // read → none
    await expectState(false, false);
    await read.click(); // none → read
    await write.click(); // read → write (exclusive)
    await expectState(true, false);
    await write.click(); // write → none
    await expectState(false, false);
    await write.click();
    await save();
    await expectState(true, false);
  } else {
    await write.check(); // none → write
    await save();
    await expectState(true, false);
    await read.check(); // write, then read ticked too → read (exclusive)
    await save();
    await expectState(false, true);
    await write.check(); // read, then write ticked too → write (exclusive)
    await save();
    await expectState(true, false);
    await write.uncheck(); // write → none
    await save();
    await expectState(false, false);
    await read.check(); // none → read
    await save();
    await expectState(false, true);
    await read.uncheck(); // read → none
    await save();
    await expectState(false, false);
  }
});

test("a user who takes away their own users permission loses People and gets the not-found view", async ({ page, request }) => {
  const api = await adminApi(request);
  const email = `${unique("self")}@e2e.test`;
  const user = await api.createUser({ email, permissions: ["users", "forms.read"] });
  await signIn(page, email, "secret-123");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "People" })).toBeVisible();
  await page.goto(`/people/${user.id}/permissions`);
  await page.getByRole("checkbox", { name: "users: Read and write" }).uncheck();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { name: "Nothing here :(" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "People" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Teams" })).toHaveCount(0);
  await page.goto("/people");
  await expect(page.getByRole("heading", { name: "Nothing here :(" })).toBeVisible();
  await expectAccessible(page);
});

test("change password: minimum length, then the new password signs in", async ({ page, request }) => {
  const api = await adminApi(request);
  const email = `${unique("pw")}@e2e.test`;
  const user = await api.createUser({ email });
  await signIn(page);
  await page.goto(`/people/${user.id}`);
  await page.getByRole("link", { name: "Change password" }).click();
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Email")).not.toBeEditable();
  await expectAccessible(page);
  await page.getByLabel("Password").fill("123");
  await page.getByRole("button", { name: "Update" }).click().catch(() => {});
  await expect(page.getByText("Password must be at least 6 characters long.")).toBeVisible();
  await page.getByLabel("Password").fill("new-secret-9");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByTestId("toast")).toContainText("Password changed");
  await page.getByRole("button", { name: "Log out" }).click();
  await signIn(page, email, "new-secret-9");
});
