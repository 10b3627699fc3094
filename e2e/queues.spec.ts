/**
 * The processing, USPTO and FIP dashboards against the fake patent office and docket system
 * (e2e/peers/start.ts, upstream/src/patent-office/demo.ts). Both projects share one server: every test leaves the
 * queues running.
 */
import type { Page } from "@playwright/test";
import { ADMIN, askConfirmation, expect, expectAccessible, signIn, slowScripts, test } from "./fixtures";

const js = () => test.info().project.name === "js";
const toast = (page: Page) => page.getByTestId("toast").last();

/** Reloads (the no-JavaScript Refresh link) until `check` passes: the worker runs in the background. */
async function refreshUntil(page: Page, check: () => Promise<void>) {
  await expect(async () => {
    await page.getByRole("link", { name: "Refresh" }).click();
    await check();
  }).toPass({ timeout: 15_000, intervals: [300, 500, 1000] });
}

test("processing: schedule pasted ids, watch them complete or fail, inspect, requeue, delete, pause and resume", async ({ page }) => {
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Portfolio dashboard" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Processing dashboard" })).toBeVisible();
  // Default filters: in progress and failed.
  await expect(page.getByRole("checkbox", { name: "In progress" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Failed" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Completed" })).not.toBeChecked();

  // Processing updates portfolio applications: 16123456 is made one (the other project may have made it already: 409).
  const made = await page.request.post("/portfolio/add", {
    form: { application: JSON.stringify({ id: "16123456", title: "Before the office" }) },
    headers: { Origin: new URL(page.url()).origin },
    maxRedirects: 0,
  });
  expect([302, 409]).toContain(made.status());
  await page.getByLabel("Applications to schedule").fill("Please add 16123456, PCTUS2024054321 and 16000404 (again: 16123456).");
  if (!js()) await page.getByRole("button", { name: "Show ids" }).click();
  await expect(page.getByText("3 application ids found:")).toBeVisible();
  await page.getByRole("button", { name: "Schedule" }).click();
  await expect(toast(page)).toContainText("Schedule completed");
  // The box is emptied once the schedule has gone through.
  if (js()) await expect(page.getByLabel("Applications to schedule")).toHaveValue("");

  // Show completed too (remembered in the prefs cookie).
  await page.getByRole("checkbox", { name: "Completed" }).check();
  if (!js()) await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/status=completed/);
  const row = (id: string) => page.getByRole("row").filter({ has: page.getByText(id, { exact: true }) });
  await refreshUntil(page, async () => {
    await expect(row("16123456")).toContainText("Completed");
    await expect(row("16000404")).toContainText("Failed");
  });
  await page.goto("/processing");
  await expect(page.getByRole("checkbox", { name: "Completed" })).toBeChecked();
  await expect(page.locator(".summary-pie svg")).toBeVisible();
  await expect(page.getByRole("table").filter({ hasText: "Total" }).getByRole("row", { name: /Completed/ })).toBeVisible();
  await expectAccessible(page);

  // Inspect: with JavaScript a modal dialog that takes focus, closes on Escape and gives focus back to the row; without
  // it a panel whose Close goes back to the list. The stack names project files, never the server's paths.
  const inspect = row("16000404").getByRole("link", { name: "Inspect" });
  await inspect.click();
  const dialog = page.getByRole("dialog", { name: "Inspect: 16000404" });
  await expect(dialog).toContainText("The patent office has no application 16000404.");
  expect(await dialog.innerText()).not.toContain(process.cwd());
  if (js()) {
    await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(page).not.toHaveURL(/inspect=/);
    await expect(inspect).toBeFocused();
    await inspect.press("Enter");
    await dialog.getByRole("button", { name: "Close" }).click();
  } else {
    await dialog.getByRole("link", { name: "Close" }).click();
  }
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await row("16123456").getByRole("button", { name: "Requeue" }).click();
  await expect(toast(page)).toContainText("Requeue completed");
  // Delete asks first.
  const step = await askConfirmation(page, row("16000404").getByRole("button", { name: "Delete" }));
  await expect(step).toContainText("Delete 16000404?");
  await step.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page)).toContainText("Delete completed");
  await expect(row("16000404")).toHaveCount(0);

  await page.getByRole("button", { name: "Pause" }).click();
  await expect(toast(page)).toContainText("Processing paused");
  await expect(page.getByText("Paused", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Resume" }).click();
  await expect(toast(page)).toContainText("Processing resumed");
  await expect(page.getByRole("button", { name: "Pause" })).toBeVisible();
});

