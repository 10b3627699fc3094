import type { APIRequestContext } from "@playwright/test";
import { ADMIN, adminApi, expect, expectAccessible, signIn, slowScripts, test, unique } from "./fixtures";

/** Behaviour every list inherits from app/ui/list and app/lib/list.server. */

const js = () => test.info().project.name === "js";
/**
 * spec 3 §9: "November 22, 2026, 10:30 AM". A list's stamp keeps the date in one piece with no-break spaces
 * (app/ui/list.tsx, Stamp); elsewhere they are plain spaces.
 */
const LONG_DATE =
  /(January|February|March|April|May|June|July|August|September|October|November|December)[ \u00a0]\d{1,2},[ \u00a0]\d{4},[ \u00a0]\d{1,2}:\d{2}[ \u00a0](AM|PM)/;

async function adminToken(request: APIRequestContext) {
  const login = await request.post("/api/auth/login", { data: { email: ADMIN.email, password: ADMIN.password } });
  const { token } = (await login.json()) as { token: string };
  return { Authorization: `Bearer ${token}` };
}

test("pagination: first, previous, next, last; a page beyond the end shows the last page", async ({ page, request }) => {
  const prefix = unique("pg");
  const headers = await adminToken(request);
  for (let i = 0; i < 27; i++) {
    const created = await request.post("/api/organizations", { headers, data: { name: `${prefix} ${String(i).padStart(2, "0")}` } });
    expect(created.status(), await created.text()).toBe(201);
  }
  await signIn(page);
  await page.goto(`/organizations?q=${prefix}&sort=name`);
  const nav = page.getByRole("navigation", { name: "Pagination" });
  await expect(nav).toContainText("Page 1 of 2");
  await expect(nav.getByRole("link", { name: "Next" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Last" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "First" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Previous" })).toHaveCount(0);
  await expectAccessible(page);

  await nav.getByRole("link", { name: "Last" }).click();
  await expect(nav).toContainText("Page 2 of 2");
  await expect(page.getByRole("row").filter({ hasText: `${prefix} 26` })).toHaveCount(1);
  await nav.getByRole("link", { name: "First" }).click();
  await expect(nav).toContainText("Page 1 of 2");
  await expect(page.getByRole("row").filter({ hasText: `${prefix} 00` })).toHaveCount(1);

  // Beyond the end: the last page's rows, numbered as such.
  await page.goto(`/organizations?q=${prefix}&sort=name&page=999`);
  await expect(nav).toContainText("Page 2 of 2");
  await expect(page.getByText("Page 999")).toHaveCount(0);
  await expect(page.getByRole("row").filter({ hasText: `${prefix} 25` })).toHaveCount(1);
  await expect(page.getByRole("row").filter({ hasText: `${prefix} 26` })).toHaveCount(1);
  await nav.getByRole("link", { name: "Previous" }).click();
  await expect(nav).toContainText("Page 1 of 2");
});

test("'No results match' when a search or a filter hides rows, 'No X yet' only when there are none", async ({ page }) => {
  await signIn(page);
  await page.goto(`/organizations?q=${unique("nothing")}`);
  await expect(page.getByText(/^No organizations match “nothing-/)).toBeVisible();
  await expect(page.getByText("No organizations yet.")).toHaveCount(0);

  // A filter alone (no search text): every type unticked.
  await page.goto("/specifications?filtered=1");
  await expect(page.getByText("No results match the search or filters.")).toBeVisible();
  await expect(page.getByText("No specifications yet.")).toHaveCount(0);
  await expectAccessible(page);
  await page.getByRole("link", { name: "Show all" }).click();
  await expect(page.getByLabel("Abstract")).toBeChecked();
  await expect(page.getByText("No results match the search or filters.")).toHaveCount(0);
});

test("an over-long search text gets a message beside the search box", async ({ page }) => {
  await signIn(page);
  const long = "x".repeat(201);
  const response = await page.goto(`/people?q=${long}`);
  expect(response?.status()).toBe(200);
  const box = page.getByRole("searchbox", { name: "Search people" });
  await expect(page.getByText("Search text must be at most 200 characters.")).toBeVisible();
  await expect(box).toHaveAttribute("aria-invalid", "true");
  await expect(box).toHaveValue(long);
  await expectAccessible(page);

  // Back within the bound: the message goes and the search runs.
  await box.fill("admin@e2e");
  if (!js()) await box.press("Enter");
  await expect(page).toHaveURL(/q=admin%40e2e/);
  await expect(page.getByText("Search text must be at most 200 characters.")).toHaveCount(0);
  if (js()) {
    // Typed past the bound: the message shows at once and nothing is sent.
    let sent = 0;
    page.on("request", (r) => {
      if (r.url().includes("_data=")) sent++;
    });
    await box.fill("y".repeat(201));
    await expect(page.getByText("Search text must be at most 200 characters.")).toBeVisible();
    await page.waitForTimeout(600);
    expect(sent).toBe(0);
  }
});

