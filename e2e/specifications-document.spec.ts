import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { patentDocx } from "../tests/fixtures/docx";
import type { Request } from "@playwright/test";
import { ADMIN, expect, expectAccessible, signIn, test, unique } from "./fixtures";

/** The uploaded document is kept on the server; a reload keeps it and its context object; Run posts its id. */
test("the specification's document survives a reload", async ({ page, request }) => {
  const login = await request.post("/api/auth/login", { data: { email: ADMIN.email, password: ADMIN.password } });
  const { token } = (await login.json()) as { token: string };
  const created = await request.post("/api/specifications/", {
    headers: { Authorization: `Bearer ${token}` },
    data: { name: unique("Doc"), type: "claims", template: "{{upper title}}" },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const name = `${unique("widget")}.docx`;
  const file = path.join(tmpdir(), name);
  const bytes = await patentDocx();
  writeFileSync(file, bytes);

  await signIn(page);
  await page.goto(`/specifications/${id}`);
  if (test.info().project.name === "js") await expect(page.getByTestId("monaco-editor")).toBeVisible({ timeout: 15_000 });
  await page.getByLabel("Word document (.docx)").setInputFiles(file);
  await page.getByRole("button", { name: "Upload document" }).click();
  await expect(page.getByTestId("context-object")).toContainText('"claimNumber": 5');
  await expect(page).toHaveURL(/\?document=/);

  await page.reload();
  const link = page.getByRole("link", { name, exact: true });
  await expect(link).toBeVisible();
  await expect(page.getByTestId("context-object")).toContainText('"claimNumber": 5');
  await expectAccessible(page);
  // The name links to the upload itself, streamed back byte for byte.
  const download = await page.request.get((await link.getAttribute("href"))!);
  expect(download.status()).toBe(200);
  expect(Buffer.compare(await download.body(), Buffer.from(bytes))).toBe(0);

  const posted: Request[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST") posted.push(r);
  });
  await page.getByRole("button", { name: "Run" }).click();
  await expect(page.getByTestId("sample-output")).toContainText("SPRING-LOADED WIDGET");
  expect(posted.length).toBeGreaterThan(0);
  for (const r of posted) {
    // The document is 9 KB (12 KB as base64): Run posts its id, the template and a few fields.
    expect((await r.sizes()).requestBodySize).toBeLessThan(4_000);
    const body = r.postDataBuffer()?.toString("latin1");
    if (body) expect(body).toContain('name="documentId"');
  }
});