test("USPTO: sync with confirmation, priority while queued, unmatched removal, customer numbers, configuration", async ({ page }) => {
  await signIn(page);
  await page.goto("/uspto");
  await expect(page.getByRole("heading", { level: 1, name: "USPTO dashboard" })).toBeVisible();

  // Priority: only while waiting, so pause the downloads first.
  await page.getByRole("button", { name: "Pause" }).click();
  await expect(toast(page)).toContainText("Processing paused");
  await page.getByLabel("Applications to schedule").fill("PCT/US24/012345");
  if (!js()) await page.getByRole("button", { name: "Show ids" }).click();
  await page.getByRole("button", { name: "Schedule" }).click();
  await expect(toast(page)).toContainText("Schedule completed");
  await page.getByRole("checkbox", { name: "Requeued" }).check();
  if (!js()) await page.getByRole("button", { name: "Apply" }).click();
  await page.getByRole("checkbox", { name: "Queued", exact: true }).check();
  if (!js()) await page.getByRole("button", { name: "Apply" }).click();
  await page.getByLabel("Priority PCT/US24/012345").fill("7");
  await page.getByRole("row").filter({ hasText: "PCT/US24/012345" }).getByRole("button", { name: "Update" }).click();
  await expect(toast(page)).toContainText("Update completed");
  await expect(page.getByLabel("Priority PCT/US24/012345")).toHaveValue("7");
  await page.getByRole("button", { name: "Resume" }).click();
  await expect(toast(page)).toContainText("Processing resumed");

  // Sync: confirmation first (a dialog with JavaScript, an inline step without).
  await page.getByRole("button", { name: "Sync", exact: true }).click();
  await expect(page.getByText("Sync with the patent office?")).toBeVisible();
  await page.getByRole("button", { name: "Sync", exact: true }).last().click();
  await expect(toast(page)).toContainText("Sync completed");

  // Only the 'Is unmatched' filter: 'Remove unmatched (n)' appears once downloads matched nothing.
  for (const s of ["In progress", "Failed", "Queued", "Requeued"]) await page.getByRole("checkbox", { name: s, exact: true }).uncheck();
  await page.getByRole("checkbox", { name: "Is unmatched" }).check();
  if (!js()) await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/unmatched=1/);
  const remove = page.getByRole("button", { name: /^Remove unmatched \(\d+\)$/ });
  await refreshUntil(page, async () => expect(remove).toBeVisible());
  await expectAccessible(page);
  await remove.click();
  await expect(page.getByText("Delete the unmatched applications?")).toBeVisible();
  await page.getByRole("button", { name: /^Remove unmatched/ }).last().click();
  await expect(toast(page)).toContainText(/Delete completed \(\d+ removed\)/);

  await page.getByRole("button", { name: "Sync customer numbers" }).click();
  await page.getByRole("button", { name: "Sync customer numbers" }).last().click();
  await expect(toast(page)).toContainText("Updated:");

  await page.getByRole("link", { name: "Customer Summary" }).click();
  await expect(page.getByRole("table", { name: "Customer Summary" }).or(page.getByText("No jobs yet."))).toBeVisible();

  // Configuration.
  await page.getByRole("link", { name: "Configuration" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "USPTO configuration" })).toBeVisible();
  const cron = page.getByRole("textbox", { name: "Schedule (cron)" });
  await cron.fill("61 * * * *");
  await page.getByRole("button", { name: "Update" }).first().click();
  await expect(page.getByText("Invalid minute: 61")).toBeVisible();
  await cron.fill("0 2 * * 1-5");
  await page.getByRole("button", { name: "Update" }).first().click();
  await expect(toast(page)).toContainText("Update completed");
  await expect(page.getByText("Current: 0 2 * * 1-5")).toBeVisible();
  await expect(page.locator(".next-runs li")).toHaveCount(5);
  await page.getByRole("textbox", { name: "Request time-out (ms)" }).fill("90000");
  await page.getByRole("button", { name: "Update" }).nth(1).click();
  await expect(page.getByText("Current: 120000 ms")).toBeVisible();
  await page.getByRole("textbox", { name: "Too-many-requests delay" }).fill("90");
  await page.getByRole("button", { name: "Update" }).nth(3).click();
  await expect(page.getByText("Add time unit: d (days), h (hours), m (minutes), s (seconds)")).toBeVisible();
  await page.getByRole("combobox", { name: "Presets" }).nth(1).selectOption({ label: "No delay" });
  await page.getByRole("button", { name: "Update" }).nth(3).click();
  await expect(toast(page)).toContainText("Update completed");
  await expect(page.getByText("Current: No delay")).toBeVisible();
  await page.getByRole("textbox", { name: "Download repeat" }).fill("1d 2h 30m 15s");
  await page.getByRole("button", { name: "Update" }).nth(2).click();
  await expect(page.getByText("Current: 1d 2h 30m 15s")).toBeVisible();
  await expectAccessible(page);
  // Back to the defaults for the other project.
  await cron.fill("* * * * *");
  await page.getByRole("button", { name: "Update" }).first().click();
  await expect(page.getByText("Current: * * * * *")).toBeVisible();
});

