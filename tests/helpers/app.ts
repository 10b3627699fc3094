import { afterAll, afterEach, beforeAll } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "@remix-run/node";
import { embeddedTransport } from "../../server/upstream-transport";
import { createUpstream, type Upstream } from "../../upstream/src/app";

export const ADMIN = { email: "admin@test.local", password: "admin-password" };

let buildPromise: Promise<ServerBuild> | null = null;
/** The Remix build made by `remix build` (npm run test:unit builds first), in BUILD_DIR (default ./build). */
export function loadBuild(): Promise<ServerBuild> {
  const file = path.resolve(process.env.BUILD_DIR || "build", "index.js");
  buildPromise ??= import(pathToFileURL(file).href) as Promise<ServerBuild>;
  return buildPromise;
}

/** A cookie jar for one browser. */
export class Browser {
  private cookies = new Map<string, string>();
  constructor(private readonly app: TestApp) {}

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  store(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async get(url: string): Promise<Response> {
    return this.send(new Request(`http://localhost${url}`, { headers: { Cookie: this.header() } }));
  }

  async post(url: string, fields: Record<string, string | string[]>): Promise<Response> {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one);
    return this.send(
      new Request(`http://localhost${url}`, {
        method: "POST",
        headers: { Cookie: this.header(), "Content-Type": "application/x-www-form-urlencoded" },
        body,
      }),
    );
  }

  /** Posts `fields` as multipart/form-data (a form with a file input). */
  async postMultipart(url: string, fields: Record<string, string | File | (string | File)[]>): Promise<Response> {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one);
    return this.send(new Request(`http://localhost${url}`, { method: "POST", headers: { Cookie: this.header() }, body }));
  }

  async send(request: Request): Promise<Response> {
    const response = await this.app.handle(request);
    this.store(response);
    return response;
  }

  /** Signs in through the sign-in form; throws unless it lands. */
  async signIn(email: string, password: string): Promise<void> {
    const response = await this.post("/login", { email, password, redirectTo: "/" });
    if (response.status !== 302) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  }
}

export type TestApp = {
  upstream: Upstream;
  context: AppLoadContext;
  handle(request: Request): Promise<Response>;
  browser(): Browser;
  /** Bearer token of the administrator, for setting up data through the upstream. */
  adminToken(): Promise<string>;
  /** A call to the upstream as the administrator (setting up data), with `body` as JSON when given. */
  adminApi(method: string, path: string, body?: unknown): Promise<Response>;
  /** Creates a user through the upstream with the given permissions; returns its id. */
  createUser(email: string, permissions: string[], password?: string): Promise<string>;
  close(): void;
};

/**
 * The load context server.ts makes, over the in-process `upstream` (its `direct` path, as in production); `extra`
 * adds to it (single sign-on: `sso`; another transport: `upstream`).
 */
export function testContext(upstream: Upstream, extra: Partial<AppLoadContext> = {}): AppLoadContext {
  return {
    upstream: embeddedTransport(upstream),
    nonce: "test-nonce",
    clientAddress: "127.0.0.1",
    sessionSecrets: ["test-session-secret-0123456789"],
    cookieSecure: false,
    ...extra,
  };
}

/** The built Remix handler over `context`, given a copy of it per request as server.ts does (per-request caches). */
export async function testHandler(context: AppLoadContext): Promise<(request: Request) => Promise<Response>> {
  const handler = createRequestHandler(await loadBuild(), "production");
  return (request) => handler(request, { ...context });
}

/** A bearer token of `who`, asked of the upstream once and then remembered. */
export function tokenOnce(context: AppLoadContext, who: { email: string; password: string }): () => Promise<string> {
  let token: Promise<string> | null = null;
  return () =>
    (token ??= upstreamToken(context.upstream, who).catch((error: unknown) => {
      token = null;
      throw error;
    }));
}

