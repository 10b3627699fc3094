import AxeBuilder from "@axe-core/playwright";
import { expect, test as base, type APIRequestContext, type Locator, type Page, type Response } from "@playwright/test";
import { BASE_URL, E2E_ADMIN } from "../playwright.config";

export { expect };
export const ADMIN = E2E_ADMIN;

/** A unique suffix so that parallel tests (and the two projects) never collide on data. */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
}

/**
 * Signs in and lands on the overview. The browser context posts the sign-in form's fields as the form does (same
 * origin, the session cookie then in the context) rather than filling the form: signin.spec.ts and
 * forms-behaviour.spec.ts drive the form itself, and visiting it in every other test cost each one a page load and,
 * with JavaScript, its hydration. Each test still opens its own session, so a test that logs out or changes a
 * password revokes only its own.
 */
export async function signIn(page: Page, email = ADMIN.email, password = ADMIN.password) {
  const response = await page.request.post("/login", {
    form: { email, password, redirectTo: "/" },
    headers: { Origin: BASE_URL },
    maxRedirects: 0,
  });
  expect(response.status(), `sign-in as ${email}`).toBe(302);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: /^Hello, / })).toBeVisible();
}

/**
 * The page a no-JavaScript page's HTML is audited in: JavaScript on (axe runs inside the page), one per worker for the
 * worker's life — a context and page made per check cost ~2–5 s of the check's ~8 s on two busy cores. Each check
 * serves its HTML for its URL (the document only; stylesheets and images come from the server).
 */
let auditor: { page: Page; url: string; html: string } | null = null;

async function auditPageFor(page: Page): Promise<Page> {
  const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
  const url = new URL(page.url());
  url.hash = "";
  if (!auditor || auditor.page.isClosed()) {
    const context = await page.context().browser()!.newContext({ bypassCSP: true, javaScriptEnabled: true });
    const audit: { page: Page; url: string; html: string } = { page: await context.newPage(), url: "", html: "" };
    await audit.page.route(
      (u) => u.href === audit.url,
      (route) => route.fulfill({ body: audit.html, contentType: "text/html" }),
    );
    auditor = audit;
  }
  auditor.url = url.href;
  auditor.html = html;
  // From a blank page: the same URL again must load the new HTML, not keep the last (a same-document navigation).
  await auditor.page.goto("about:blank");
  await auditor.page.goto(page.url());
  return auditor.page;
}

/**
 * axe (WCAG 2 A and AA): no serious or critical violations on the page as it is now. axe runs inside the page, so
 * for a page without JavaScript it audits the same HTML (its scripts removed) in a JavaScript-enabled page at the
 * same URL, with the same stylesheets. Legacy mode: `axe.run` in the page, not `runPartial` per frame and `finishRun`
 * in a new blank page — the pages have no frames, the rules and results are the same, and a check takes half the time
 * (measured ~1.7 → ~0.85 s on a quiet machine).
 */
export async function expectAccessible(page: Page) {
  const target = test.info().project.use.javaScriptEnabled === false ? await auditPageFor(page) : page;
  // @axe-core/playwright is typed against its own copy of playwright-core; the page object is the same at run time.
  const axePage = target as unknown as ConstructorParameters<typeof AxeBuilder>[0]["page"];
  const results = await new AxeBuilder({ page: axePage }).withTags(["wcag2a", "wcag2aa"]).setLegacyMode(true).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
    `axe violations on ${page.url()}`,
  ).toEqual([]);
}