test("FIP: synchronized and failed matters, inspect, sync matter, delete, filters remembered", async ({ page, request }) => {
  // A matter the docket system does not have: its sync fails (set up through the API).
  const login = await request.post("/api/auth/login", { data: { email: ADMIN.email, password: ADMIN.password } });
  const { token } = (await login.json()) as { token: string };
  const failed = await request.get("/api/fip/matters/byFipId/FIP:M-404", { headers: { Authorization: `Bearer ${token}` } });
  expect(((await failed.json()) as { synchronized: boolean }).synchronized).toBe(false);
  const synced = await request.get("/api/fip/matters/byFipId/FIP:M-1001", { headers: { Authorization: `Bearer ${token}` } });
  expect(((await synced.json()) as { synchronized: boolean }).synchronized).toBe(true);

  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "FIP" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "FIP dashboard" })).toBeVisible();
  const row = (text: string) => page.getByRole("row").filter({ hasText: text });
  const link = row("ACME-0001").getByRole("link", { name: /FIP:M-1001/ });
  await expect(link).toHaveAttribute("href", "https://fip.example.com/matters/M-1001");
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(row("FIP:M-404")).toContainText("Failed");
  await expect(page.locator(".summary-pie svg")).toBeVisible();
  await expectAccessible(page);

  await row("FIP:M-404").getByRole("link", { name: "Inspect" }).click();
  await expect(page.getByRole("dialog", { name: "Synchronization failed" })).toContainText("The docket system has no matter FIP:M-404.");
  await page.getByRole("dialog").getByRole(js() ? "button" : "link", { name: "Close" }).click();
  if (js()) await expect(row("FIP:M-404").getByRole("link", { name: "Inspect" })).toBeFocused();

  await row("FIP:M-404").getByRole("button", { name: "Sync matter" }).click();
  await expect(toast(page)).toContainText("Sync for FIP:M-404 () is failed.");
  await row("ACME-0001").getByRole("button", { name: "Sync matter" }).click();
  await expect(toast(page)).toContainText("Sync completed");

  await page.getByRole("checkbox", { name: "Synchronized" }).uncheck();
  if (!js()) await page.getByRole("button", { name: "Apply" }).click();
  await expect(row("ACME-0001")).toHaveCount(0);
  await page.goto("/fip");
  await expect(page.getByRole("checkbox", { name: "Synchronized" })).not.toBeChecked();
  const step = await askConfirmation(page, row("FIP:M-404").getByRole("button", { name: "Delete" }));
  await step.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page)).toContainText("Delete completed");
  await expect(row("FIP:M-404")).toHaveCount(0);
  await page.getByRole("checkbox", { name: "Synchronized" }).check();
  if (!js()) await page.getByRole("button", { name: "Apply" }).click();
  await expect(row("ACME-0001")).toBeVisible();
});

test("auto-refresh stops at the first failed refresh and says so, with Resume", async ({ page }) => {
  test.skip(!js(), "auto-refresh needs JavaScript; without it the Refresh link and the read time show (other tests)");
  await page.clock.install();
  await signIn(page);
  await page.goto("/processing");
  await expect(page.getByText("Refreshes every 30 s.")).toBeVisible();
  await page.route(/_data=/, (route) => route.fulfill({ status: 500, body: "{}" }));
  await page.clock.fastForward(31_000);
  await expect(page.getByText("Auto-refresh stopped: the last refresh failed.")).toBeVisible();
  await page.unroute(/_data=/);
  await page.getByRole("button", { name: "Resume auto-refresh" }).click();
  await expect(page.getByText("Refreshes every 30 s.")).toBeVisible();
});

test("ids pasted before the page hydrated are found once it has", async ({ page }) => {
  test.skip(!js(), "hydration is JavaScript's");
  await signIn(page);
  const scripts = await slowScripts(page);
  await page.goto("/processing");
  await page.getByLabel("Applications to schedule").fill("16123456 and PCTUS2024054321");
  await scripts.notYet();
  await scripts.hydrated();
  await expect(page.getByText("2 application ids found:")).toBeVisible();
  await expect(page.getByLabel("Applications to schedule")).toHaveValue("16123456 and PCTUS2024054321");
});