/** An app over a fresh data directory; `setup` fills it before the upstream opens it (a large portfolio, say). */
export async function startApp(setup?: (dataDir: string) => void): Promise<TestApp> {
  const dir = mkdtempSync(path.join(tmpdir(), "backoffice-test-"));
  setup?.(dir);
  const upstream = createUpstream({
    dataDir: dir,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    feedbackUrl: "https://feedback.example.com/board",
    log: () => {},
  });
  const context = testContext(upstream);
  const handle = await testHandler(context);

  const app: TestApp = {
    upstream,
    context,
    handle,
    browser: () => new Browser(app),
    adminToken: tokenOnce(context, ADMIN),
    async adminApi(method, p, body) {
      const headers: Record<string, string> = { Authorization: `Bearer ${await app.adminToken()}` };
      if (body !== undefined) headers["Content-Type"] = "application/json";
      return context.upstream(p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    },
    async createUser(email, permissions, password = "secret-123") {
      const user = { email, firstName: "Test", lastName: "User", password };
      const created = await app.adminApi("POST", "/api/auth/users", user);
      if (created.status !== 201) throw new Error(`create user: ${created.status} ${await created.text()}`);
      const { id } = (await created.json()) as { id: string };
      const patched = await app.adminApi("PATCH", `/api/auth/users/${id}`, { id, permissions });
      if (patched.status !== 200) throw new Error(`set permissions: ${patched.status} ${await patched.text()}`);
      return id;
    },
    close() {
      upstream.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return app;
}

/**
 * The usual start of an app test file: `const { app, admin } = appAsAdmin();` starts the app before the file's tests,
 * with `admin` a browser signed in as the administrator, and closes it after them. Use both inside tests and hooks.
 */
export function appAsAdmin(): { app: TestApp; admin: Browser } {
  let started: TestApp | undefined;
  const app = new Proxy({} as TestApp, {
    get: (_, key: keyof TestApp) => {
      if (!started) throw new Error("The app starts in beforeAll: use it inside tests and hooks.");
      return started[key];
    },
  });
  const admin = new Browser(app);
  beforeAll(async () => {
    started = await startApp();
    await admin.signIn(ADMIN.email, ADMIN.password);
  });
  afterAll(() => started?.close());
  return { app, admin };
}

/** A started app and a browser signed in as the administrator. */
export async function startAppAsAdmin(): Promise<{ app: TestApp; admin: Browser }> {
  const app = await startApp();
  const admin = app.browser();
  await admin.signIn(ADMIN.email, ADMIN.password);
  return { app, admin };
}

/** A bearer token from the upstream's login, for setting up data through the API. */
export async function upstreamToken(
  upstream: AppLoadContext["upstream"],
  who: { email: string; password: string },
): Promise<string> {
  const r = await upstream("/api/auth/login", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(who),
  });
  if (r.status !== 200) throw new Error(`login as ${who.email}: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { token: string }).token;
}

/** A short random suffix for unique emails and names. */
export const uniq = () => Math.random().toString(36).slice(2, 8);

/** A browser signed in as a new user holding `permissions` (a permission test's usual start). */
export async function browserWith(app: TestApp, permissions: string[]): Promise<Browser> {
  const email = `user-${uniq()}@test.local`;
  await app.createUser(email, permissions);
  const browser = app.browser();
  await browser.signIn(email, "secret-123");
  return browser;
}

/**
 * Makes the app's upstream answer `status` with `{message}` to `method` on paths matching `path` (the query ignored),
 * as a refusal after the page's own checks passed; everything else goes through. The next test gets the real
 * upstream back: call it inside a test, as `afterEach` restores it (`restore` does at once).
 */
export function refusingUpstream(app: TestApp): {
  refuse: (method: string, path: RegExp, status: number, message: string) => void;
  restore: () => void;
} {
  let undo: (() => void) | null = null;
  const restore = () => {
    undo?.();
    undo = null;
  };
  afterEach(restore);
  const refuse = (method: string, path: RegExp, status: number, message: string) => {
    restore();
    const real = app.context.upstream;
    app.context.upstream = async (p, init) =>
      (init?.method ?? "GET") === method && path.test(p.split("?")[0]!)
        ? new Response(JSON.stringify({ message }), { status, headers: { "Content-Type": "application/json" } })
        : real(p, init);
    undo = () => {
      app.context.upstream = real;
    };
  };
  return { refuse, restore };
}

/** Page HTML with the entities React writes for quotes and ampersands turned back into characters. */
export const unescapeHtml = (html: string) => html.replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&");

/**
 * A page's scripts as the browser will run them (app/lib/scripts-after-paint.server.ts): the module preloads and the
 * inline module script, read back from the after-first-paint bootstrap (or from the HTML itself, had it none).
 */
export function pageScripts(html: string): { deferred: boolean; preloads: string[]; module: string | null } {
  const bootstrap = /\.forEach\(function\(h\)\{[\s\S]*?s\.textContent=("(?:[^"\\]|\\.)*")/.exec(html);
  if (bootstrap) {
    const hrefs = /(\[[^\]]*\])\.forEach\(function\(h\)/.exec(html);
    return { deferred: true, preloads: JSON.parse(hrefs?.[1] ?? "[]") as string[], module: JSON.parse(bootstrap[1]!) as string };
  }
  const preloads = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"\/>/g)].map((m) => m[1]!);
  const module = /<script(?: nonce="[^"]*")? type="module" async="">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? null;
  return { deferred: false, preloads, module };
}
