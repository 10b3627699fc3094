import { defineConfig } from "@playwright/test";

/** E2E_PORT and BUILD_DIR let several runs go side by side (each its own server, data and build). */
const PORT = Number(process.env.E2E_PORT ?? 3199);
const BUILD_DIR = process.env.BUILD_DIR || "build";
const DATA_DIR = `.cache/e2e-data-${PORT}`;
export const BASE_URL = `http://localhost:${PORT}`;

/**
 * The test identity providers (e2e/peers/start.ts), started before the server, which is configured with them:
 * an OpenID provider (oidc-provider) and a SAML IdP signing with a certificate generated at start.
 */
const OIDC_IDP_PORT = Number(process.env.E2E_OIDC_PORT ?? PORT + 100);
const SAML_IDP_PORT = Number(process.env.E2E_SAML_PORT ?? PORT + 200);
const PEERS_DIR = `.cache/e2e-peers-${PORT}`;
/** Issue 13: the fake patent office and docket system (e2e/peers/start.ts). */
const FAKE_OFFICE_PORT = PORT + 300;
const FAKE_DOCKET_PORT = PORT + 400;
const SAML_IDP_METADATA = `${PEERS_DIR}/saml-idp-metadata.xml`;
export const E2E_OIDC = { clientId: "backoffice-e2e", clientSecret: "backoffice-e2e-client-secret" };

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
  // Per port: Playwright empties its output directory at start, and parallel runs must not empty each other's.
  outputDir: `test-results/port-${PORT}`,
  // A whole scenario (several screens, each no-JS axe check in a second page): ~40 s alone on two cores, and more
  // when the other worker is busy; a bound on the test, not on any one wait (those are `expect.timeout`).
  timeout: 120_000,
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
  webServer: [
    {
      command: `rm -rf ${PEERS_DIR} && npx tsx e2e/peers/start.ts`,
      url: `http://127.0.0.1:${SAML_IDP_PORT}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        APP_URL: BASE_URL,
        OIDC_IDP_PORT: String(OIDC_IDP_PORT),
        OIDC_CLIENT_ID: E2E_OIDC.clientId,
        OIDC_CLIENT_SECRET: E2E_OIDC.clientSecret,
        SAML_IDP_PORT: String(SAML_IDP_PORT),
        SAML_IDP_METADATA_OUT: SAML_IDP_METADATA,
        FAKE_OFFICE_PORT: String(FAKE_OFFICE_PORT),
        FAKE_DOCKET_PORT: String(FAKE_DOCKET_PORT),
      },
      stdout: "ignore",
      stderr: "pipe",
    },
    {
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
        // Single sign-on against the test identity providers above.
        PUBLIC_URL: BASE_URL,
        OIDC_ISSUER: `http://127.0.0.1:${OIDC_IDP_PORT}`,
        OIDC_CLIENT_ID: E2E_OIDC.clientId,
        OIDC_CLIENT_SECRET: E2E_OIDC.clientSecret,
        SAML_IDP_METADATA,
        // Issue 13: the fakes above (keys in upstream/src/patent-office/demo.ts).
        USPTO_API_URL: `http://127.0.0.1:${FAKE_OFFICE_PORT}`,
        USPTO_API_KEY: "demo-uspto-key",
        USPTO_CUSTOMER_NUMBERS: "100001",
        FIP_API_URL: `http://127.0.0.1:${FAKE_DOCKET_PORT}`,
        FIP_API_KEY: "demo-fip-key",
        FIP_MATTER_URL: "https://fip.example.com/matters/{id}",
      },
      stdout: "ignore",
      stderr: "pipe",
    },
  ],
});