test("row actions stay in view at 1280 px; at 390 px the table scrolls inside its focusable region", async ({ page }) => {
  await signIn(page);
  // Rows on every dashboard: processing and USPTO jobs (paused, so they wait), FIP matters from the docket feed.
  for (const [url, ids] of [["/processing", "16000501 16000502"], ["/uspto", "16000601 16000602"]] as const) {
    await page.goto(`${url}?filtered=1&status=queued&status=requeued&status=failed&status=inprogress&status=completed`);
    await page.getByLabel("Applications to schedule").fill(ids);
    if (!js()) await page.getByRole("button", { name: "Show ids" }).click();
    await page.getByRole("button", { name: "Schedule" }).click();
    await expect(toast(page)).toContainText("Schedule completed");
  }
  // Every status: by now the worker may have run the jobs against the fake office, whatever they became.
  const every = ["queued", "requeued", "inprogress", "failed", "completed", "dead", "delete", "warning"].map((s) => `status=${s}`).join("&");
  for (const url of [`/processing?filtered=1&${every}`, `/uspto?filtered=1&${every}&sort=newest`, "/fip"]) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(url);
    const firstRow = page.locator(".data-table tbody tr").first();
    await expect(firstRow).toBeVisible();
    const actions = firstRow.locator("td.actions");
    const box = (await actions.boundingBox())!;
    // Wholly inside the window and inside the table's frame, with no sideways scrolling done.
    const frame = (await page.locator(".queue-main .table-wrap").boundingBox())!;
    expect(box.x + box.width, url).toBeLessThanOrEqual(Math.min(1280, frame.x + frame.width) + 1);
    expect(box.x, url).toBeGreaterThanOrEqual(frame.x);
    await expect(actions.getByRole("button", { name: "Delete" })).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);

    await page.setViewportSize({ width: 390, height: 844 });
    const region = page.getByRole("region", { name: /scrolls sideways/ });
    await expect(region).toHaveAttribute("tabindex", "0");
    expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  }
});

test("find a job by application id; select rows for Requeue selected and Delete selected", async ({ page }) => {
  await signIn(page);
  const id = js() ? ["16000701", "16000702"] : ["16000801", "16000802"];
  await page.goto("/processing?filtered=1&status=queued&status=requeued&status=completed&status=failed");
  // Paused, so the jobs wait while they are selected; resumed whatever happens, for the other tests.
  const post = (intent: string) => page.request.post("/processing", { form: { intent }, headers: { Origin: new URL(page.url()).origin }, maxRedirects: 0 });
  expect((await post("pause")).status()).toBe(302);
  try {
    await selectAndAct(page, id);
  } finally {
    await post("resume");
  }
});

async function selectAndAct(page: Page, id: string[]) {
  await page.goto("/processing?filtered=1&status=queued&status=requeued&status=completed&status=failed");
  await page.getByLabel("Applications to schedule").fill(id.join(" "));
  if (!js()) await page.getByRole("button", { name: "Show ids" }).click();
  await page.getByRole("button", { name: "Schedule" }).click();
  await expect(toast(page)).toContainText("Schedule completed");

  await page.getByRole("searchbox", { name: "Application id" }).fill(id[0]!.slice(0, 7));
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page).toHaveURL(new RegExp(`q=${id[0]!.slice(0, 7)}`));
  await expect(page.getByRole("checkbox", { name: `Select ${id[0]}` })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: `Select ${id[1]}` })).toBeVisible();
  await expect(page.getByText("Total: 2")).toBeVisible();

  await page.getByRole("checkbox", { name: `Select ${id[0]}` }).check();
  await page.getByRole("checkbox", { name: `Select ${id[1]}` }).check();
  if (js()) await expect(page.getByText("2 selected", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Requeue selected" }).click();
  await expect(toast(page)).toContainText("2 jobs requeued.");

  await page.getByRole("checkbox", { name: `Select ${id[1]}` }).check();
  const step = await askConfirmation(page, page.getByRole("button", { name: "Delete selected" }));
  await expect(step).toContainText("Delete the selected job?");
  await step.getByRole("button", { name: "Delete selected" }).click();
  await expect(toast(page)).toContainText("1 job deleted.");
  await expect(page.getByRole("checkbox", { name: `Select ${id[1]}` })).toHaveCount(0);
  await expectAccessible(page);
}
