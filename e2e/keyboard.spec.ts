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
