import { ADMIN, adminApi, expect, expectAccessible, signIn, slowScripts, test, unique, askConfirmation } from "./fixtures";

/** Behaviour every form inherits from the shared widgets: app/ui/fields, confirm, toast; the sign-in page. */

const js = () => test.info().project.name === "js";

test("Save on an invalid specification reveals every message and focuses the first invalid field", async ({ page }) => {
  await signIn(page);
  await page.goto("/specifications/create");
  const name = page.getByLabel("Name");
  await name.fill("abc");
  // A real click: with JavaScript the mousedown blurs Name, which validates it before the click lands.
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Name must be at least 4 characters.")).toBeVisible();
  await expect(page.getByText("Type is required")).toBeVisible();
  await expect(page.getByText("Template content is required")).toBeVisible();
  await expect(name).toBeFocused();
  await expect(name).toHaveValue("abc");
  await expectAccessible(page);

  // Fixed the name: the next click moves focus to the next invalid field, the type.
  await name.fill("abcd");
  // Refusing (aria-disabled) while invalid, but a click still reaches the form: Playwright's actionability check
  // treats aria-disabled as disabled, so the click is forced, as a user's would be.
  await page.getByRole("button", { name: "Save" }).click({ force: true });
  await expect(page.getByText("Name must be at least 4 characters.")).toHaveCount(0);
  await expect(page.getByLabel("Type")).toBeFocused();
  if (js()) await expect(page.getByRole("button", { name: "Save" })).toHaveAttribute("aria-disabled", "true");
  await expect(page.getByRole("button", { name: "Save" })).not.toHaveAttribute("disabled", /.*/);
});

test("Save on /people/new with a bad email and a short password shows both and focuses the email", async ({ page }) => {
  await signIn(page);
  await page.goto("/people/new");
  await page.getByLabel("First name").fill("Dorothy");
  await page.getByLabel("Last name").fill("Vaughan");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill("abc");
  // With JavaScript the email's blur already made Save refuse (aria-disabled, which Playwright's actionability check
  // treats as disabled): a user's click still lands, so the click is forced.
  await page.getByRole("button", { name: "Save" }).click({ force: true });
  await expect(page.getByText("Email has invalid format")).toBeVisible();
  await expect(page.getByText("Password must be at least 6 characters long.")).toBeVisible();
  await expect(page.getByLabel("Email")).toBeFocused();
  await expect(page).toHaveURL(/\/people\/new$/);
});

test("after a server failure (409) Save is usable at once and the toast reads as sentences", async ({ page }) => {
  const name = unique("Dupe team");
  await signIn(page);
  for (const attempt of [1, 2]) {
    await page.goto("/teams/new");
    await page.getByLabel("Name").fill(name);
    await page.getByRole("button", { name: "Save" }).click();
    if (attempt === 1) await expect(page).toHaveURL(/\/teams$/);
  }
  await expect(page.getByText("Team already exists", { exact: true })).toBeVisible();
  const toast = page.getByTestId("toast");
  await expect(toast).toContainText("Team already exists. Please, try again later or contact our development team.");
  await expect(toast).toHaveText(/^[^.]*[.!?…] Team already exists\. Please, /);
  const save = page.getByRole("button", { name: "Save" });
  await expect(save).toBeEnabled();
  await expect(save).not.toHaveAttribute("aria-disabled", "true");
  // The retry goes out (and fails the same way): the button did not wait for an edit.
  await save.click();
  await expect(page.getByText("Team already exists", { exact: true })).toBeVisible();
});

test("a failed sign-in clears the password and focuses it", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Let me in!" }).click();
  await expect(page.getByText("Authentication failed. Check your email/password and try again.")).toBeVisible();
  await expect(page.getByLabel("Password")).toHaveValue("");
  await expect(page.getByLabel("Password")).toBeFocused();
  await expect(page.getByLabel("Email")).toHaveValue(ADMIN.email);
});

