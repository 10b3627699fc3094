import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, expectAccessible, signIn, test, unique, askConfirmation } from "./fixtures";

const js = () => test.info().project.name === "js";

test("new application, search, tag facet, add and remove a tag, edit fields, CSV export", async ({ page }) => {
  const word = unique("zeb").replace(/-/g, "");
  const id = `E2E-${word}`;
  const tag = `t${word}`.slice(0, 30);
  const application = JSON.stringify({ id, title: `Folding ${word} hinge`, abstract: `A hinge for ${word} phones.`, tags: [{ name: tag, score: 1 }] });
  await signIn(page);
  await page.goto("/portfolio/add");
  await expect(page.getByRole("heading", { level: 1, name: "New Application" })).toBeVisible();
  if (js()) {
    await expect(page.getByTestId("monaco-editor")).toBeVisible({ timeout: 15_000 });
    await page.evaluate((text) => {
      const m = (window as unknown as { monaco: { editor: { getModels(): { setValue(v: string): void }[] } } }).monaco;
      m.editor.getModels()[0]!.setValue(text);
    }, "{ not json");
  } else {
    await expect(page.getByLabel("Application (JSON)")).toHaveValue(/"id": "US20240123456A1"/);
    await page.getByLabel("Application (JSON)").fill("{ not json");
  }
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Failed to save application. Check your input and try again.").first()).toBeVisible();
  await expectAccessible(page);
  if (js()) {
    await page.evaluate((text) => {
      const m = (window as unknown as { monaco: { editor: { getModels(): { setValue(v: string): void }[] } } }).monaco;
      m.editor.getModels()[0]!.setValue(text);
    }, application);
  } else {
    await page.getByLabel("Application (JSON)").fill(application);
  }
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/portfolio$/);
  await expect(page.getByTestId("toast")).toContainText("Create completed");

  // Search: the query box, the match marked in the title.
  await page.getByLabel("Search the portfolio").fill(word);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page).toHaveURL(new RegExp(`qs=${word}`));
  const result = page.locator(`#result-${id}`);
  await expect(result.locator("mark").first()).toHaveText(word);
  await expect(page.getByText("1 application", { exact: true })).toBeVisible();
  await expectAccessible(page);

  // The tag facet.
  const box = page.getByRole("checkbox", { name: new RegExp(`^${tag}`) });
  if (js()) {
    // Ticking submits; the box shows the tick at once, not only once the router has started the search.
    expect(await box.evaluate((el: HTMLInputElement) => (el.click(), el.checked))).toBe(true);
  } else {
    await box.check();
    await page.getByRole("button", { name: "Submit" }).click();
  }
  await expect(page).toHaveURL(new RegExp(`tags=${tag}`));
  await expect(result).toBeVisible();
  await expect(box).toBeChecked();
  // A new answer resets the boxes: 'Clear tag filters', then back.
  await page.getByRole("link", { name: "Clear tag filters" }).click();
  await expect(page).not.toHaveURL(/tags=/);
  await expect(box).not.toBeChecked();
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`tags=${tag}`));
  await expect(box).toBeChecked();

  // Add tag: the §5 rules, then success.
  await result.getByRole("link", { name: "Add tag" }).click();
  const addForm = js() ? page.getByRole("dialog") : result.locator(".action-panel");
  await addForm.getByLabel("Tag", { exact: true }).fill("a,b");
  await addForm.getByRole("button", { name: "Add tag" }).click();
  await expect(addForm.getByText("A tag cannot contain a comma or a semicolon")).toBeVisible();
  await expectAccessible(page);
  await addForm.getByLabel("Tag", { exact: true }).fill("second");
  await addForm.getByLabel("Score").fill("0.5");
  await addForm.getByRole("button", { name: "Add tag" }).click();
  await expect(page.getByTestId("toast")).toContainText("Add Tag completed");
  await expect(result.getByText("second")).toBeVisible();

  // Remove it, with confirmation.
  const confirm = await askConfirmation(page, result.getByRole("button", { name: "Remove tag second" }));
  await expect(confirm).toContainText("The tag second will be removed from");
  await confirm.getByRole("button", { name: "Remove" }).click();
  await expect(page.getByTestId("toast")).toContainText("Remove Tag completed");
  await expect(result.getByRole("button", { name: "Remove tag second" })).toHaveCount(0);

  // Edit fields: a score and a product.
  await result.getByRole("link", { name: "Edit fields" }).click();
  const editForm = js() ? page.getByRole("dialog") : result.locator(".action-panel");
  await editForm.getByLabel("Broad score").fill("0.75");
  await editForm.getByRole("button", { name: "Add product" }).click();
  await editForm.getByRole("group", { name: "Product 1" }).getByLabel("Name").fill("Hinge Pro");
  await editForm.getByRole("group", { name: "Product 1" }).getByLabel("Competitor").check();
  await expectAccessible(page);
  await editForm.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Edit fields completed");
  await expect(result.getByText("0.75")).toBeVisible();
  await expect(result.getByText("Products (1)")).toBeVisible();

  // CSV export of the search.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "download csv" }).click()]);
  const file = await download.path();
  const { readFileSync } = await import("node:fs");
  const text = readFileSync(file!, "utf8");
  expect(text.split("\n")[0]).toMatch(/^id,/);
  expect(text).toContain(id);
});

test("CSV import: progress, completion toast and the rejected rows", async ({ page }) => {
  const id = unique("CSV");
  const file = path.join(tmpdir(), `${unique("import")}.csv`);
  writeFileSync(file, `id,title,tags\n${id},Imported from CSV,csv:1\n,A row without id,\n`);
  await signIn(page);
  await page.goto("/portfolio");
  await page.getByRole("link", { name: "Upload CSV" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Upload CSV" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "detectableScore" })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("CSV file").setInputFiles(file);
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page).toHaveURL(/\/portfolio\/import\?job=/);
  await expect(page.getByTestId("toast")).toContainText("Import completed (1 applications were updated)", { timeout: 15_000 });
  await expect(page.getByRole("cell", { name: "3", exact: true })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "Back to the portfolio" }).last().click();
  await page.getByLabel("Search the portfolio").fill("Imported from CSV");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.locator(`#result-${id}`)).toBeVisible();
});
