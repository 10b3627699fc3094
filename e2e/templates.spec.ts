import fs from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { largeDotx, modelXml, officePackage, pdf } from "../tests/fixtures/office";
import { expect, expectAccessible, signIn, test, unique } from "./fixtures";

const js = () => test.info().project.name === "js";

/** Clicks a download link and answers the downloaded bytes. */
async function download(page: Page, link: Locator) {
  const [file] = await Promise.all([page.waitForEvent("download"), link.click()]);
  return fs.readFileSync((await file.path())!);
}

test("Word template: upload, list with document properties, download the same bytes, edit with and without a new file, delete", async ({ page }) => {
  const name = unique("Letter");
  const dotx = await officePackage("dotx", { core: { title: "Office letter", author: "Ann Lee" } });
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Word templates" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Word templates" })).toBeVisible();
  await page.getByRole("link", { name: "+ new" }).click();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Template is required")).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel("Template file").setInputFiles({ name: `${name}.dotx`, mimeType: "application/octet-stream", buffer: dotx });
  if (js()) {
    await expect(page.getByText(`Chosen: ${name}.dotx (`)).toBeVisible();
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);
  }
  await page.getByLabel("Description").fill("  Standard letter  ");
  await page.getByLabel("Style master").check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Create completed");

  await page.goto(`/documents/word?q=${encodeURIComponent(name)}`);
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("Title: Office letter · Author: Ann Lee");
  await expect(row).toContainText("Standard letter");
  await expectAccessible(page);
  expect((await download(page, row.getByRole("link", { name: `Download ${name}.dotx` }))).equals(dotx)).toBe(true);

  // Edit without replacing the file.
  await row.getByRole("link", { name: `Edit ${name}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit Word template" })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Description").fill("Changed");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Update completed");
  await page.goto(`/documents/word?q=${encodeURIComponent(name)}`);
  expect((await download(page, page.getByRole("link", { name: `Download ${name}.dotx` }))).equals(dotx)).toBe(true);

  // Edit replacing it: the name follows the new file.
  const next = await officePackage("dotx");
  await page.getByRole("link", { name: `Edit ${name}` }).click();
  await page.getByLabel("Template file").setInputFiles({ name: `${name} v2.dotx`, mimeType: "application/octet-stream", buffer: next });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Update completed");
  await page.goto(`/documents/word?q=${encodeURIComponent(`${name} v2`)}`);
  expect((await download(page, page.getByRole("link", { name: `Download ${name} v2.dotx` }))).equals(next)).toBe(true);

  await page.getByRole("link", { name: `Edit ${name} v2` }).click();
  await page.getByRole("button", { name: "Delete" }).click();
  const confirm = js() ? page.getByRole("dialog") : page.getByRole("alertdialog");
  await expect(confirm).toContainText("This action can't be undone.");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("toast")).toContainText("Delete completed");
  await expect(page).toHaveURL(/\/documents\/word$/);
  await page.goto(`/documents/word?q=${encodeURIComponent(name)}`);
  await expect(page.getByText(`No Word templates match “${name}”.`)).toBeVisible();
});

test("Form: PDF type needs a model file; both download as uploaded; shapes come from a Visio template", async ({ page }) => {
  const name = unique("IDS");
  const formPdf = pdf(name);
  const model = modelXml("xfa");
  await signIn(page);
  await page.goto("/forms/create");
  await expect(page.getByRole("heading", { level: 1, name: "New Form" })).toBeVisible();
  await page.getByLabel("Type").selectOption("xfa");
  await page.getByLabel("Filename Template").fill("{{matter}}.pdf");
  await page.getByLabel("Form file").setInputFiles({ name: `${name}.pdf`, mimeType: "application/pdf", buffer: formPdf });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Model file is required")).toBeVisible();
  await expectAccessible(page);
  if (!js()) await page.getByLabel("Form file").setInputFiles({ name: `${name}.pdf`, mimeType: "application/pdf", buffer: formPdf });
  await page.getByLabel("Model file").setInputFiles({ name: "ids.xfa", mimeType: "application/xml", buffer: model });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Create completed");
  await page.goto(`/forms?q=${encodeURIComponent(name)}`);
  await expectAccessible(page);
  expect((await download(page, page.getByRole("link", { name: `Download form file ${name}.pdf` }))).equals(formPdf)).toBe(true);
  expect((await download(page, page.getByRole("link", { name: "Download model file ids.xfa" }))).equals(model)).toBe(true);

  const flow = unique("Flow");
  const vstx = await officePackage("vstx", { masters: [{ id: 1, name: `Box ${flow}` }, { id: 2, name: `Ring ${flow}`, geometry: "ellipse" }] });
  await page.goto("/documents/visio/create");
  await page.getByLabel("Template file").setInputFiles({ name: `${flow}.vstx`, mimeType: "application/octet-stream", buffer: vstx });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Create completed");
  await page.goto(`/shapes?q=${encodeURIComponent(flow)}`);
  const thumb = page.getByRole("img", { name: `Thumbnail of Ring ${flow}` });
  await expect(thumb).toBeVisible();
  expect(await thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expectAccessible(page);
});

// Its time is measured by bench/templates.ts, not here.
test("a large template shows upload progress with JavaScript and arrives whole", async ({ page }) => {
  const name = unique("Big");
  const big = await largeDotx(19 * 1024 * 1024);
  await signIn(page);
  await page.goto("/documents/word/create");
  await page.getByLabel("Template file").setInputFiles({ name: `${name}.dotx`, mimeType: "application/octet-stream", buffer: big });
  await page.getByRole("button", { name: "Save" }).click();
  if (js()) await expect(page.getByRole("status").filter({ hasText: "Uploading…" })).toBeVisible();
  await expect(page.getByTestId("toast")).toContainText("Create completed", { timeout: 30_000 });
  await page.goto(`/documents/word?q=${encodeURIComponent(name)}`);
  expect((await download(page, page.getByRole("link", { name: `Download ${name}.dotx` }))).equals(big)).toBe(true);
});
