import fs from "node:fs";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { UPLOADS_BUSY } from "../server/guard";
import { largeDotx, modelXml, officePackage, pdf } from "../tests/fixtures/office";
import { expect, expectAccessible, signIn, test, unique, askConfirmation } from "./fixtures";

const js = () => test.info().project.name === "js";

/** Delete on an edit screen, then the confirmation (a dialog with JavaScript, inline without) with the spec's text. */
async function deleteConfirmed(page: Page) {
  const confirm = await askConfirmation(page, page.getByRole("button", { name: "Delete" }));
  await expect(confirm).toContainText("This action can't be undone.");
  await confirm.getByRole("button", { name: "Delete" }).click();
}

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
  await deleteConfirmed(page);
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

  // Edit without new files (same type: both kept), then delete: 'Form deleted', back to /forms.
  await page.getByRole("link", { name: `Edit ${name}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit Form" })).toBeVisible();
  await page.getByLabel("Description").fill("Information disclosure statement");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Update completed");
  await expect(page).toHaveURL(/\/forms$/);
  await page.goto(`/forms?q=${encodeURIComponent(name)}`);
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Information disclosure statement");
  expect((await download(page, page.getByRole("link", { name: `Download form file ${name}.pdf` }))).equals(formPdf)).toBe(true);
  await page.getByRole("link", { name: `Edit ${name}` }).click();
  await deleteConfirmed(page);
  await expect(page.getByTestId("toast")).toContainText("Form deleted");
  await expect(page).toHaveURL(/\/forms$/);

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
  // A shape is renamed on its edit screen.
  await page.getByRole("link", { name: `Edit Ring ${flow}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit Shape" })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Name", { exact: true }).fill(`Circle ${flow}`);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Update completed");
  await page.goto(`/shapes?q=${encodeURIComponent(flow)}`);
  await expect(page.getByRole("img", { name: `Thumbnail of Circle ${flow}` })).toBeVisible();
});

test("Drawing: .vsdx with a text template, download the same bytes, edit keeping the file, delete after confirmation", async ({ page }) => {
  const name = unique("Fig");
  const vsdx = await officePackage("vsdx", { core: { title: "Figure 1" } });
  await signIn(page);
  await page.goto("/drawings");
  await page.getByRole("link", { name: "+ new" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New drawing" })).toBeVisible();
  await page.getByLabel("Template file").setInputFiles({ name: `${name}.vsdx`, mimeType: "application/octet-stream", buffer: vsdx });
  if (js()) {
    // The code editor (Monaco) replaces the textarea once loaded; type into it.
    await expect(page.getByTestId("monaco-editor")).toBeVisible({ timeout: 15_000 });
    await page.getByTestId("monaco-editor").click();
    // One input event (typing key by key races Monaco's suggestions).
    await page.keyboard.insertText("Figure 1 shows the widget");
  } else {
    await page.getByLabel("Text template").fill("Figure 1 shows the widget");
  }
  await expect(page.getByText(/Handlebars helpers \(\d+\)/)).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Create completed");
  await page.goto(`/drawings?q=${encodeURIComponent(name)}`);
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("Title: Figure 1");
  expect((await download(page, row.getByRole("link", { name: `Download ${name}.vsdx` }))).equals(vsdx)).toBe(true);

  await row.getByRole("link", { name: `Edit ${name}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit drawing" })).toBeVisible();
  expect(await (await page.request.get(page.url())).text()).toContain("Figure 1 shows the widget");
  await page.getByLabel("Description").fill("Widget, side view");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Update completed");
  await page.goto(`/drawings?q=${encodeURIComponent(name)}`);
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Widget, side view");
  expect((await download(page, page.getByRole("link", { name: `Download ${name}.vsdx` }))).equals(vsdx)).toBe(true);

  await page.getByRole("link", { name: `Edit ${name}` }).click();
  await deleteConfirmed(page);
  await expect(page.getByTestId("toast")).toContainText("Delete completed");
  await page.goto(`/drawings?q=${encodeURIComponent(name)}`);
  await expect(page.getByText(`No drawings match “${name}”.`)).toBeVisible();
});

// Importing replaces every template, and the js and no-js projects run side by side: the successful import is tested
// in isolation (tests/app/templates-forms.test.ts, tests/upstream/templates-backup.test.ts); here the screen's flow.
test("Template backup: the export is a backup archive; an import needs the confirmation and refuses a bad file", async ({ page }) => {
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Template backup" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Template backup" })).toBeVisible();
  await expectAccessible(page);
  const archive = await download(page, page.getByRole("link", { name: "Download the backup (.zip)" }));
  expect(archive.subarray(0, 2).toString()).toBe("PK");
  expect(archive.includes(Buffer.from("manifest.json"))).toBe(true);

  // From a file: the archive holds every template the suite has uploaded (two of 19 MB), and Playwright refuses a
  // buffer over 50 MB.
  const file = path.join(test.info().outputDir, "backup.zip");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, archive);
  await page.getByLabel("Backup file").setInputFiles(file);
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByText("Confirm that the import replaces every template.")).toBeVisible();
  await page.getByLabel("Backup file").setInputFiles({ name: "notes.zip", mimeType: "application/zip", buffer: Buffer.from("not a zip") });
  await page.getByLabel("Replace every template, shape and form with the archive's").check();
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByText("The file is not a template-storage backup.").first()).toBeVisible();
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

test("an upload the server refuses before reading it says why in the toast", async ({ page }) => {
  test.skip(!js(), "the upload progress path is JavaScript's; without it the refusal is the server's own page");
  await signIn(page);
  await page.goto("/documents/word/create");
  // The answer the guard gives a data request when the uploads' room stays full (server/guard.ts): plain text.
  await page.route(/\/documents\/word\/create\?.*_data=/, (route) =>
    route.request().method() === "POST"
      ? route.fulfill({ status: 503, contentType: "text/plain; charset=utf-8", headers: { "Retry-After": "60" }, body: `Server busy: ${UPLOADS_BUSY}` })
      : route.continue(),
  );
  await page.getByLabel("Template file").setInputFiles({ name: `${unique("Busy")}.dotx`, mimeType: "application/octet-stream", buffer: await largeDotx(600 * 1024) });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Upload failed");
  await expect(page.getByTestId("toast")).toContainText(`Server busy: ${UPLOADS_BUSY}`);
  // Nothing typed is lost: the chosen file is still there to send again.
  expect(await page.getByLabel("Template file").evaluate((el: HTMLInputElement) => el.files?.length)).toBe(1);
});