test("one loader request per debounced search", async ({ page }) => {
  test.skip(!js(), "the debounced search needs JavaScript");
  await signIn(page);
  await page.goto("/people");
  await expect(page.getByRole("heading", { level: 1, name: "People" })).toBeVisible();
  const loads: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    const route = url.searchParams.get("_data");
    if (route) loads.push(route);
  });
  await page.getByRole("searchbox", { name: "Search people" }).pressSequentially("admin", { delay: 40 });
  await expect(page).toHaveURL(/q=admin/);
  await page.waitForTimeout(600);
  expect(loads).toEqual(["routes/_app.people._index"]);

  // Another page still reloads the shell (it keeps the session fresh and the navigation in step).
  loads.length = 0;
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Teams" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Teams" })).toBeVisible();
  expect(loads).toContain("routes/_app");
});

test("people and teams lists show who created and updated each row, with US-English long dates", async ({ page, request }) => {
  const api = await adminApi(request);
  const email = `${unique("stamp")}@e2e.test`;
  await api.createUser({ email });
  const team = unique("Stamp team");
  const headers = await adminToken(request);
  const created = await request.post("/api/auth/teams", { headers, data: { name: team } });
  expect(created.status(), await created.text()).toBe(201);
  await signIn(page);

  await page.goto(`/people?q=${encodeURIComponent(email)}`);
  const person = page.getByRole("row").filter({ hasText: email });
  await expect(person).toContainText(`by ${ADMIN.email}`);
  await expect(person).toContainText(LONG_DATE);
  await expectAccessible(page);

  await page.goto(`/teams?q=${encodeURIComponent(team)}`);
  const row = page.getByRole("row").filter({ hasText: team });
  await expect(row).toContainText(`by ${ADMIN.email}`);
  await expect(row).toContainText(LONG_DATE);
});

test("permission keys show as stored, not upper-cased", async ({ page, request }) => {
  const api = await adminApi(request);
  const user = await api.createUser({ email: `${unique("keys")}@e2e.test` });
  await signIn(page);
  await page.goto(`/people/${user.id}/permissions`);
  const key = page.getByRole("rowheader", { name: "docketing_tasks", exact: true });
  await expect(key).toBeVisible();
  await expect(key).toHaveCSS("text-transform", "none");
  await expect(key.locator("code")).toHaveCSS("text-transform", "none");
  expect(await key.evaluate((el) => (el as HTMLElement).innerText)).toBe("docketing_tasks");
});

test("a search typed before the page hydrated runs once it has", async ({ page }) => {
  test.skip(test.info().project.name !== "js", "hydration is JavaScript's");
  await signIn(page);
  const scripts = await slowScripts(page);
  await page.goto("/people");
  await page.getByRole("searchbox", { name: "Search people" }).fill("admin@");
  await scripts.notYet();
  await scripts.hydrated();
  await expect(page).toHaveURL(/[?&]q=admin%40/);
  await expect(page.getByRole("searchbox", { name: "Search people" })).toHaveValue("admin@");
  await expect(page.getByText(/\d+ (person|people) in total/)).toBeVisible();
  for (const cell of await page.locator("tbody tr td:first-child").allTextContents()) expect(cell).toContain("admin@");
});

test("a sortable column header sorts the list by it, a second click reverses; aria-sort says how", async ({ page, request }) => {
  const prefix = unique("sorthead");
  const headers = await adminToken(request);
  // Created in this order (b, a, c): by name a, b, c; newest first c, a, b.
  for (const name of ["b", "a", "c"]) {
    const created = await request.post("/api/organizations", { headers, data: { name: `${prefix} ${name}` } });
    expect(created.status(), await created.text()).toBe(201);
  }
  await signIn(page);
  await page.goto(`/organizations?q=${prefix}&sort=name`);
  const names = () => page.getByRole("row").locator("td:first-child").allInnerTexts();
  const nameHeader = page.getByRole("columnheader", { name: "Name" });
  const createdHeader = page.getByRole("columnheader", { name: "Created At" });
  await expect(nameHeader).toHaveAttribute("aria-sort", "ascending");
  await expect(createdHeader).not.toHaveAttribute("aria-sort", /./);
  // A column the upstream cannot sort by stays a plain header.
  await expect(page.getByRole("columnheader", { name: "Updated At" }).getByRole("link")).toHaveCount(0);

  // By keyboard: the header is a link.
  await createdHeader.getByRole("link").focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/sort=newest/);
  await expect(createdHeader).toHaveAttribute("aria-sort", "descending");
  await expect(nameHeader).not.toHaveAttribute("aria-sort", /./);
  expect(await names()).toEqual([`${prefix} c`, `${prefix} a`, `${prefix} b`]);
  // The search is kept.
  await expect(page).toHaveURL(new RegExp(`q=${prefix}`));

  await createdHeader.getByRole("link").click();
  await expect(page).toHaveURL(/sort=oldest/);
  await expect(createdHeader).toHaveAttribute("aria-sort", "ascending");
  expect(await names()).toEqual([`${prefix} b`, `${prefix} a`, `${prefix} c`]);
  await expectAccessible(page);

  // Remembered (the prefs cookie), as the Sort select's choice is.
  await page.goto(`/organizations?q=${prefix}`);
  await expect(createdHeader).toHaveAttribute("aria-sort", "ascending");
  await nameHeader.getByRole("link").click();
  await expect(nameHeader).toHaveAttribute("aria-sort", "ascending");
  expect(await names()).toEqual([`${prefix} a`, `${prefix} b`, `${prefix} c`]);
});
