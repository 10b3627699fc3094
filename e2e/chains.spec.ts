import { CHAINS } from "~/chains/texts";
import { pdf } from "../tests/fixtures/office";
import { ADMIN, expect, expectAccessible, signIn, test, unique, askConfirmation } from "./fixtures";

const js = () => test.info().project.name === "js";

/** Prompt chains (spec 3 §2.8, §2.9): create → the chain page → edit → the list filtered by tag, then delete. */
test("create a chain, edit its settings, find it by its tag, delete it", async ({ page, request }) => {
  const login = await request.post("/api/auth/login", { data: { email: ADMIN.email, password: ADMIN.password } });
  const { token } = (await login.json()) as { token: string };
  const orgName = unique("Chain org");
  const orgCreated = await request.post("/api/organizations/", { headers: { Authorization: `Bearer ${token}` }, data: { name: orgName } });
  expect(orgCreated.status()).toBe(201);
  // With JavaScript, a vision model of the organization takes a PDF on a message (below).
  const vision = unique("vision");
  if (js()) {
    const organizations = [((await orgCreated.json()) as { id: string }).id];
    const config = JSON.stringify({ baseURL: "http://127.0.0.1:9/v1", apiKey: "k", model: vision });
    const data = { name: vision, provider: "openai-compatible", capability: "chat-with-vision", organizations, config };
    expect((await request.post("/api/v2/nlp/configurations", { headers: { Authorization: `Bearer ${token}` }, data })).status()).toBe(201);
  }
  const name = unique("Chain");
  const tag = unique("tag").toLowerCase();

  await signIn(page);
  await page.goto("/chains");
  await expect(page.getByRole("heading", { level: 1, name: "Prompts" })).toBeVisible();
  await page.getByRole("link", { name: "+ new" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New Prompt" })).toBeVisible();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Name is required").first()).toBeVisible();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Generic").check();
  await page.getByLabel(orgName).check();
  if (js()) {
    await page.getByRole("combobox", { name: "Tags" }).fill(tag);
    await page.getByRole("combobox", { name: "Tags" }).press("Enter");
  } else {
    await page.getByLabel("Tags", { exact: true }).fill(tag);
  }
  await page.getByLabel("Description").fill("Drafts the claims");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/chains\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByTestId("toast")).toContainText("Create completed");
  await expectAccessible(page);
  // The Dialog tab edits the draft: a prompt link added opens with its form.
  await page.getByRole("button", { name: "Prompt", exact: true }).click();
  await expect(page.locator("details[open] summary", { hasText: "PROMPT 1" })).toBeVisible();
  await expect(page.getByLabel("Temperature")).toHaveValue("0.7");
  await expectAccessible(page);
  // Its "Load text from a file" (the converters' widget): read for review, then used in the last user message.
  await page.getByLabel(CHAINS.editor.loadText).setInputFiles({ name: "office-action.txt", mimeType: "text/plain", buffer: Buffer.from("The examiner cites D1.") });
  await page.getByRole("button", { name: "Load text", exact: true }).click();
  await expect(page.getByLabel("Text from office-action.txt")).toHaveValue("The examiner cites D1.");
  await page.getByRole("button", { name: "Use this text" }).click();
  await expect(page.locator("details[open] [name=content]").last()).toHaveValue(/The examiner cites D1\.$/);
  // A content link's files: the link's form posts multipart (with JavaScript too), the file listed once saved.
  await page.getByRole("button", { name: "Content", exact: true }).click();
  const content = page.locator("details[open]", { has: page.locator("summary", { hasText: "CONTENT 1" }) });
  await content.getByLabel(CHAINS.editor.addFiles).setInputFiles({ name: "flow.svg", mimeType: "image/svg+xml", buffer: Buffer.from("<svg/>") });
  await content.getByRole("button", { name: CHAINS.editor.saveLink }).click();
  await expect(page.getByRole("button", { name: CHAINS.editor.removeFile("flow.svg") })).toBeVisible();
  await expectAccessible(page);
  if (js()) {
    // A PDF attached to a vision model's earlier user message becomes one image a page (the converters' pages route).
    await page.locator("summary", { hasText: "PROMPT 1" }).click();
    const prompt = page.locator("details[open]", { has: page.locator("summary", { hasText: "PROMPT 1" }) });
    await prompt.getByLabel("Model", { exact: true }).selectOption({ label: vision });
    await prompt.getByRole("button", { name: CHAINS.editor.addMessage }).click();
    await expect(prompt.getByRole("button", { name: CHAINS.editor.deleteMessage })).toBeVisible();
    await prompt.getByRole("button", { name: CHAINS.editor.addMessage }).click();
    await prompt.getByLabel(CHAINS.editor.attachImage(2)).setInputFiles({ name: "claims.pdf", mimeType: "application/pdf", buffer: pdf() });
    await prompt.getByRole("button", { name: CHAINS.editor.saveLink }).click();
    await expect(page.getByRole("button", { name: CHAINS.editor.removeFile("claims.pdf p. 1") })).toBeVisible();
  }
  if (!js()) {
    // A form variable's default-value selector, set without JavaScript: the invention's title, else a literal.
    await page.getByRole("button", { name: "Form", exact: true }).click();
    const form = page.locator("details[open]", { has: page.locator("summary", { hasText: "FORM 1" }) });
    await form.getByRole("button", { name: CHAINS.editor.addVariable }).click();
    await form.getByLabel(CHAINS.editor.variableDefault(1, "from")).selectOption("invention");
    await form.getByLabel(CHAINS.editor.variableDefault(1, "property")).fill("title");
    await form.getByLabel(CHAINS.editor.variableDefault(1, "value")).fill("Untitled");
    await form.getByRole("button", { name: CHAINS.editor.saveLink }).click();
    await expect(form.getByLabel(CHAINS.editor.variableDefault(1, "from"))).toHaveValue("invention");
    await expect(form.getByLabel(CHAINS.editor.variableDefault(1, "value"))).toHaveValue("Untitled");
  }

  await page.getByRole("link", { name: "Edit", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit Chain" })).toBeVisible();
  await page.getByLabel("Name").fill(`${name} v2`);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `${name} v2` })).toBeVisible();
  await page.getByRole("link", { name: "History" }).click();
  await expect(page.getByRole("cell", { name: "Active" })).toBeVisible();

  await page.goto("/chains");
  await page.getByLabel(tag).check();
  if (!js()) await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`tag=${tag}`));
  const row = page.getByRole("row", { name: new RegExp(`${name} v2`) });
  await expect(row).toContainText(orgName);
  await expect(row).toContainText("Yes");
  await expect(page.getByRole("row")).toHaveCount(2);
  await expectAccessible(page);

  await row.getByRole("link", { name: `Edit ${name} v2` }).click();
  const confirm = await askConfirmation(page, page.getByRole("button", { name: "Delete" }));
  await expect(confirm).toContainText("Delete chain?");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page).toHaveURL(/\/chains$/);
  await expect(page.getByTestId("toast")).toContainText("Content chain deleted");
});
