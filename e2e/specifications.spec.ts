import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { patentDocx } from "../tests/fixtures/docx";
import { ADMIN, adminApi, expect, expectAccessible, signIn, test, unique, askConfirmation } from "./fixtures";

const js = () => test.info().project.name === "js";

test("create a specification, upload a document, run it, see output and JSON, edit, delete", async ({ page }) => {
  const name = unique("Spec");
  const file = path.join(tmpdir(), `${unique("widget")}.docx`);
  writeFileSync(file, await patentDocx());
  await signIn(page);
  await page.goto("/specifications");
  await expectAccessible(page);
  await page.getByRole("link", { name: "+ new" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New Specification" })).toBeVisible();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Type").selectOption("claims");
  await page.getByLabel("Template").fill("{{upper title}}");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByTestId("toast")).toContainText("Create completed");
  if (js()) await expect(page.getByTestId("monaco-editor")).toBeVisible({ timeout: 15_000 });
  await page.getByLabel("Word document (.docx)").setInputFiles(file);
  await page.getByRole("button", { name: "Upload document" }).click();
  await expect(page.getByTestId("context-object")).toContainText('"claimNumber": 5');
  await page.getByRole("button", { name: "Run" }).click();
  await expect(page.getByTestId("sample-output")).toContainText("SPRING-LOADED WIDGET");
  await expect(page.getByTestId("json-view")).toContainText('"paragraphs"');
  await expectAccessible(page);
  await page.screenshot({ path: `test-results/specification-${test.info().project.name}.png`, fullPage: true });

  await page.getByRole("link", { name: "Edit", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit Specification" })).toBeVisible();
  const confirm = await askConfirmation(page, page.getByRole("button", { name: "Delete" }));
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page).toHaveURL(/\/specifications$/);
  await expect(page.getByTestId("toast")).toContainText("Specification deleted");
});

test("the type filter is remembered across visits", async ({ page }) => {
  await signIn(page);
  await page.goto("/specifications");
  await page.getByLabel("Flowchart").uncheck();
  if (!js()) await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/filtered=1/);
  await page.goto("/specifications");
  await expect(page.getByLabel("Flowchart")).not.toBeChecked();
  await expect(page.getByLabel("Abstract")).toBeChecked();
  await page.getByLabel("Flowchart").check();
  if (!js()) await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/type=flowchart/);
});

test("read-only editor for a user with specifications.read only", async ({ page, request }) => {
  const api = await adminApi(request);
  const email = `${unique("reader")}@e2e.test`;
  await api.createUser({ email, permissions: ["specifications.read"] });
  const login = await request.post("/api/auth/login", { data: { email: ADMIN.email, password: ADMIN.password } });
  const { token } = (await login.json()) as { token: string };
  const created = await request.post("/api/specifications", {
    headers: { Authorization: `Bearer ${token}` },
    data: { name: unique("Readonly"), type: "abstract", template: "{{title}}" },
  });
  const { id } = (await created.json()) as { id: string };
  await signIn(page, email, "secret-123");
  await page.goto(`/specifications/${id}`);
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
  await expect(page.getByText("changing it needs the specifications.write permission")).toBeVisible();
  if (!js()) await expect(page.getByRole("textbox", { name: "Template" })).not.toBeEditable();
  await expectAccessible(page);
});

test("the template stays editable in its textarea when the code editor cannot load", async ({ page }) => {
  test.skip(!js(), "Monaco loads only with JavaScript; without it the textarea is the editor (covered above)");
  const name = unique("NoMonaco");
  await page.route("**/monaco/**", (route) => route.abort());
  await signIn(page);
  await page.goto("/specifications/create");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Type").selectOption("summary");
  await page.getByLabel("Template").fill("{{title}}");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const template = page.getByRole("textbox", { name: "Template" });
  await expect(template).toHaveValue("{{title}}");
  await page.waitForTimeout(1500); // Monaco's load has failed by now
  await expect(page.getByTestId("monaco-editor")).toBeHidden();
  await template.fill("{{lower title}}");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Update completed" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("textbox", { name: "Template" })).toHaveValue("{{lower title}}");
});
