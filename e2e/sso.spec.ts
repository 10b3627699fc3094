import { adminApi, expect, expectAccessible, test, unique } from "./fixtures";

/** Single sign-on against the test identity providers (e2e/peers) the e2e server is configured with. */

test("shows both single sign-on buttons on an accessible sign-in screen", async ({ page }) => {
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Let me in!" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign in with Microsoft" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign in with OKTA" })).toBeVisible();
  await expectAccessible(page);
});

test("signs in with the corporate OpenID provider and greets the user by name", async ({ page, request }) => {
  const api = await adminApi(request);
  const email = `${unique("oidc")}@e2e.test`;
  await api.createUser({ email, firstName: "Ada", lastName: "Lovelace" });
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign in with Microsoft" }).click();
  await expect(page.getByRole("heading", { name: "Test OpenID provider" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hello, Ada Lovelace");
  await expect(page).toHaveURL(/:\d+\/$/);
  await expectAccessible(page);
});

test("signs in with OKTA (SAML) and greets the user by name", async ({ page, request }) => {
  const api = await adminApi(request);
  const email = `${unique("saml")}@e2e.test`;
  await api.createUser({ email, firstName: "Grace", lastName: "Hopper" });
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign in with OKTA" }).click();
  await expect(page.getByRole("heading", { name: "Test identity provider" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Sign in" }).click();
  // The IdP's page posts the signed response to the back office.
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hello, Grace Hopper");
  await expectAccessible(page);
});

test("an identity without an account is refused with the spec's toast", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign in with Microsoft" }).click();
  await page.getByLabel("Email").fill(`${unique("stranger")}@e2e.test`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/login$/);
  const toast = page.getByTestId("toast");
  await expect(toast).toContainText("Failed to Sign in with Microsoft");
  await expect(toast).toContainText("Please, try again later or contact our development team.");
  await expectAccessible(page);
});

test("SAML goes back where the user was going", async ({ page, request }) => {
  const api = await adminApi(request);
  const email = `${unique("back")}@e2e.test`;
  await api.createUser({ email, firstName: "Alan", lastName: "Turing", permissions: ["users.read"] });
  await page.goto("/people");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fpeople$/);
  await page.getByRole("button", { name: "Sign in with OKTA" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/people$/);
});
