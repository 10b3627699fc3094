import { expect, expectAccessible, signIn, test, unique, ADMIN } from "./fixtures";

/** The resource kit's editor: a record deleted by someone else while it is being edited. */
test("a record deleted while editing: the failure toast, the input kept, not the not-found view", async ({ page, request }) => {
  const login = await request.post("/api/auth/login", { data: { email: ADMIN.email, password: ADMIN.password } });
  const { token } = (await login.json()) as { token: string };
  const headers = { Authorization: `Bearer ${token}` };
  const created = await request.post("/api/organizations/", { headers, data: { name: unique("Gone") } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  await signIn(page);
  await page.goto(`/organizations/${id}/edit`);
  await expect(page.getByRole("heading", { level: 1, name: "Edit Organization" })).toBeVisible();
  expect((await request.delete(`/api/organizations/${id}`, { headers })).status()).toBe(204);

  const typed = unique("Typed");
  await page.getByLabel("Name").fill(typed);
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByTestId("toast")).toContainText("Failed to update organization");
  await expect(page.getByTestId("toast")).toContainText("Organization not found.");
  await expect(page.getByRole("heading", { level: 1, name: "Edit Organization" })).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue(typed);
  await expect(page.getByText("Nothing here")).toHaveCount(0);
  await expectAccessible(page);
});
