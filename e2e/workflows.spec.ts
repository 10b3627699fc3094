import type { APIRequestContext } from "@playwright/test";
import { ADMIN, adminApi, askConfirmation, expect, expectAccessible, signIn, test, unique } from "./fixtures";
import { dialog, download, js, tags, toastSays } from "./workflows-fixtures";

const API = "/api/workflows/v2/workflows";

/** The upstream as the administrator, for what these screens do not create themselves (templates come from the wizard). */
async function upstream(request: APIRequestContext) {
  const login = await request.post("/api/auth/login", { data: { email: ADMIN.email, password: ADMIN.password } });
  const { token } = (await login.json()) as { token: string };
  const headers = { Authorization: `Bearer ${token}` };
  return {
    async workflow(title: string, clientCodes: string[] = []) {
      const r = await request.post(API, { headers, data: { title, clientCodes } });
      expect(r.status(), await r.text()).toBe(201);
      return ((await r.json()) as { id: string }).id;
    },
    async template(workflowId: string, title: string) {
      const r = await request.post(`${API}/${workflowId}/milestones/draft/template`, {
        headers,
        data: { data: { title, events: [{ code: "portfolio.application.created" }] } },
      });
      expect(r.status(), await r.text()).toBe(201);
      return ((await r.json()) as { id: string }).id;
    },
    /** Some workflow is the default (the first one created becomes it), so that the ones a test creates are not. */
    async ensureDefault() {
      const settings = (await (await request.get(`${API}/settings`, { headers })).json()) as { defaultWorkflow: string | null };
      if (!settings.defaultWorkflow) await this.workflow(unique("Default"));
    },
  };
}

test("a workflow is created and cloned, and its export string downloaded", async ({ page, request }) => {
  // A long scenario with an axe check per screen: three times the usual time on a shared machine.
  test.slow();
  const api = await upstream(request);
  await api.ensureDefault();
  const title = unique("Patents");
  const keep = unique("K").toUpperCase();
  const take = unique("T").toUpperCase();
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workflows" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Workflows" })).toBeVisible();
  await expectAccessible(page);

  // Create: the title is required and trimmed; client codes are a tag list.
  await page.getByRole("link", { name: "+ new" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New Workflow" })).toBeVisible();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Title is required")).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Title").fill(`  ${title}  `);
  await tags(page, "Client codes", [keep, take]);
  await page.getByRole("button", { name: "Save" }).click();
  await toastSays(page, "Create completed");

  // Clone: the original's title plus ' (clone)', at least one reference, each with its count.
  await page.goto(`/workflows?q=${encodeURIComponent(title)}`);
  await page.getByRole("link", { name: `Clone ${title}` }).click();
  const clone = dialog(page, `Clone ${title}`);
  await expect(clone.getByLabel("Title")).toHaveValue(`${title} (clone)`);
  if (js()) await expect(clone.getByLabel("Title")).toBeFocused();
  await expectAccessible(page);
  await clone.getByRole("button", { name: "Clone" }).click();
  await expect(dialog(page, `Clone ${title}`).getByText("Choose at least one reference.")).toBeVisible();
  await dialog(page, `Clone ${title}`).getByLabel(`${take} (0 matters)`).check();
  await dialog(page, `Clone ${title}`).getByRole("button", { name: "Clone" }).click();
  await toastSays(page, "Clone completed");
  const cloneRow = page.getByRole("row").filter({ hasText: `${title} (clone)` });
  await expect(cloneRow).toContainText(take);
  await expect(page.getByRole("row").filter({ hasText: title }).filter({ hasNotText: "(clone)" })).not.toContainText(take);

  // Export: the export string, downloaded.
  const exported = JSON.parse(await download(page, page.getByRole("link", { name: `Export ${title}`, exact: true }))) as {
    workflow: { title: string; clientCodes: string[] };
    templates: unknown[];
  };
  expect(exported.workflow).toEqual({ title, clientCodes: [keep] });
});

