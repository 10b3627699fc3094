import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_DIR, startProductionServer, startServer, waitUntilUp, type RunningServer } from "./helpers/server";

/** The real process: `node $BUILD_DIR/server.js` (npm run test:unit builds first). */
const PORT = 3900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${PORT}`;
const admin = { email: "admin@server.test", password: "server-password" };

describe("server.ts", () => {
  let dataDir: string;
  let server: RunningServer;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "backoffice-server-"));
    server = startProductionServer(PORT, dataDir, admin);
    await waitUntilUp(base, server);
  });
  afterAll(async () => {
    server.child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Signs in as the administrator through the sign-in form and answers the session cookie. */
  async function signInCookie(): Promise<string> {
    const login = await fetch(`${base}/login`, {
      method: "POST",
      body: new URLSearchParams({ ...admin, redirectTo: "/" }),
      redirect: "manual",
    });
    expect(login.status).toBe(302);
    return login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  }

  /** node:http, not fetch: the bytes as sent, not decompressed on the way. */
  const rawRequest = (method: string, encoding: string, path: string, cookie = "") =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const req = httpRequest(`${base}${path}`, { method, headers: { Cookie: cookie, "Accept-Encoding": encoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      req.end();
    });

  it("prints how to sign in on a fresh database", () => {
    expect(server.output()).toContain(`Sign in at http://localhost:${PORT}/login as ${admin.email} with password ${admin.password}`);
  });

  it("answers /healthz from the database", async () => {
    const r = await fetch(`${base}/healthz`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ status: "ok" });
  });

  it("sends an enforced CSP with a fresh nonce per response, and the other security headers", async () => {
    const a = await fetch(`${base}/login`);
    const b = await fetch(`${base}/login`);
    const csp = a.headers.get("content-security-policy")!;
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(a.headers.get("content-security-policy-report-only")).toBeNull();
    expect(csp).not.toBe(b.headers.get("content-security-policy"));
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    expect(await a.text()).toContain(`nonce="${nonce}"`);
    expect(a.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(a.headers.get("x-content-type-options")).toBe("nosniff");
    expect(a.headers.get("x-powered-by")).toBeNull();
    // Browsing-context isolation stays; the origin-keyed process hint does not (scripts-after-paint.md).
    expect(a.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect(a.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(a.headers.get("origin-agent-cluster")).toBeNull();
  });

  it("caches fingerprinted assets for a year", async () => {
    const html = await (await fetch(`${base}/login`)).text();
    const asset = /src="(\/build\/[^"]+\.js)"|href="(\/build\/[^"]+\.css)"/.exec(html)!;
    const r = await fetch(`${base}${asset[1] ?? asset[2]}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toContain("max-age=31536000");
    expect(r.headers.get("cache-control")).toContain("immutable");
  });

  it("sends each script and stylesheet as the build compressed it (brotli 11 / gzip 9 copies), not compressed again", async () => {
    const html = (await rawRequest("GET", "identity", "/people", await signInCookie())).body.toString("utf8");
    // The stylesheet's link, and the scripts the page's loader imports (named in an inline script).
    const assets = [...new Set([...html.matchAll(/"(\/build\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!))];
    expect(assets.some((a) => a.endsWith(".css"))).toBe(true);
    expect(assets.filter((a) => a.endsWith(".js")).length).toBeGreaterThan(3);
    for (const asset of assets) {
      const file = path.join(BUILD_DIR, "client", asset.slice("/build".length));
      const source = readFileSync(file);
      if (source.byteLength < 1024) continue; // not worth compressing: sent as it is
      const br = await rawRequest("GET", "gzip, deflate, br, zstd", asset);
      expect(br.status).toBe(200);
      expect(br.headers["content-encoding"], asset).toBe("br");
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(br.headers["cache-control"]).toContain("immutable");
      expect(br.headers["content-type"]).toMatch(asset.endsWith(".css") ? /^text\/css/ : /^(?:text|application)\/javascript/);
      // The very bytes on disk, with their length up front: nothing was compressed for this request.
      expect(br.body.equals(readFileSync(`${file}.br`)), asset).toBe(true);
      expect(br.headers["content-length"]).toBe(String(br.body.byteLength));
      expect(brotliDecompressSync(br.body).equals(source)).toBe(true);
      const gz = await rawRequest("GET", "gzip", asset);
      expect(gz.headers["content-encoding"]).toBe("gzip");
      expect(gz.body.equals(readFileSync(`${file}.gz`))).toBe(true);
      expect(gunzipSync(gz.body).equals(source)).toBe(true);
      const plain = await rawRequest("GET", "identity", asset);
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.body.equals(source)).toBe(true);
    }
  });

  it("serves /api with a bearer token only: a session cookie is not enough", async () => {
    const cookie = await signInCookie();
    expect((await fetch(`${base}/people`, { headers: { Cookie: cookie } })).status).toBe(200);
    expect((await fetch(`${base}/api/auth/users`, { headers: { Cookie: cookie } })).status).toBe(401);
    const { token } = (await (
      await fetch(`${base}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(admin) })
    ).json()) as { token: string };
    expect((await fetch(`${base}/api/auth/users`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it("sends a page's document whole, gzipped once at level 3, and a HEAD without a body", async () => {
    const cookie = await signInCookie();
    const raw = (method: string, encoding: string, path = "/people") => rawRequest(method, encoding, path, cookie);
    const plain = await raw("GET", "identity");
    expect(plain.status).toBe(200);
    const html = plain.body.toString("utf8");
    expect(html.startsWith("<!DOCTYPE html><html")).toBe(true);
    expect(html.trimEnd().endsWith("</html>")).toBe(true);
    expect(html).toContain("admin@server.test");
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    const gzipped = await raw("GET", "gzip, deflate, br, zstd");
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.headers.vary).toMatch(/accept-encoding/i);
    // One body compressed in one go: its length is known up front, not streamed in chunks (server/document-encoding.ts).
    expect(gzipped.headers["content-length"]).toBe(String(gzipped.body.byteLength));
    expect(gzipped.headers["transfer-encoding"]).toBeUndefined();
    const text = gunzipSync(gzipped.body).toString("utf8");
    // Same page, apart from the nonce.
    const withoutNonce = (page: string) => page.replace(/nonce="[^"]*"/g, "");
    expect(withoutNonce(text) === withoutNonce(html)).toBe(true);
    // Level 3: exactly the bytes zlib writes at that level for this page (level 6 writes fewer).
    expect(gzipped.body.subarray(10).equals(gzipSync(gunzipSync(gzipped.body), { level: 3 }).subarray(10))).toBe(true);
    // A client that takes brotli alone still gets a compressed page (the middleware's path), and the same page.
    const brotli = await raw("GET", "br");
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(withoutNonce(brotliDecompressSync(brotli.body).toString("utf8")) === withoutNonce(html)).toBe(true);
    // gzip refused: the bytes as they are.
    const refused = await raw("GET", "gzip;q=0, identity");
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(withoutNonce(refused.body.toString("utf8")) === withoutNonce(html)).toBe(true);
    const head = await raw("HEAD", "gzip");
    expect(head.status).toBe(200);
    expect(head.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(head.body.byteLength).toBe(0);
    // Anything but a rendered page keeps the middleware's streamed compression: a loader's data, here.
    const data = await raw("GET", "gzip", "/people?_data=routes%2F_app.people._index");
    expect(data.status).toBe(200);
    expect(data.headers["content-encoding"]).toBe("gzip");
    expect(data.headers["transfer-encoding"]).toBe("chunked");
    expect(JSON.parse(gunzipSync(data.body).toString("utf8"))).toHaveProperty("page");
  });

  it("answers bad input to the upstream with 400, never 500", async () => {
    const r = await fetch(`${base}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{" });
    expect(r.status).toBe(400);
  });

  it("stops on SIGTERM", async () => {
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });
});

describe("start-up configuration", () => {
  it("refuses to start in production without SESSION_SECRET, saying why", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "backoffice-server-"));
    const s = startServer(PORT + 100, dir, { NODE_ENV: "production" });
    expect(await s.exited).toBe(1);
    expect(s.output()).toContain("SESSION_SECRET: is required in production");
    rmSync(dir, { recursive: true, force: true });
  });

  it("a development start says in one line what is not configured, without a wall of warnings", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "backoffice-server-"));
    const s = startServer(PORT + 150, dir, { ADMIN_PASSWORD: "dev-password", PORTFOLIO_DEMO: "0" });
    try {
      await waitUntilUp(`http://127.0.0.1:${PORT + 150}`, s);
      const lines = s.output().trim().split("\n");
      expect(lines.filter((l) => /is not set/.test(l))).toEqual([]);
      expect(lines.filter((l) => l.startsWith("Not configured, as usual in development: SESSION_SECRET"))).toHaveLength(1);
    } finally {
      s.child.kill();
      await s.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("names a bad variable", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "backoffice-server-"));
    const s = startServer(PORT, dir, { PORT: "not-a-port" });
    expect(await s.exited).toBe(1);
    expect(s.output()).toContain("PORT:");
    rmSync(dir, { recursive: true, force: true });
  });
});
