import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ADMIN, harness } from "./helpers";

const run = promisify(execFile);

describe("npm run reset-password (a lost administrator password)", () => {
  it("sets a new password on DATA_DIR's database and signs the user out everywhere", async () => {
    const h = await harness();
    const before = h.adminToken;
    const { stdout } = await run("npx", ["tsx", "scripts/reset-password.ts", ADMIN.email.toUpperCase()], {
      env: { ...process.env, DATA_DIR: h.dir, NEW_PASSWORD: "brand-new-secret" },
    });
    expect(stdout).toMatch(new RegExp(`^New password for ${ADMIN.email.toUpperCase()}: brand-new-secret \\(1 session signed out\\)`));
    expect((await h.call("GET", "/api/auth/permissions/list", { token: before })).status).toBe(401);
    expect((await h.call("POST", "/api/auth/login", { token: null, body: { email: ADMIN.email, password: ADMIN.password } })).status).toBe(401);
    expect((await h.call("POST", "/api/auth/login", { token: null, body: { email: ADMIN.email, password: "brand-new-secret" } })).status).toBe(200);
  });

  it("says which email it did not find, and refuses a short password", async () => {
    const h = await harness();
    await expect(run("npx", ["tsx", "scripts/reset-password.ts", "nobody@example.com"], { env: { ...process.env, DATA_DIR: h.dir } })).rejects.toMatchObject({
      stderr: expect.stringContaining("No user with the email nobody@example.com"),
    });
    await expect(
      run("npx", ["tsx", "scripts/reset-password.ts", ADMIN.email], { env: { ...process.env, DATA_DIR: h.dir, NEW_PASSWORD: "short" } }),
    ).rejects.toMatchObject({ stderr: expect.stringContaining("at least 6 characters") });
  });
}, 60_000);
