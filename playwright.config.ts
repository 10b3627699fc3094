import { defineConfig } from "@playwright/test";

/** E2E_PORT and BUILD_DIR let several runs go side by side (each its own server, data and build). */
const PORT = Number(process.env.E2E_PORT ?? 3199);
const BUILD_DIR = process.env.BUILD_DIR || "build";
const DATA_DIR = `.cache/e2e-data-${PORT}`;
export const BASE_URL = `http://localhost:${PORT}`;

/** The administrator the e2e server is seeded with. */
export const E2E_ADMIN = { email: "admin@e2e.test", password: "e2e-admin-password" };

const chromiumFlags = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  // Generous: the no-JS axe checks open a second page, and CI shares two cores.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: BASE_URL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: chromiumFlags },
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    { name: "no-js", use: { javaScriptEnabled: false } },
  ],
  webServer: {
    // A fresh data directory each run: the server seeds the administrator on its empty database.
    command: `rm -rf ${DATA_DIR} && node ${BUILD_DIR}/server.js`,
    url: `${BASE_URL}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      NODE_ENV: "production",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATA_DIR,
      BUILD_DIR,
      SESSION_SECRET: "e2e-session-secret-0123456789abcdef",
      COOKIE_SECURE: "false",
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      FEEDBACK_URL: "https://feedback.example.com/board",
      LOG_REQUESTS: "false",
    },
    stdout: "ignore",
    stderr: "pipe",
  },
});
