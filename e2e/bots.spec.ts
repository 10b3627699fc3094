import { expect, expectAccessible, signIn, slowScripts, test, unique } from "./fixtures";

const js = () => test.info().project.name === "js";

test("a bot created with an uploaded script and version", async ({ page }) => {
  const local = unique("bot");
  await signIn(page);

  // A first bot: its edit screen uploads the script's first version.
  await page.goto("/people/new");
  await page.getByLabel("First name").fill("Script");
  await page.getByLabel("Last name").fill("Owner");
  await page.getByLabel("Email").fill(`${local}@one.e2e.test`);
  await page.getByLabel("Password").fill("secret-123");
  await page.getByLabel("Is Bot").check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/people$/);
  await page.goto(`/people?q=${encodeURIComponent(`${local}@one.e2e.test`)}`);
  await expect(page.getByRole("img", { name: "This is a bot user" })).toBeVisible();
  await page.getByRole("link", { name: `${local}@one.e2e.test`, exact: true }).click();
  await expect(page.getByRole("heading", { name: "Upload a new script version" })).toBeVisible();
  await expect(page.getByLabel("Script name")).toHaveValue(local);
  await page.getByLabel("Script file").setInputFiles({ name: "main.js", mimeType: "text/javascript", buffer: Buffer.from("export default 1;") });
  await page.getByLabel("Message").fill("first version");
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByTestId("toast")).toContainText("Script uploaded");
  await expect(page.getByLabel("Script", { exact: true })).toHaveValue(local);
  await expect(page.getByLabel("Version", { exact: true })).toHaveValue(`${local}/v1/main.js`);
  await expect(page.getByLabel("Version", { exact: true }).locator("option:checked")).toContainText("v1 — first version");
  await expectAccessible(page);

  // A second bot whose email's local part names that script: the candidate, its hint and the first version.
  await page.goto("/people/new");
  await page.getByLabel("First name").fill("Second");
  await page.getByLabel("Last name").fill("Bot");
  await page.getByLabel("Email").fill(`${local.toUpperCase()}@two.e2e.test`);
  await page.getByLabel("Password").fill("secret-123");
  await page.getByLabel("Is Bot").check();
  if (!js()) await page.getByRole("button", { name: "Load scripts and versions" }).click();
  await expect(page.getByText(`We found "${local}" as a script candidate based on the email.`)).toBeVisible();
  await expect(page.getByLabel("Script", { exact: true })).toHaveValue(local);
  await expect(page.getByLabel("Version", { exact: true })).toHaveValue(`${local}/v1/main.js`);
  await expect(page.getByLabel("First name")).toHaveValue("Second");
  await expectAccessible(page);
  // Switching off clears script, version and hint.
  await page.getByLabel("Is Bot").uncheck();
  if (!js()) await page.getByRole("button", { name: "Load scripts and versions" }).click();
  await expect(page.getByLabel("Script", { exact: true })).toHaveCount(0);
  await expect(page.getByText("as a script candidate")).toHaveCount(0);
  if (js()) {
    // With JavaScript the scripts are read from a JSON route: one that fails says so in the form, the page and what
    // was typed stay, and the next switch asks again.
    await page.route("**/people/bot-scripts?*", (route) => route.fulfill({ status: 503, body: "down" }), { times: 1 });
    await page.getByLabel("Is Bot").check();
    await expect(page.getByRole("alert").filter({ hasText: "Scripts and versions could not be loaded. Try again." })).toBeVisible();
    await expect(page.getByLabel("First name")).toHaveValue("Second");
    await page.getByLabel("Is Bot").uncheck();
  }
  await page.getByLabel("Is Bot").check();
  if (!js()) await page.getByRole("button", { name: "Load scripts and versions" }).click();
  await expect(page.getByLabel("Version", { exact: true })).toHaveValue(`${local}/v1/main.js`);
  if (!js()) await page.getByLabel("Password").fill("secret-123");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/people$/);
  await expect(page.getByTestId("toast")).toContainText("User created");

  await page.goto(`/people?q=${encodeURIComponent(`${local}@two.e2e.test`)}`);
  const row = page.getByRole("row").filter({ hasText: `${local}@two.e2e.test` });
  await expect(row.getByRole("img", { name: "This is a bot user" })).toBeVisible();
  await row.getByRole("link", { name: `${local}@two.e2e.test`, exact: true }).click();
  await expect(page.getByLabel("Version", { exact: true })).toHaveValue(`${local}/v1/main.js`);
});

test("Is Bot switched before the page hydrated: the script choice appears once it has", async ({ page }) => {
  test.skip(!js(), "hydration needs JavaScript");
  await signIn(page);
  const scripts = await slowScripts(page);
  await page.goto("/people/new");
  await page.getByLabel("Is Bot").check();
  await scripts.notYet();
  await expect(page.getByLabel("Script", { exact: true })).toHaveCount(0);
  await scripts.hydrated();
  // Adopted as if switched now: the scripts are loaded (or the page says there are none yet).
  await expect(page.getByLabel("Script", { exact: true }).or(page.getByText("No scripts yet. Upload one on the bot's edit screen."))).toBeVisible();
  await expect(page.getByLabel("Is Bot")).toBeChecked();
});
