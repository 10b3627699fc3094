import { expect, expectAccessible, signIn, test } from "./fixtures";

const js = () => test.info().project.name === "js";

test("390 px: 'Select a query' stays in the page's width, right under its button", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await page.goto("/categorization");
  const button = page.getByRole(js() ? "button" : "link", { name: "Select a query" });
  await button.click();
  const select = js() ? page.getByRole("dialog", { name: "Select a query" }) : page.getByRole("region", { name: "Select a query" });
  await expect(select.getByRole("columnheader", { name: "Updated" })).toBeVisible();
  // Nothing sticks out sideways: the page does not scroll horizontally, and the list's box is inside the viewport.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const box = (await select.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  if (!js()) {
    // Without JavaScript the list opens below the button it belongs to, not after the results.
    const from = (await page.getByRole("link", { name: "Select a query" }).boundingBox())!;
    expect(box.y - (from.y + from.height)).toBeLessThan(120);
    expect(box.y).toBeGreaterThan(from.y);
  }
  await expectAccessible(page);
});

test("invalid JSON: run and download CSV say why beside them", async ({ page }) => {
  await signIn(page);
  await page.goto("/categorization");
  const editor = page.getByLabel("Query (JSON)");
  if (js()) {
    await expect(page.getByTestId("monaco-editor")).toBeVisible({ timeout: 15_000 });
    await page.evaluate(() => {
      const m = (window as unknown as { monaco: { editor: { getModels(): { setValue(v: string): void }[] } } }).monaco;
      m.editor.getModels()[0]!.setValue('{ "query": ');
    });
  } else {
    await editor.fill('{ "query": ');
  }
  const run = page.getByRole("button", { name: "Run" });
  if (!js()) await run.click();
  const reason = page.locator("#cat-run-reason");
  await expect(reason).toContainText("Fix the query first: run, download CSV and Save need valid JSON.");
  for (const name of ["Run", "download CSV"]) {
    await expect(page.getByRole("button", { name, exact: true })).toHaveAttribute("aria-describedby", "cat-run-reason");
  }
  if (js()) {
    await expect(run).toHaveAttribute("aria-disabled", "true");
    await expect(run).toHaveAccessibleDescription(/need valid JSON/);
  }
  await expectAccessible(page);
});