test("a confirmation focuses Cancel, not the destructive button", async ({ page, request }) => {
  const api = await adminApi(request);
  const email = `${unique("confirm")}@e2e.test`;
  const user = await api.createUser({ email });
  await signIn(page);
  await page.goto(`/people/${user.id}`);
  const confirm = await askConfirmation(page, page.getByRole("button", { name: "Delete" }));
  await expect(confirm.getByRole("heading", { name: "Delete user?" })).toBeVisible();
  await expect(confirm.getByRole(js() ? "button" : "link", { name: "Cancel" })).toBeFocused();
  // Enter right away is the safe choice: nothing is deleted.
  await page.keyboard.press("Enter");
  // The step closes (without JavaScript Cancel is a link back to the page: wait for it to land before moving on).
  await expect(confirm).toHaveCount(0);
  if (!js()) await page.waitForLoadState("load");
  await page.goto(`/people?q=${encodeURIComponent(email)}`);
  await expect(page.getByRole("row").filter({ hasText: email })).toHaveCount(1);
});

test("a confirmation asked for before the page hydrated stays when it has", async ({ page, request }) => {
  test.skip(!js(), "hydration is JavaScript's");
  const api = await adminApi(request);
  const email = `${unique("early-confirm")}@e2e.test`;
  const user = await api.createUser({ email });
  await signIn(page);
  const scripts = await slowScripts(page);
  await page.goto(`/people/${user.id}`);
  await scripts.notYet();
  // Before the scripts run, Delete posts the form: the server answers with the inline step.
  await page.getByRole("button", { name: "Delete" }).click();
  const step = page.getByRole("alertdialog");
  await expect(step.getByRole("heading", { name: "Delete user?" })).toBeVisible();
  await scripts.notYet();
  await scripts.hydrated();
  await expect(page.locator("dialog.confirm-dialog")).toHaveCount(0);
  // Hydrated: the step is still there, focus still on Cancel, and Enter is still the safe choice.
  await expect(step.getByRole("heading", { name: "Delete user?" })).toBeVisible();
  await expect(step.getByRole("link", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(step).toHaveCount(0);
  // Back on the page, Delete now opens the dialog.
  await expect(page.locator("dialog.confirm-dialog")).toBeAttached();
  await page.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("dialog").getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await page.goto(`/people?q=${encodeURIComponent(email)}`);
  await expect(page.getByRole("row").filter({ hasText: email })).toHaveCount(1);
});

test("a toast without JavaScript is a banner in the page flow that can be dismissed", async ({ page }) => {
  const name = unique("Toast org");
  await signIn(page);
  await page.goto("/organizations/new");
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/organizations$/);
  const toast = page.getByTestId("toast");
  await expect(toast).toContainText("Organization created");
  if (!js()) {
    // In the flow above the heading and the "+ add new" link: it covers nothing.
    const box = (await toast.boundingBox())!;
    const heading = (await page.getByRole("heading", { level: 1, name: "Organizations" }).boundingBox())!;
    const add = (await page.getByRole("link", { name: "+ add new" }).boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(heading.y);
    expect(box.y + box.height).toBeLessThanOrEqual(add.y);
    await expectAccessible(page);
  }
  await toast.getByTitle("Dismiss").click();
  await expect(toast).toBeHidden();
  await expect(page.getByRole("heading", { level: 1, name: "Organizations" })).toBeVisible();
});

test("a toast whose time ran out while the page was busy stays a while once the page responds", async ({ page }) => {
  test.skip(!js(), "with JavaScript only: without it the banner stays until dismissed");
  const name = unique("Busy org");
  await signIn(page);
  await page.goto("/organizations/new");
  await page.getByLabel("Name").fill(name);
  // As a heavy script loading would: the main thread held for 4 s a moment after the toast appears, past its 3 s.
  await page.evaluate(() => {
    const w = window as unknown as { busyEnded?: number };
    const observer = new MutationObserver(() => {
      if (!document.querySelector('[data-testid="toast"]')) return;
      observer.disconnect();
      window.setTimeout(() => {
        const end = performance.now() + 4000;
        while (performance.now() < end);
        w.busyEnded = performance.now();
      }, 100);
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
  await page.getByRole("button", { name: "Save" }).click();
  const toast = page.getByTestId("toast");
  await expect(toast).toContainText("Organization created");
  await page.waitForFunction(() => (window as unknown as { busyEnded?: number }).busyEnded !== undefined, undefined, { timeout: 10_000 });
  // Its 3 s ran out during the busy spell: it is still there once the page responds (it used to be gone at once)…
  await page.waitForTimeout(400);
  await expect(toast).toBeVisible({ timeout: 50 });
  await expect(toast).toContainText("Organization created");
  // …and leaves by itself soon after.
  await expect(toast).toBeHidden({ timeout: 3_000 });
});
