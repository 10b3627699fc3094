import { CHAIN_VERSIONS as V } from "~/chains/versions/texts";
import { ADMIN, askConfirmation, expect, expectAccessible, signIn, test, unique } from "./fixtures";

const js = () => test.info().project.name === "js";

/**
 * A chain's versions (spec 3 §2.9 toolbar, §4.2, §8), one walk per mode: edit a link (saved into the draft — Ctrl+S
 * with JavaScript, after 'Leave anyway' was asked, over a newer draft saved meanwhile: 'Overwrite draft?'), compare,
 * activate the draft with a comment, export, import into a new chain (the import dialog with JavaScript, the page
 * without), re-activate version 1.
 */
test("edit, compare, activate with a comment, export, import into a new chain, re-activate an older version", async ({ page, request, context }) => {
  const login = await request.post("/api/auth/login", { data: { email: ADMIN.email, password: ADMIN.password } });
  const { token } = (await login.json()) as { token: string };
  const headers = { Authorization: `Bearer ${token}` };
  const api = (data: unknown) => request.post("/api/prompts", { headers, data });
  const link = { id: "t1", type: "template", name: "TEMPLATE 1", template: "Hello", renderOnly: false };
  const source = (await (await api({ name: unique("Versions"), template: { chain: [link] } })).json()) as { id: string };
  const target = (await (await api({ name: unique("Imported") })).json()) as { id: string };

  await signIn(page);
  await page.goto(`/chains/${source.id}`);
  await page.locator("summary", { hasText: "TEMPLATE 1" }).click();
  const name = page.locator("#t1-name");
  await name.fill("GREETING");
  if (js()) {
    // Leaving with the change unsaved asks first; Stay keeps it.
    await page.getByRole("link", { name: V.versions }).click();
    const leave = page.getByRole("dialog", { name: V.leaveTitle });
    await expect(leave.getByRole("button", { name: V.stay })).toBeFocused();
    await expect(leave.getByRole("button", { name: V.leaveAnyway })).toBeVisible();
    await leave.getByRole("button", { name: V.stay }).click();
    await expect(name).toHaveValue("GREETING");
    // Ctrl+S saves the link form in focus, from inside the code editor too (Monaco writes into the form's field); the
    // toolbar says so once the page runs its scripts.
    await expect(page.getByText(V.saveKey)).toBeVisible();
    const editor = page.locator("#link-form-t1").getByTestId("monaco-editor");
    await expect(editor).toBeVisible({ timeout: 15_000 });
    await editor.locator(".view-lines").click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(" world");
    // Someone saves a draft meanwhile: the save asks 'Overwrite draft?' (Cancel focused), Overwrite saves over it.
    const { name: chainName, isPublic, isGeneric, organizations, categories, tags, template } = (await (await request.get(`/api/prompts/${source.id}`, { headers })).json()) as Record<string, unknown>;
    const theirs = { name: chainName, isPublic, isGeneric, organizations, categories, tags, description: "Theirs", template };
    expect((await request.patch(`/api/prompts/${source.id}/draft`, { headers, data: { data: theirs } })).status()).toBe(200);
    await page.keyboard.press("Control+s");
    const overwrite = page.getByRole("dialog", { name: V.overwriteTitle });
    await expect(overwrite.getByRole("link", { name: V.cancel })).toBeFocused();
    await overwrite.getByRole("button", { name: V.overwriteConfirm }).click();
    await expect(page.getByTestId("toast").filter({ hasText: V.draftSaved })).toBeVisible();
  } else {
    await page.locator("#link-form-t1").getByRole("button", { name: "Save link" }).click();
  }
  await expect(page.getByRole("link", { name: V.draft, exact: true })).toBeVisible();

  await page.getByRole("link", { name: V.compare }).click();
  await expect(page.getByText("link TEMPLATE 1 renamed to GREETING")).toBeVisible();
  await expectAccessible(page);
  if (js()) await expect(page.getByText("link GREETING template changed")).toBeVisible();
  await page.getByRole("link", { name: V.quitCompare }).click();

  await page.getByRole("link", { name: V.draft, exact: true }).click();
  await expectAccessible(page);
  const activate = await askConfirmation(page, page.getByRole("button", { name: V.activateDraft }));
  await expect(activate).toContainText(V.activateTitle("draft"));
  await activate.getByLabel(V.comment).fill("Greets by name");
  await activate.getByRole("button", { name: V.activate, exact: true }).click();
  await expect(page.getByTestId("toast").filter({ hasText: V.draftActivated })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/chains/${source.id}$`));

  let exported: string;
  if (js()) {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: V.export }).click();
    await expect(page.getByTestId("toast").filter({ hasText: V.copied })).toBeVisible();
    exported = await page.evaluate(() => navigator.clipboard.readText());
  } else {
    await page.getByRole("link", { name: V.export }).click();
    exported = await page.getByLabel(V.exportLabel).inputValue();
  }
  expect(exported).toContain("GREETING");

  if (js()) {
    // The import dialog: focus moves in, Escape gives it back to Import; a refusal stays in the dialog, text kept.
    await page.goto(`/chains/${target.id}`);
    const importButton = page.getByRole("button", { name: V.import, exact: true });
    await importButton.click();
    const dialog = page.getByRole("dialog", { name: V.importTitle });
    await expect(dialog.getByLabel(V.importLabel)).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(importButton).toBeFocused();
    await importButton.click();
    await dialog.getByLabel(V.importLabel).fill("{oops");
    await dialog.getByRole("button", { name: V.importSubmit, exact: true }).click();
    await expect(dialog.getByRole("alert")).toHaveText(V.invalidImport);
    await expect(dialog.getByLabel(V.importLabel)).toHaveValue("{oops");
    await expectAccessible(page);
    await dialog.getByLabel(V.importLabel).fill(exported);
    await dialog.getByRole("button", { name: V.importSubmit, exact: true }).click();
    await expect(dialog).toBeHidden();
  } else {
    await page.goto(`/chains/${target.id}/import`);
    await expectAccessible(page);
    await page.getByLabel(V.importLabel).fill(exported);
    await page.getByRole("button", { name: V.importSubmit, exact: true }).click();
  }
  await expect(page.getByTestId("toast").filter({ hasText: V.imported })).toBeVisible();
  await expect(page.locator("summary", { hasText: "GREETING" })).toBeVisible();

  await page.goto(`/chains/${source.id}/versions/1`);
  const again = await askConfirmation(page, page.getByRole("button", { name: V.activateVersion }));
  await expect(again).toContainText(V.activateTitle("version"));
  await again.getByLabel(V.comment).fill("Back to the first");
  await again.getByRole("button", { name: V.activate, exact: true }).click();
  await expect(page.getByTestId("toast").filter({ hasText: V.versionActivated })).toBeVisible();
  await expect(page.locator("summary", { hasText: "TEMPLATE 1" })).toBeVisible();
});
