import type { Page } from "@playwright/test";
import { expect, expectAccessible, signIn, test, unique, askConfirmation } from "./fixtures";

/**
 * The rules, messages, reports, applications and e-mail connector screens end to end, with and without JavaScript:
 * messages (recipient validation, preview, clone, delete), rules (the deadline preview, clone), reports (edit), the
 * applications page (installer upload, download, removal) and the e-mail connector.
 */
const js = () => test.info().project.name === "js";
const nav = (page: Page, name: string) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true }).click();
const toast = (page: Page) => page.getByTestId("toast");

/** A tag input's text box: a combobox with JavaScript (beside its list of chips), a text field without. */
const tagBox = (page: Page, label: string) =>
  js() ? page.getByRole("combobox", { name: label }) : page.getByLabel(label, { exact: true });

/** A tag input: with JavaScript each value becomes a chip (Enter); without, the field takes "a; b". */
async function tags(page: Page, label: string, values: string[]) {
  const input = tagBox(page, label);
  if (!js()) return input.fill(values.join("; "));
  for (const value of values) {
    await input.fill(value);
    await input.press("Enter");
  }
}

test("messages: recipients checked, preview, create, clone and delete", async ({ page }) => {
  const name = unique("Message");
  await signIn(page);
  await nav(page, "Messages");
  await expect(page.getByRole("heading", { level: 1, name: "Messages" })).toBeVisible();
  await page.getByRole("link", { name: "+ new" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New Message" })).toBeVisible();

  await tags(page, "To", ["not an address"]);
  if (!js()) await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("“not an address” is not an e-mail address or a recipient variable.")).toBeVisible();
  if (!js()) await expect(page.getByText("Name is required")).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel("Name", { exact: true }).fill(`  ${name}  `);
  await tags(page, "To", ["@clients.primary.work"]);
  await page.getByLabel("Subject").fill("Deadline for {{matter.number}}");
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByRole("region", { name: "Preview" })).toContainText("Deadline for ACME-0042-US");
  await page.getByLabel("Subject").fill("{{#if matter}}unclosed");
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByRole("region", { name: "Preview" }).getByRole("alert")).toContainText("The template cannot be rendered:");
  await page.getByLabel("Subject").fill("Deadline for {{matter.number}}");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(toast(page)).toContainText("Create completed");

  await page.goto(`/messages?q=${encodeURIComponent(name)}`);
  await page.getByRole("button", { name: `Clone ${name}` }).click();
  await expect(toast(page)).toContainText("Clone completed");
  await expect(page.getByRole("heading", { level: 1, name: "Edit Message" })).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(`${name} (copy)`);
  const confirm = await askConfirmation(page, page.getByRole("button", { name: "Delete" }));
  await expect(confirm.getByText("This action can't be undone.")).toBeVisible();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page)).toContainText("Delete completed");
});

test("rules: the deadline preview, create and clone", async ({ page }) => {
  const name = unique("Rule");
  await signIn(page);
  await nav(page, "Rules");
  await page.getByRole("link", { name: "+ new" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New Rule" })).toBeVisible();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Name is required")).toBeVisible();

  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Jurisdiction").fill("US");
  await page.getByLabel("Triggering event").fill("Office Action mailed");
  const deadline = page.getByRole("group", { name: "Deadline 1" });
  await deadline.getByLabel("Label").fill("Response");
  await deadline.getByLabel("Amount").fill("3");
  await deadline.getByLabel("Extensions").fill("3");
  await page.getByLabel("Trigger date").fill("2026-01-15");
  await page.getByRole("button", { name: "Preview deadlines" }).click();
  const preview = page.getByRole("region", { name: "Deadline preview" }).getByRole("table");
  // Three months after Thursday 15 January 2026: Wednesday 15 April; three one-month extensions up to 15 July.
  await expect(preview.getByRole("row", { name: /Response/ })).toContainText("2026-04-15");
  await expect(preview.getByRole("row", { name: /Response/ })).toContainText("2026-07-15");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(toast(page)).toContainText("Create completed");

  await page.goto(`/rules?q=${encodeURIComponent(name)}`);
  await page.getByRole("button", { name: `Clone ${name}` }).click();
  await expect(toast(page)).toContainText("Clone completed");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(`${name} (copy)`);
});

test("reports: edit a report's description", async ({ page }) => {
  const description = unique("Open docketing tasks");
  await signIn(page);
  await page.goto("/reports");
  await expect(page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();
  await page.getByRole("link", { name: "Edit Docketing" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit report" })).toBeVisible();
  await expect(page.getByLabel("Identifier")).toHaveValue("docketing");
  await page.getByLabel("Description").fill(description);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(toast(page)).toContainText("Update completed");
  await expect(page).toHaveURL(/\/reports$/);
  await page.getByRole("link", { name: "Edit Docketing" }).click();
  await expect(page.getByLabel("Description")).toHaveValue(description);
});

test("applications and the e-mail connector: installer upload, download, removal; fast-lane addresses", async ({ page }) => {
  await signIn(page);
  await nav(page, "Applications");
  await expect(page.getByRole("heading", { level: 2, name: "Application Crawler" })).toBeVisible();
  await page.getByLabel("Installer file").setInputFiles({ name: "CrawlerSetup.exe", mimeType: "application/octet-stream", buffer: Buffer.from("MZ e2e installer") });
  await page.getByLabel("Version").fill("3.1.0");
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(toast(page)).toContainText("Update completed");
  await expect(page.getByText("Version 3.1.0 · 16 bytes")).toBeVisible();
  await expectAccessible(page);
  const href = await page.getByRole("link", { name: "Download the setup installer" }).getAttribute("href");
  const download = await page.request.get(href!);
  expect(await download.text()).toBe("MZ e2e installer");
  await (await askConfirmation(page, page.getByRole("button", { name: "Remove installer" }))).getByRole("button", { name: "Remove" }).click();
  await expect(toast(page)).toContainText("Delete completed");
  await expect(page.getByText("The setup installer is not available yet.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Download the setup installer" })).toHaveCount(0);

  await nav(page, "E-mail connector");
  await expect(page.getByRole("heading", { level: 1, name: "E-mail connector" })).toBeVisible();
  await page.getByLabel("Fast lane: check for updates").check();
  const addresses = "Fast-lane e-mail addresses";
  if (js()) {
    // Whatever an earlier run saved (the no-JS project shares the server): one chip at a time, the list shrinking.
    const chips = page.getByRole("list", { name: addresses }).getByRole("button");
    for (let n = await chips.count(); n > 0; n--) {
      await chips.first().click();
      await expect(chips).toHaveCount(n - 1);
    }
  }
  await tags(page, addresses, ["nope"]);
  if (!js()) await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("“nope” is not a well-formed e-mail address.")).toBeVisible();
  await tagBox(page, addresses).fill("");
  await tags(page, addresses, ["Paralegal@Example.com", "paralegal@example.com", "docketing@example.com"]);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(toast(page)).toContainText("Update completed");
  await expect(page.getByText("Last saved")).toBeVisible();
  await expectAccessible(page);
});