test("a workflow is imported, made default, and another deleted", async ({ page, request }) => {
  test.slow();
  const api = await upstream(request);
  await api.ensureDefault();
  const title = unique("Doomed");
  await api.workflow(title);
  const imported = unique("Imported");
  const source = { workflow: { title: imported, clientCodes: [] }, templates: [{ title: "Filing", events: [{ code: "portfolio.application.created" }] }] };
  await signIn(page);
  await page.goto("/workflows");

  // Import: invalid JSON first, then an export string.
  await page.getByRole("link", { name: "Import workflow" }).click();
  const importing = dialog(page, "Import workflow");
  await expect(importing.getByLabel("Paste import string")).toBeVisible();
  if (js()) await expect(importing.getByLabel("Paste import string")).toBeFocused();
  await importing.getByLabel("Paste import string").fill("{ not json");
  await importing.getByRole("button", { name: "Import" }).click();
  await toastSays(page, "Import failed");
  await toastSays(page, "Reason: import string is invalid");
  await expect(dialog(page, "Import workflow").getByLabel("Paste import string")).toHaveValue("{ not json");
  await expectAccessible(page);
  await dialog(page, "Import workflow")
    .getByLabel("Paste import string")
    .fill(JSON.stringify(source));
  await dialog(page, "Import workflow").getByRole("button", { name: "Import" }).click();
  await toastSays(page, "Import successful");
  await page.goto(`/workflows?q=${encodeURIComponent(imported)}`);
  const importedRow = page.getByRole("row").filter({ hasText: imported });
  await expect(importedRow).toBeVisible();

  // Make default: asks first; the default then has no Make default and its Delete says why it cannot be.
  const make = await askConfirmation(page, importedRow.getByRole("button", { name: `Make default ${imported}` }));
  await expect(make.getByRole("heading", { name: "Make default?" })).toBeVisible();
  await make.getByRole("button", { name: "Make default" }).click();
  await toastSays(page, `'${imported}' is now the default workflow`);
  const defaultRow = page.getByRole("row").filter({ hasText: imported });
  await expect(defaultRow.getByText("Default", { exact: true })).toBeVisible();
  await expect(defaultRow.getByRole("button", { name: `Make default ${imported}` })).toHaveCount(0);
  await expect(defaultRow.getByRole("button", { name: `Delete ${imported}` })).toBeDisabled();
  await expect(defaultRow.getByText("The default workflow cannot be deleted: make another workflow the default first.")).toBeVisible();

  // Delete: "This action can't be undone."
  await page.goto(`/workflows?q=${encodeURIComponent(title)}`);
  const del = await askConfirmation(page, page.getByRole("button", { name: `Delete ${title}` }));
  await expect(del).toContainText("This action can't be undone.");
  await del.getByRole("button", { name: "Delete" }).click();
  await toastSays(page, "Delete completed");
  await expect(page.getByText(`No workflows match “${title}”.`)).toBeVisible();
});

