import { ADMIN, adminApi, expect, expectAccessible, signIn, test, unique } from "./fixtures";

test("shows only the navigation entries the user's permissions allow", async ({ page, request }) => {
  const api = await adminApi(request);
  const nobody = `${unique("noperm")}@e2e.test`;
  await api.createUser({ email: nobody, password: "secret-123", permissions: [] });
  await signIn(page, nobody, "secret-123");
  const nav = page.getByRole("navigation", { name: "Main" });
  // Spec 1 §2: Overview and the library are everyone's; the library lists only what its reader may read.
  await expect(nav.getByRole("link")).toHaveText(["Overview", "Library"]);
  const response = await page.goto("/people");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Nothing here :(" })).toBeVisible();
  // The shell stays around the not-found view.
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await expectAccessible(page);
});

test("a reader sees People but not the create screen", async ({ page, request }) => {
  const api = await adminApi(request);
  const reader = `${unique("reader")}@e2e.test`;
  await api.createUser({ email: reader, password: "secret-123", permissions: ["users.read"] });
  await signIn(page, reader, "secret-123");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link")).toHaveText(["Overview", "People", "Teams", "Library"]);
  await nav.getByRole("link", { name: "People" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "People" })).toBeVisible();
  await expect(page.getByRole("link", { name: "+ add new" })).toHaveCount(0);
  expect((await page.goto("/people/new"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Nothing here :(" })).toBeVisible();
});

test("collapses and expands the side panel, remembered across visits", async ({ page }) => {
  await signIn(page);
  const shell = page.locator(".shell");
  await expect(shell).toHaveAttribute("data-sidebar", "expanded");
  // The panel collapses at once; the preference is saved by the request behind it.
  const saved = page.waitForResponse((r) => r.url().includes("/prefs") && r.request().method() === "POST");
  await page.getByRole("button", { name: "Collapse side panel" }).click();
  await expect(shell).toHaveAttribute("data-sidebar", "collapsed");
  await saved;
  await expect(page.getByRole("button", { name: "Expand side panel" })).toHaveAttribute("aria-expanded", "false");
  await page.reload();
  await expect(shell).toHaveAttribute("data-sidebar", "collapsed");
  await expectAccessible(page);
  const savedAgain = page.waitForResponse((r) => r.url().includes("/prefs") && r.request().method() === "POST");
  await page.getByRole("button", { name: "Expand side panel" }).click();
  await expect(shell).toHaveAttribute("data-sidebar", "expanded");
  await savedAgain;
  await page.goto("/people");
  await expect(shell).toHaveAttribute("data-sidebar", "expanded");
});

test("unknown routes render the not-found view with status 404", async ({ page }) => {
  await signIn(page);
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Nothing here :(" })).toBeVisible();
  await expectAccessible(page);
});

test("the help button opens the feedback board in a new tab", async ({ page }) => {
  await signIn(page);
  const help = page.getByRole("link", { name: "Help" });
  await expect(help).toHaveAttribute("target", "_blank");
  await expect(help).toHaveAttribute("href", "/help");
  const answer = await page.request.get("/help", { maxRedirects: 0 });
  expect(answer.status()).toBe(302);
  expect(answer.headers()["location"]).toBe("https://feedback.example.com/board");
});

test("pages carry an enforced Content-Security-Policy with a nonce", async ({ page }) => {
  const response = await page.goto("/login");
  const csp = response?.headers()["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(response?.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
});

test("the side panel marks the current section and its links navigate in the page, or as documents without JavaScript", async ({ page }) => {
  await signIn(page);
  const documents: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "document") documents.push(new URL(r.url()).pathname);
  });
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "People" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "People" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "People" })).toHaveAttribute("aria-current", "page");
  await expect(nav.getByRole("link", { name: "Overview" })).not.toHaveAttribute("aria-current", /.*/);
  // A row's link: the person's page, still "People" in the side panel.
  await page.getByRole("table").getByRole("link", { name: ADMIN.email, exact: true }).click();
  await expect(page).toHaveURL(/\/people\/[^/]+$/);
  await expect(nav.getByRole("link", { name: "People" })).toHaveAttribute("aria-current", "page");
  await nav.getByRole("link", { name: "Teams" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Teams" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Teams" })).toHaveAttribute("aria-current", "page");
  await expect(nav.getByRole("link", { name: "People" })).not.toHaveAttribute("aria-current", /.*/);
  // With JavaScript none of these loaded a document; without it, each one did.
  if (test.info().project.name === "js") expect(documents).toEqual([]);
  else expect(documents).toEqual(expect.arrayContaining(["/people", "/teams"]));
});

test("a reloaded page opens where it was scrolled to, restored before the scripts start", async ({ page }) => {
  test.skip(test.info().project.name !== "js", "without JavaScript the browser restores the position itself");
  await page.setViewportSize({ width: 390, height: 400 });
  await signIn(page);
  await page.goto("/people/new");
  // A fresh history entry got its key before hydration (app/ui/scroll-restoration.tsx): positions are kept under it.
  const key = await page.evaluate(() => (history.state as { key?: string } | null)?.key);
  expect(key).toMatch(/^[0-9a-v]+$/);
  const y = await page.evaluate(() => Math.min(500, document.documentElement.scrollHeight - window.innerHeight));
  expect(y).toBeGreaterThanOrEqual(100);
  await page.evaluate((to) => window.scrollTo(0, to), y);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(y);
  // The position as the page's first inline script left it, before any module ran: the restore is not React's.
  await page.addInitScript(() => {
    document.addEventListener("DOMContentLoaded", () => ((window as Window & { __yAtParse?: number }).__yAtParse = window.scrollY));
  });
  await page.reload();
  expect(await page.evaluate(() => (window as Window & { __yAtParse?: number }).__yAtParse)).toBe(y);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(y);
  expect(await page.evaluate(() => (history.state as { key?: string } | null)?.key)).toBe(key);
});
