import { ADMIN, adminApi, expect, expectAccessible, signIn, slowScripts, test, unique } from "./fixtures";

test("signs in with the right password and greets by name", async ({ page }) => {
  await page.goto("/people");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fpeople$/);
  await expect(page.getByRole("heading", { name: "Hey! Do we know you?" })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Let me in!" }).click();
  // Back where the user was going.
  await expect(page).toHaveURL(/\/people$/);
  await page.getByRole("link", { name: "Overview" }).click();
  // The seeded administrator has no name yet: the greeting falls back on the email (spec 1 §1).
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Hello, ${ADMIN.email}`);
  await expectAccessible(page);
});

test("refuses a wrong password with the spec's message and keeps the email", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Let me in!" }).click();
  await expect(page.getByRole("alert")).toHaveText("Authentication failed. Check your email/password and try again.");
  await expect(page.getByLabel("Email")).toHaveValue(ADMIN.email);
  await expect(page).toHaveURL(/\/login/);
  await expectAccessible(page);
});

test("greets another user by first and last name", async ({ page, request }) => {
  const api = await adminApi(request);
  const email = `${unique("named")}@e2e.test`;
  await api.createUser({ email, firstName: "Grace", lastName: "Hopper", password: "secret-123" });
  await signIn(page, email, "secret-123");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hello, Grace Hopper");
});

test("logs out with a POST and lands on the sign-in screen", async ({ page }) => {
  await signIn(page);
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page.getByRole("heading", { name: "Hey! Do we know you?" })).toBeVisible();
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
});

test("what was typed (or autofilled) before the page hydrated signs in once it has", async ({ page }) => {
  test.skip(test.info().project.name !== "js", "hydration is JavaScript's");
  const scripts = await slowScripts(page);
  await page.goto("/login");
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await scripts.notYet();
  await scripts.hydrated();
  // Hydrated: the inputs kept the text and the button, which waits for both, is enabled.
  await expect(page.getByLabel("Email")).toHaveValue(ADMIN.email);
  await expect(page.getByRole("button", { name: "Let me in!" })).toBeEnabled();
  await page.getByRole("button", { name: "Let me in!" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /^Hello, / })).toBeVisible();
});