test("a workflow's templates: activated and deactivated with confirmation, imported, the empty messages", async ({ page, request }) => {
  test.slow();
  const api = await upstream(request);
  const title = unique("Docketing");
  const id = await api.workflow(title);
  const name = unique("Office action");
  await signIn(page);
  await page.goto(`/workflows?q=${encodeURIComponent(title)}`);
  await page.getByRole("link", { name: title, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/workflows/${id}$`));
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByText("No milestones created")).toBeVisible();
  await expect(page.getByRole("link", { name: "+ New" })).toHaveAttribute("href", `/workflows/${id}/milestones/new`);
  await expectAccessible(page);

  await api.template(id, name);
  await page.goto(`/workflows/${id}/milestones`);
  await expect(page.getByText("No active milestones")).toBeVisible();
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name }) });
  await expect(card).toContainText("Application created");
  const activate = await askConfirmation(page, card.getByRole("button", { name: `Activate ${name}` }));
  await expect(activate.getByRole("heading", { name: "Activate template" })).toBeVisible();
  // With JavaScript the card is pending while the confirmed request is in flight (held back here for a moment).
  const slowPost = /\/workflows\/[^/?]+\/milestones\?/;
  if (js()) {
    await page.route(slowPost, async (route) => {
      if (route.request().method() === "POST") await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
  }
  await activate.getByRole("button", { name: "Activate" }).click();
  if (js()) {
    await expect(card).toHaveAttribute("aria-busy", "true");
    await expect(card).toContainText("Activating…");
  }
  await toastSays(page, `'${name}' activated`);
  if (js()) await page.unroute(slowPost);
  await expect(page.locator(".template-card[aria-busy]")).toHaveCount(0);
  await expect(page.getByText("No inactive milestones")).toBeVisible();
  await expect(page.getByRole("region", { name: /^Active/ }).getByRole("heading", { name })).toBeVisible();
  await expectAccessible(page);

  const suspend = await askConfirmation(page, page.getByRole("button", { name: `Suspend ${name}` }));
  await expect(suspend.getByRole("heading", { name: "Deactivate template" })).toBeVisible();
  await suspend.getByRole("button", { name: "Suspend" }).click();
  await toastSays(page, `'${name}' deactivated`);
  await expect(page.getByText("No active milestones")).toBeVisible();

  // Import: the 'Paste import string' modal with Cancel and Import (a section of the page without JavaScript).
  await page.getByRole("link", { name: "Import", exact: true }).click();
  const importing = dialog(page, "Import milestone template");
  await expect(importing.getByLabel("Paste import string")).toBeVisible();
  if (js()) {
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`/workflows/${id}/milestones$`));
    await page.getByRole("link", { name: "Import", exact: true }).click();
  } else {
    await importing.getByRole("link", { name: "Cancel" }).click();
    await expect(page.getByRole("region", { name: "Import milestone template" })).toHaveCount(0);
    await page.getByRole("link", { name: "Import", exact: true }).click();
  }
  // With JavaScript the page's data reloads after the refusal, its toast already shown: held back 1 s here, what is
  // typed meanwhile is not marked with the refusal's error once the reload ends (the button is usable again).
  const reload = /\/milestones\?import=1&_data=routes%2F_app\.workflows\.%24id\.milestones$/;
  if (js()) await page.route(reload, async (route) => {
    if (route.request().method() === "GET") await new Promise((r) => setTimeout(r, 1000));
    await route.fallback();
  });
  await dialog(page, "Import milestone template").getByLabel("Paste import string").fill("nope");
  await dialog(page, "Import milestone template").getByRole("button", { name: "Import" }).click();
  await toastSays(page, "Import failed");
  await toastSays(page, "Reason: import string is invalid");
  const second = unique("Filing receipt");
  await dialog(page, "Import milestone template")
    .getByLabel("Paste import string")
    .fill(JSON.stringify({ title: second, events: [{ code: "portfolio.application.created" }] }));
  if (js()) {
    await expect(dialog(page, "Import milestone template").getByRole("button", { name: "Import" })).not.toHaveAttribute("aria-disabled", "true");
    await expect(dialog(page, "Import milestone template").getByLabel("Paste import string")).not.toHaveAttribute("aria-invalid", "true");
    await page.unroute(reload);
  }
  await dialog(page, "Import milestone template").getByRole("button", { name: "Import" }).click();
  await toastSays(page, "Import successful");
  await toastSays(page, "Milestone was created");
  await expect(page.getByRole("heading", { name: second })).toBeVisible();

  // BACK goes to the list; at 390 px the cards fit.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByRole("link", { name: "BACK", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Workflows" })).toBeVisible();
});

test("workflows.read alone sees no write control; without it, 'Nothing here :('", async ({ page, request, browser }) => {
  test.slow();
  const api = await upstream(request);
  const title = unique("Visible");
  const id = await api.workflow(title, [unique("V").toUpperCase()]);
  const name = unique("Read only");
  await api.template(id, name);
  const admin = await adminApi(request);
  const reader = `${unique("reader")}@example.com`;
  await admin.createUser({ email: reader, permissions: ["workflows.read"] });
  await signIn(page, reader, "secret-123");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workflows" }).click();
  await page.goto(`/workflows?q=${encodeURIComponent(title)}`);
  const row = page.getByRole("row").filter({ hasText: title });
  await expect(row.getByRole("link", { name: `Export ${title}` })).toBeVisible();
  await expect(page.getByRole("link", { name: "+ new" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Import workflow" })).toHaveCount(0);
  for (const action of ["Make default", "Delete"]) await expect(row.getByRole("button", { name: `${action} ${title}` })).toHaveCount(0);
  await expect(row.getByRole("link", { name: `Clone ${title}` })).toHaveCount(0);
  await row.getByRole("link", { name: `Edit ${title}` }).click();
  await expect(page.getByLabel("Title")).toBeDisabled();
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
  await page.goto(`/workflows/${id}`);
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page.getByRole("link", { name: "+ New" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: `Activate ${name}` })).toHaveCount(0);
  await expectAccessible(page);

  const outsider = `${unique("outsider")}@example.com`;
  await admin.createUser({ email: outsider, permissions: ["portfolio.read"] });
  const context = await browser.newContext({ javaScriptEnabled: js() });
  const other = await context.newPage();
  await signIn(other, outsider, "secret-123");
  await expect(other.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workflows" })).toHaveCount(0);
  for (const url of ["/workflows", `/workflows/${id}`, `/workflows/${id}/milestones`]) {
    await other.goto(url);
    await expect(other.getByText("Nothing here :(")).toBeVisible();
  }
  await context.close();
});
