import { expect } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { parseIdpMetadata } from "~/auth/saml-idp.server";
import type { SsoContext } from "~/auth/sso-context";
import { createUpstream, type Upstream } from "../../upstream/src/app";
import { testContext, testHandler, tokenOnce } from "../helpers/app";
import type { SsoOptions } from "../../upstream/src/sso/routes";
import { startOidcIdp, type OidcIdp } from "../../e2e/peers/oidc-idp";
import { createTestIdp, type TestIdp } from "../../e2e/peers/saml-idp";

const ADMIN = { email: "admin@sso.test", password: "admin-password" };
export const PUBLIC_URL = "http://localhost";
const SERVICE_SECRET = "test-service-secret-0123456789abcdef0123";
const OIDC_CLIENT = { id: "backoffice", secret: "backoffice-client-secret" };


/**
 * One browser: a cookie jar per host. Requests to PUBLIC_URL go to the Remix handler (in process); anything else over
 * real HTTP (the identity providers on loopback). Redirects are not followed unless asked.
 */
export class Agent {
  private readonly jars = new Map<string, Map<string, string>>();
  constructor(private readonly app: SsoApp) {}

  private jar(url: URL) {
    let jar = this.jars.get(url.host);
    if (!jar) this.jars.set(url.host, (jar = new Map()));
    return jar;
  }

  cookie(url: string, name: string): string | undefined {
    return this.jar(new URL(url, PUBLIC_URL)).get(name);
  }

  setCookie(url: string, name: string, value: string) {
    this.jar(new URL(url, PUBLIC_URL)).set(name, value);
  }

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const target = new URL(url, PUBLIC_URL);
    const jar = this.jar(target);
    const headers = new Headers({ Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") });
    let body: string | undefined;
    if (init.form) {
      headers.set("Content-Type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(init.form).toString();
    }
    const method = init.method ?? (init.form ? "POST" : "GET");
    const response =
      target.origin === PUBLIC_URL
        ? await this.app.handle(new Request(target, { method, headers, body }))
        : await fetch(target, { method, headers, body, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === "") jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }

  /** Follows redirects from `url` until a non-redirect answer or `stopAt` (a URL prefix) is the next location. */
  async follow(url: string, stopAt?: string): Promise<{ response: Response; url: string }> {
    let current = url;
    for (let i = 0; i < 20; i++) {
      const response = await this.request(current);
      const location = response.headers.get("Location");
      if (response.status < 300 || response.status >= 400 || !location) return { response, url: current };
      const next = new URL(location, current.startsWith("http") ? current : PUBLIC_URL).href;
      if (stopAt && next.startsWith(stopAt)) return { response, url: next };
      current = next;
    }
    throw new Error("too many redirects");
  }
}

export type SsoApp = {
  upstream: Upstream;
  context: AppLoadContext;
  oidc: OidcIdp | null;
  saml: TestIdp | null;
  /** What the upstream logged (why a sign-in was refused). */
  logs: string[];
  handle(request: Request): Promise<Response>;
  agent(): Agent;
  call(path: string, init?: RequestInit): Promise<Response>;
  adminToken(): Promise<string>;
  createUser(email: string, firstName?: string, lastName?: string): Promise<string>;
  userCount(): Promise<number>;
  close(): Promise<void>;
};

/** The back office and its embedded upstream with single sign-on configured against real test peers. */
export async function startSsoApp(
  options: { oidc?: boolean; saml?: boolean; oidcIssuer?: string } = { oidc: true, saml: true },
): Promise<SsoApp> {
  const dir = mkdtempSync(path.join(tmpdir(), "backoffice-sso-"));
  const oidc =
    options.oidc && !options.oidcIssuer
      ? await startOidcIdp({
          port: 0,
          clientId: OIDC_CLIENT.id,
          clientSecret: OIDC_CLIENT.secret,
          redirectUris: [`${PUBLIC_URL}/microsoft.html`],
        })
      : null;
  const saml = options.saml ? await createTestIdp("http://127.0.0.1:9") : null;
  const issuer = options.oidcIssuer ?? oidc?.issuer;
  const ssoOptions: SsoOptions = {
    serviceSecret: SERVICE_SECRET,
    oidc: issuer
      ? { issuer, clientId: OIDC_CLIENT.id, clientSecret: OIDC_CLIENT.secret, label: "Sign in with Microsoft", allowHttp: true }
      : undefined,
    saml: saml ? { label: "Sign in with OKTA" } : undefined,
  };
  const logs: string[] = [];
  const upstream = createUpstream({
    dataDir: dir,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    log: (m) => logs.push(m),
    sso: ssoOptions,
  });
  const sso: SsoContext = {
    publicUrl: PUBLIC_URL,
    serviceSecret: SERVICE_SECRET,
    saml: saml
      ? {
          spEntityId: `${PUBLIC_URL}/auth/saml/metadata.xml`,
          acsUrl: `${PUBLIC_URL}/saml-callback.html`,
          idp: parseIdpMetadata(saml.metadata),
          clockSkewMs: 60_000,
        }
      : null,
  };
  const context = testContext(upstream, { sso });
  const app: SsoApp = {
    upstream,
    context,
    oidc,
    saml,
    logs,
    handle: await testHandler(context),
    agent: () => new Agent(app),
    call: (p, init) => context.upstream(p, init),
    adminToken: tokenOnce(context, ADMIN),
    async createUser(email, firstName = "Grace", lastName = "Hopper") {
      const r = await app.call("/api/auth/users", {
        method: "POST",
        headers: { Authorization: `Bearer ${await app.adminToken()}`, "Content-Type": "application/json" },
        body: JSON.stringify({ email, firstName, lastName, password: "secret-123" }),
      });
      if (r.status !== 201) throw new Error(`create user: ${r.status} ${await r.text()}`);
      return ((await r.json()) as { id: string }).id;
    },
    async userCount() {
      const r = await app.call("/api/auth/users?pageSize=200", {
        headers: { Authorization: `Bearer ${await app.adminToken()}` },
      });
      return ((await r.json()) as { total: number }).total;
    },
    async close() {
      upstream.close();
      await oidc?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return app;
}

/** The sign-in screen as a browser sees it after a redirect there (its toast included). */
async function loginPageText(agent: Agent): Promise<string> {
  const response = await agent.request("/login");
  return response.text();
}

/**
 * Refused: `response` sends the browser back to the sign-in screen, which shows the `failed` toast ("Failed to Sign
 * in with …"), and the browser is not signed in.
 */
export async function expectSignInRefused(agent: Agent, response: Response, failed: string): Promise<void> {
  expect(response.status).toBe(302);
  expect(response.headers.get("Location")).toBe("/login");
  expect(agent.cookie("/", "__session")).toBeUndefined();
  const page = await loginPageText(agent);
  expect(page).toContain(failed);
  expect(page).toContain("Please, try again later or contact our development team.");
  const home = await agent.request("/");
  expect(home.status).toBe(302);
  expect(home.headers.get("Location")).toBe("/login");
}

/** Signed in: `response` redirects (`status`) to `location`, and the shell greets the user by `name`. */
export async function expectSignedIn(
  agent: Agent,
  response: Response,
  expected: { status: number; location: string; name: string },
): Promise<void> {
  expect(response.status).toBe(expected.status);
  expect(response.headers.get("Location")).toBe(expected.location);
  const home = await agent.request("/");
  expect(home.status).toBe(200);
  expect(await home.text()).toContain(`Hello, <!-- -->${expected.name}`);
}
