import type { Page } from "@playwright/test";
import { startFakeLlm } from "../upstream/src/llm/fake-server";
import { ADMIN, askConfirmation, expect, expectAccessible, signIn, test, unique } from "./fixtures";

/** A toast's text holding its title, then its description (one assertion: the toast leaves after 5 s). */
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const both = (title: string, description: string) => new RegExp(`${escaped(title)}[\\s\\S]*${escaped(description)}`);

const js = () => test.info().project.name === "js";

/** Types a config into the form's code editor: Monaco with JavaScript, the textarea without. */
async function setConfig(page: Page, text: string) {
  if (js()) {
    await expect(page.getByTestId("monaco-editor")).toBeVisible({ timeout: 15_000 });
    await page.evaluate((value) => {
      const m = (window as unknown as { monaco: { editor: { getModels(): { setValue(v: string): void }[] } } }).monaco;
      m.editor.getModels()[0]!.setValue(value);
    }, text);
  } else {
    await page.getByLabel("Config", { exact: true }).fill(text);
  }
}

/** A fake provider for the test, an organization made through the API, and the config texts pointing at the fake. */
async function setUp(page: Page) {
  const fake = await startFakeLlm();
  const login = await page.request.post("/api/auth/login", { data: ADMIN });
  const { token } = (await login.json()) as { token: string };
  const headers = { Authorization: `Bearer ${token}` };
  const orgName = unique("AI Org");
  const org = (await (await page.request.post("/api/organizations", { headers, data: { name: orgName } })).json()) as { id: string };
  const config = (over: Record<string, unknown> = {}) =>
    JSON.stringify({ baseURL: fake.baseURL, apiKey: fake.apiKey, model: "fake-chat", maxRetries: 0, ...over }, null, 2);
  return { fake, headers, org: { ...org, name: orgName }, config };
}

test("an administrator creates a model on a fake provider, allows it for an organization and tests the connection", async ({ page }) => {
  const { fake, org, config } = await setUp(page);
  try {
    const modelName = unique("Fake chat");
    await signIn(page);
    // The landing, from the side navigation.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Administration", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Administration" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Template backup" }).last()).toBeVisible();
    await expectAccessible(page);

    await page.getByRole("link", { name: "+ add model" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Create model" })).toBeVisible();
    await page.getByLabel("Name", { exact: true }).fill(modelName);
    await page.getByLabel("Capability").selectOption({ label: "Chat" });
    await page.getByRole("group", { name: "Organizations" }).getByLabel(org.name, { exact: true }).check();
    await setConfig(page, config({ apiKey: "sk-wrong" }));
    await page.getByRole("button", { name: "Test connection" }).click();
    await expect(page.getByTestId("connection-test")).toHaveText("The model provider refused the API key (401). Check apiKey in the model's config.");
    await setConfig(page, config());
    await page.getByRole("button", { name: "Test connection" }).click();
    await expect(page.getByTestId("connection-test")).toHaveText(/^The model answered in \d+ ms\.$/);
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue(modelName);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(/\/administration$/);
    await expect(page.getByTestId("toast").first()).toContainText("Model created");
    await expect(page.getByRole("region", { name: "Models" }).getByRole("row", { name: new RegExp(modelName) })).toContainText(org.name);
  } finally {
    await fake.close();
  }
});

test("an administrator creates a speech-to-text service and sets an organization's speech settings; the in-use refusals show", async ({ page }) => {
  const { fake, headers, org, config } = await setUp(page);
  try {
    const serviceName = unique("Whisper");
    const modelName = unique("Post model");
    const created = await page.request.post("/api/v2/nlp/configurations", {
      headers,
      data: { name: modelName, provider: "openai-compatible", capability: "chat", config: config(), organizations: [org.id] },
    });
    expect(created.status()).toBe(201);
    await signIn(page);
    await page.goto("/sttservices");
    await expect(page.getByRole("heading", { level: 1, name: "Create speech-to-text service" })).toBeVisible();
    await page.getByLabel("Name", { exact: true }).fill(serviceName);
    await setConfig(page, config({ model: "whisper-1" }));
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(/\/administration$/);
    await expect(page.getByTestId("toast").first()).toContainText("Speech-to-text service created");

    // The organization's speech settings.
    await page.goto(`/organizations/${org.id}/edit`);
    await page.getByLabel("Enable speech to text").check();
    await page.getByLabel("Speech-to-text service").selectOption({ label: serviceName });
    await page.getByLabel("Speech post-processing model").selectOption({ label: modelName });
    await expect(page.getByRole("group", { name: "Allowed models" }).getByLabel(modelName, { exact: true })).toBeChecked();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Update" }).click();
    await expect(page.getByTestId("toast").first()).toContainText("Organization updated");

    // Taking the organization off the model is refused; it stays ticked.
    await page.goto("/administration");
    await expect(page.getByRole("region", { name: "Organizations", exact: true }).getByRole("row", { name: new RegExp(org.name) })).toContainText("On");
    await page.getByRole("link", { name: modelName }).click();
    const allowed = page.getByRole("group", { name: "Organizations" }).getByLabel(org.name, { exact: true });
    await allowed.uncheck();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("toast").first()).toHaveText(both("Failed to update model", `Cannot delete ${org.name} from this model because it is in use`));
    await expect(allowed).toBeChecked();

    // Deleting the service in use is refused, naming the organization.
    await page.goto("/administration");
    await page.getByRole("link", { name: serviceName }).click();
    const step = await askConfirmation(page, page.getByRole("button", { name: "Delete" }));
    await step.getByRole("button", { name: "Delete" }).click();
    await expect(page.getByTestId("toast").first()).toHaveText(
      both("Failed to delete speech to text service", `Cannot delete ${serviceName} because it is in use. Organizations using it: ${org.name}.`),
    );
  } finally {
    await fake.close();
  }
});

test("without administration the AI pages are the not-found view", async ({ page }) => {
  const email = `${unique("no-admin")}@e2e.test`;
  const login = await page.request.post("/api/auth/login", { data: ADMIN });
  const { token } = (await login.json()) as { token: string };
  const headers = { Authorization: `Bearer ${token}` };
  const user = (await (await page.request.post("/api/auth/users", { headers, data: { email, firstName: "No", lastName: "Admin", password: "secret-123" } })).json()) as { id: string };
  await page.request.patch(`/api/auth/users/${user.id}`, { headers, data: { id: user.id, permissions: ["organizations"] } });
  await signIn(page, email, "secret-123");
  for (const path of ["/administration", "/models", "/sttservices"]) {
    await page.goto(path);
    await expect(page.getByText("Nothing here :(")).toBeVisible();
  }
});
