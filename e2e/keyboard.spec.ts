import { expect, signIn, test } from "./fixtures";

/**
 * Keyboard-only use of the shared widgets (JavaScript on: without it the code fields are textareas, which Tab leaves
 * as any field).
 */
test.beforeEach(() => test.skip(test.info().project.name !== "js", "Monaco runs only with JavaScript"));

const editors = [
  { path: "/portfolio/add", label: "Application (JSON)" },
  { path: "/messages/create", label: "Body" },
  { path: "/categorization", label: "Query (JSON)" },
];

for (const { path, label } of editors) {
  test(`the code editor on ${path} is left by Esc then Tab, its text unchanged`, async ({ page }) => {
    await signIn(page);
    await page.goto(path);
    const frame = page.getByTestId("monaco-editor");
    await expect(frame).toBeVisible({ timeout: 15_000 });
    // The way out is stated on the screen and tied to the editor for screen readers.
    const hint = page.getByText("press Esc, then Tab (or Shift+Tab), to leave the editor");
    await expect(hint).toBeVisible();
    const textarea = frame.getByRole("textbox", { name: label });
    await expect(textarea).toHaveAttribute("aria-describedby", (await hint.getAttribute("id"))!);

    const text = () =>
      page.evaluate(() => (window as unknown as { monaco: { editor: { getModels(): { getValue(): string }[] } } }).monaco.editor.getModels()[0]!.getValue());
    await frame.locator(".view-lines").click();
    await expect(textarea).toBeFocused();
    const before = await text();

    await page.keyboard.press("Escape");
    await page.keyboard.press("Tab");
    const outside = () => page.evaluate(() => document.activeElement !== document.body && !document.activeElement?.closest("[data-testid=monaco-editor]"));
    await expect.poll(outside).toBe(true);
    expect(await text()).toBe(before);
    if (path === "/categorization") await expect(page.getByText("Unsaved changes")).toHaveCount(0);

    // Shift+Tab comes back; Esc then Shift+Tab leaves backwards, still unchanged.
    await page.keyboard.press("Shift+Tab");
    await expect(textarea).toBeFocused();
    await page.keyboard.press("Escape");
    await page.keyboard.press("Shift+Tab");
    await expect.poll(outside).toBe(true);
    expect(await text()).toBe(before);

    // Tab alone still indents: the editor is a code editor.
    await frame.locator(".view-lines").click();
    await page.keyboard.press("Tab");
    await expect.poll(text).not.toBe(before);
  });
}

test("a select that submits itself waits while the user arrows through it, and keeps focus after the reload", async ({ page }) => {
  await signIn(page);
  await page.goto("/portfolio");
  const size = page.getByLabel("Results per page");
  await size.focus();
  const before = page.url();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  // Still choosing: nothing was sent.
  await page.waitForTimeout(1_200);
  expect(page.url()).toBe(before);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/size=500/);
  await expect(page.getByLabel("Results per page")).toBeFocused();
  await expect(page.getByLabel("Results per page")).toHaveValue("500");
});

test("a dashboard's Sort commits on leaving it and a filter box keeps focus after its reload", async ({ page }) => {
  await signIn(page);
  await page.goto("/processing");
  const sort = page.getByLabel("Sort");
  const first = await sort.inputValue();
  await sort.focus();
  await page.keyboard.press("ArrowDown");
  await page.waitForTimeout(1_200);
  expect(page.url()).not.toMatch(/sort=/);
  await page.keyboard.press("Tab");
  await expect(page).toHaveURL(/sort=/);
  await expect(page.getByLabel("Sort")).not.toHaveValue(first);
  // Focus went where Tab took it, not to the page's start.
  expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);

  const failed = page.getByRole("checkbox", { name: "Failed" });
  await failed.focus();
  const checked = await failed.isChecked();
  await page.keyboard.press("Space");
  await expect(page).toHaveURL(/filtered=1/);
  await expect(page.getByRole("checkbox", { name: "Failed" })).toBeChecked({ checked: !checked });
  await expect(page.getByRole("checkbox", { name: "Failed" })).toBeFocused();
});
