import { adminApi, expect, expectAccessible, signIn, test, unique } from "./fixtures";

const js = () => test.info().project.name === "js";

test("authorization: number formats checked, saved, shown in the people list", async ({ page, request }) => {
  const api = await adminApi(request);
  const email = `${unique("auth")}@e2e.test`;
  const user = await api.createUser({ email });
  await signIn(page);
  await page.goto(`/people/${user.id}`);
  await page.getByRole("link", { name: "Manage authorization" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Authorization" })).toBeVisible();
  await expectAccessible(page);
  const role = js() ? "combobox" : "textbox";
  const registration = page.getByRole(role, { name: "Registration Number(s)" });
  const customer = page.getByRole(role, { name: "Customer Number(s)" });
  const problem = '"12a" is not a registration number (5 or 6 digits).';
  if (js()) {
    await registration.fill("12345");
    await registration.press("Enter");
    await registration.fill("12a");
    await registration.press("Enter");
    await expect(page.getByText(problem)).toBeVisible();
    await registration.fill("");
    await customer.fill("99887766");
    await customer.press("Enter");
  } else {
    await registration.fill("12345; 12a");
    await customer.fill("99887766");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText(problem)).toBeVisible();
    await expect(registration).toHaveValue("12345; 12a");
    await expectAccessible(page);
    await registration.fill("12345");
  }
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Authorization updated");
  await page.goto(`/people?q=${encodeURIComponent(email)}`);
  const row = page.getByRole("row").filter({ hasText: email });
  await expect(row).toContainText("12345");
  await expect(row).toContainText("99887766");
});
