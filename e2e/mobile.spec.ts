import { expect, expectAccessible, signIn, slowScripts, test } from "./fixtures";

/** A 390 px phone: side panel as an overlay with labels, tables scroll sideways, inputs keep their width. */

test.use({ viewport: { width: 390, height: 844 } });

test("form inputs keep a usable width: the password wraps under 'Randomize password'", async ({ page }) => {
  await signIn(page);
  await page.goto("/people/new");
  for (const label of ["First name", "Email", "Password"]) {
    const box = (await page.getByLabel(label, { exact: true }).boundingBox())!;
    expect(box.width, label).toBeGreaterThanOrEqual(200);
  }
  const randomize = (await page.getByRole("button", { name: "Randomize password" }).boundingBox())!;
  expect(randomize.x + randomize.width).toBeLessThanOrEqual(390);
  // Nothing overflows the page sideways.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page);
});

test("tables scroll sideways inside a focusable, named region", async ({ page }) => {
  await signIn(page);
  await page.goto("/people");
  const region = page.getByRole("region", { name: /^People/ });
  await expect(region).toBeVisible();
  await expect(region).toHaveAttribute("tabindex", "0");
  const { scrollWidth, clientWidth } = await region.evaluate((el) => ({
    scrollWidth: el.scrollWidth,
    clientWidth: el.clientWidth,
  }));
  expect(scrollWidth).toBeGreaterThan(clientWidth);
  expect(clientWidth).toBeLessThanOrEqual(390);
  await expect(region).toHaveCSS("overflow-x", "auto");
  // The cue: edge shadows painted as backgrounds of the scrolling frame.
  await expect(region).toHaveCSS("background-image", /radial-gradient/);
  // The keyboard scrolls it.
  await region.focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  // The page itself does not scroll sideways.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page);
});

test("the side panel opens as an overlay with labels, not an icon strip squeezing the content", async ({ page }) => {
  await signIn(page);
  await page.goto("/people");
  const nav = page.getByRole("navigation", { name: "Main" });
  const main = page.locator("main#main");
  // Closed: the content has the whole width.
  await expect(nav).toBeHidden();
  const closed = (await main.boundingBox())!;
  expect(closed.x).toBeLessThanOrEqual(1);
  expect(closed.width).toBeGreaterThanOrEqual(380);

  await page.getByRole("link", { name: "Open menu" }).click();
  await expect(nav).toBeVisible();
  const teams = nav.getByRole("link", { name: "Teams" });
  await expect(teams).toBeVisible();
  // The label itself shows (not only an icon with a title).
  await expect(nav.getByText("Teams", { exact: true })).toBeVisible();
  const navBox = (await nav.boundingBox())!;
  expect(navBox.width).toBeGreaterThanOrEqual(200);
  // An overlay: the content below keeps its place and width.
  const open = (await main.boundingBox())!;
  expect(open.x).toBe(closed.x);
  expect(open.width).toBe(closed.width);
  await expectAccessible(page);

  await teams.click();
  await expect(page.getByRole("heading", { level: 1, name: "Teams" })).toBeVisible();
  await expect(nav).toBeHidden();

  await page.getByRole("link", { name: "Open menu" }).click();
  await expect(nav).toBeVisible();
  await nav.getByRole("link", { name: "Close menu" }).click();
  await expect(nav).toBeHidden();
});

test("a menu opened before the page hydrated closes on the next navigation", async ({ page }) => {
  test.skip(test.info().project.name !== "js", "hydration is JavaScript's");
  await signIn(page);
  // The menu is opened while the page is still plain HTML (#sidenav, :target).
  const scripts = await slowScripts(page);
  await page.goto("/people");
  const nav = page.getByRole("navigation", { name: "Main" });
  await page.getByRole("link", { name: "Open menu" }).click();
  await expect(nav).toBeVisible();
  await scripts.notYet();
  await scripts.hydrated();
  await expect(nav).toBeVisible();
  await nav.getByRole("link", { name: "Teams" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Teams" })).toBeVisible();
  await expect(nav).toBeHidden();
});
