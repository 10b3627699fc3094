import fs from "node:fs";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { ADMIN, expect, test } from "./fixtures";

/** Helpers the workflows and docket specs share: their dialogs, tag inputs, downloads, toasts and the engine's events. */

export const js = () => test.info().project.use.javaScriptEnabled !== false;

/** A dialog of the page: a modal <dialog> with JavaScript, a section in the page without. */
export const dialog = (page: Page, name: string) => (js() ? page.getByRole("dialog", { name }) : page.getByRole("region", { name }));

/** A tag input: with JavaScript each value becomes a chip (Enter); without, the field takes "a; b". */
export async function tags(page: Page, label: string, values: string[]) {
  const input = js() ? page.getByRole("combobox", { name: label }) : page.getByLabel(label, { exact: true });
  if (!js()) return input.fill(values.join("; "));
  for (const value of values) {
    await input.fill(value);
    await input.press("Enter");
  }
}

/** What a click on `link` downloads, as text. */
export async function download(page: Page, link: Locator): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent("download"), link.click()]);
  return fs.readFileSync((await file.path())!, "utf8");
}

/**
 * A toast saying `text` after a post: the answer may take a while on a shared machine (the post, the redirect, the new
 * page), and the previous step's toast may still be showing beside it.
 */
export const toastSays = (page: Page, text: string) => expect(page.getByTestId("toast").filter({ hasText: text })).toBeVisible({ timeout: 20_000 });

/**
 * The external event source (spec 3 §7 `POST /api/workflows/milestones`), as the administrator: `post` sends an event
 * and waits until the engine, on the job queue, has made its milestone with open tasks; it answers the milestone's id.
 */
export async function docketEvents(request: APIRequestContext) {
  const login = await request.post("/api/auth/login", { data: { email: ADMIN.email, password: ADMIN.password } });
  expect(login.status()).toBe(200);
  const headers = { Authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  return {
    async post(event: { code: string; reference: string; clientCode: string; data?: Record<string, unknown> }): Promise<string> {
      const posted = await request.post("/api/workflows/milestones", { headers, data: { data: {}, ...event } });
      expect(posted.status(), await posted.text()).toBe(202);
      let id = "";
      await expect
        .poll(
          async () => {
            const r = await request.get(`/api/workflows/milestones?reference=${encodeURIComponent(event.reference)}`, { headers });
            const items = ((await r.json()) as { items: Array<{ id: string; openTasks: number }> }).items;
            id = items[0]?.openTasks ? items[0].id : "";
            return id;
          },
          { timeout: 20_000 },
        )
        .not.toBe("");
      return id;
    },
  };
}