/** The upstream API over HTTP as the administrator: for setting up users with given permissions. */
export async function adminApi(request: APIRequestContext) {
  const login = await request.post("/api/auth/login", { data: { email: ADMIN.email, password: ADMIN.password } });
  expect(login.status()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const headers = { Authorization: `Bearer ${token}` };
  return {
    async createUser(input: { email: string; firstName?: string; lastName?: string; password?: string; permissions?: string[] }) {
      const created = await request.post("/api/auth/users", {
        headers,
        data: {
          email: input.email,
          firstName: input.firstName ?? "Test",
          lastName: input.lastName ?? "User",
          password: input.password ?? "secret-123",
        },
      });
      expect(created.status(), await created.text()).toBe(201);
      const user = (await created.json()) as { id: string };
      if (input.permissions) {
        const patched = await request.patch(`/api/auth/users/${user.id}`, {
          headers,
          data: { id: user.id, permissions: input.permissions },
        });
        expect(patched.status(), await patched.text()).toBe(200);
      }
      return user;
    },
  };
}

/** Pages whose scripts `slowScripts` holds back: their `goto` does not wait for hydration (the test checks it). */
const slowPages = new WeakSet<Page>();

/**
 * With JavaScript, `page.goto` and `page.reload` resolve once the page has hydrated (app/root.tsx marks
 * `<html data-hydrated>`), not only loaded: a click or keystroke a moment after load must meet the hydrated page,
 * or its outcome depends on the machine's speed (a Delete that posts instead of opening its dialog, a search typed
 * half before hydration). Tests of what happens before hydration use `slowScripts`, which opts their page out.
 */
export const test = base.extend({
  page: async ({ page }, provide, testInfo) => {
    if (testInfo.project.use.javaScriptEnabled !== false) {
      const waitingForHydration =
        <A extends unknown[]>(navigate: (...args: A) => Promise<Response | null>) =>
        async (...args: A) => {
          const response = await navigate(...args);
          if (!slowPages.has(page) && response?.headers()["content-type"]?.startsWith("text/html")) {
            await page.waitForFunction(isHydrated, undefined, { timeout: 20_000 });
          }
          return response;
        };
      page.goto = waitingForHydration(page.goto.bind(page));
      page.reload = waitingForHydration(page.reload.bind(page));
    }
    // A page whose markup React does not find as it renders it is re-rendered whole (what was typed is lost): React
    // reports it (window error or console), and every test fails on it.
    const hydrationErrors: string[] = [];
    const isHydrationError = (text: string) => /Minified React error #(418|419|421|422|423|425)\b|[Hh]ydrat(ion|ing) /.test(text);
    page.on("pageerror", (error) => {
      if (isHydrationError(error.message)) hydrationErrors.push(`${page.url()}: ${error.message}`);
    });
    page.on("console", (message) => {
      if (message.type() === "error" && isHydrationError(message.text())) hydrationErrors.push(`${page.url()}: ${message.text()}`);
    });
    await provide(page);
    expect(hydrationErrors, "React could not hydrate a page").toEqual([]);
  },
});

/** In the page: true once it has hydrated (app/root.tsx sets the mark in an effect). */
const isHydrated = () => document.documentElement.hasAttribute("data-hydrated");

/**
 * The page's scripts arrive late (a slow network): what the user does next happens while the page is plain HTML.
 * The entry script is held until `hydrated` lets it through (then waits for the app to hydrate), so the window is the
 * test's, not a delay the machine's load can outrun: on CI's run a fixed 1.5 s hold ended before two fields were filled.
 */
export async function slowScripts(page: Page) {
  slowPages.add(page);
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/build\/entry\.client-/, async (route) => {
    await released;
    await route.continue();
  });
  return {
    /** Not hydrated yet: fails if the page already runs its scripts. */
    notYet: async () => expect(await page.evaluate(isHydrated)).toBe(false),
    hydrated: () => {
      release();
      return page.waitForFunction(isHydrated);
    },
  };
}

/**
 * Clicks a button that asks for confirmation (app/ui/confirm.tsx) and answers the step. With JavaScript the step is
 * the <dialog>, which exists once the page has hydrated: the click waits for it (a click before that posts the form
 * and gets the server's inline step, which forms-behaviour.spec.ts tests on its own). Without, the inline alertdialog.
 */
export async function askConfirmation(page: Page, button: Locator): Promise<Locator> {
  const js = test.info().project.use.javaScriptEnabled !== false;
  if (js) await expect(page.locator("dialog.confirm-dialog").first()).toBeAttached();
  await button.click();
  const step = js ? page.getByRole("dialog") : page.getByRole("alertdialog");
  // Every confirmation starts on its safe choice: Enter right after it appears must not destroy (app/ui/modal.ts).
  await expect(step.getByRole(js ? "button" : "link", { name: "Cancel", exact: true })).toBeFocused();
  return step;
}
