import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORM_LIMITS } from "../server/guard";
import { LIMIT_MESSAGES } from "@contract/limits";
import { RULE_LIMITS } from "@contract/rules";
import { startProductionServer, waitUntilUp, type RunningServer } from "./helpers/server";

/**
 * The request guard against the real process (`node $BUILD_DIR/server.js`): the form guard in front of Remix
 * (server/guard.ts) and the upstream's body limits (upstream/src/lib/body-limit.ts).
 */
// Disjoint from the other real-server tests run alongside: server.test 3900–4089, fuzz 4100–4179, upload budget 4600–4899.
const PORT = 4200 + Math.floor(Math.random() * 400);
// The ALLOWED_HOSTS server's, disjoint from the ranges above and the health test's 4900–4989.
const ORIGIN_PORT = 5100 + Math.floor(Math.random() * 200);
const base = `http://127.0.0.1:${PORT}`;
const admin = { email: "admin@guard.test", password: "guard-password" };
const EVIL = "https://evil.example";

let server: RunningServer;
let dataDir: string;
let cookie = "";
let adminId = "";

/** Peak resident set size of the server (kB). */
const vmHWM = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, "utf8"))![1]);

async function signIn(password = admin.password, headers: Record<string, string> = {}) {
  const r = await fetch(`${base}/login`, {
    method: "POST",
    headers: { Origin: base, ...headers },
    body: new URLSearchParams({ email: admin.email, password, redirectTo: "/" }),
    redirect: "manual",
  });
  return { status: r.status, cookie: r.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ") };
}

/** A page POST (same origin unless told otherwise) with the admin's cookie. */
function post(url: string, body: BodyInit | null, headers: Record<string, string> = {}) {
  return fetch(`${base}${url}`, {
    method: "POST",
    headers: { Origin: base, Cookie: cookie, ...headers },
    body,
    redirect: "manual",
  });
}

async function total(route: string): Promise<number> {
  const r = await fetch(`${base}/${route}?_data=routes%2F_app.${route}._index`, { headers: { Cookie: cookie } });
  return ((await r.json()) as { total: number }).total;
}

/** Raw HTTP: headers and `send` bytes of body, answer as soon as it comes (the rest of the body is never sent). */
function rawPost(url: string, headers: Record<string, string | number>, send: number, chunked = false) {
  return new Promise<{ status: number; body: string; ms: number }>((resolve, reject) => {
    const started = performance.now();
    const at = () => Math.round(performance.now() - started);
    let status = 0;
    let body = "";
    const req = http.request(`${base}${url}`, { method: "POST", agent: false, headers: { Origin: base, ...headers } }, (res) => {
      status = res.statusCode!;
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status, body, ms: performance.now() - started }));
      res.on("error", reject);
    });
    // The server answers 413 and closes once it has read enough: a write still under way may then fail (EPIPE,
    // ECONNRESET) before the whole answer is read. That is the refusal working; the answer decides if its status line
    // came (then what arrived of the body is kept), and the error stands if nothing came within 3 s.
    let closed = false;
    req.on("error", (e: NodeJS.ErrnoException) => {
      closed = true;
      const failed = () => (status ? resolve({ status, body, ms: performance.now() - started }) : reject(new Error(`${e.code ?? e.message} at ${at()} ms after ${sent} bytes sent, no answer`)));
      if (e.code === "EPIPE" || e.code === "ECONNRESET") setTimeout(failed, 3000);
      else failed();
    });
    req.flushHeaders();
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    const pump = () => {
      while (sent < send && !closed) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (chunked) req.end();
    };
    pump();
  });
}

/**
 * A client at the socket level that goes on sending after the answer, as a slow or busy client does: `before` bytes
 * of a chunked body, then (once the whole answer has come and the server had 100 ms to close) `after` bytes more,
 * then the body's end. What the client saw at each step: an error (EPIPE, ECONNRESET) means the server reset the
 * connection while the client was still sending. `declared`: the body's length in Content-Length instead (no chunks).
 */
async function lateSender(url: string, keepAlive: boolean, before: number, after: number, declared = false) {
  const socket = net.connect({ port: PORT, host: "127.0.0.1", allowHalfOpen: true });
  let answer = "";
  let error = "";
  let serverEnded = false;
  socket.on("data", (d: Buffer) => (answer += d.toString()));
  socket.on("end", () => (serverEnded = true));
  socket.on("error", (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.write(
    `POST ${url} HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\nOrigin: ${base}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
      `${declared ? `Content-Length: ${before + after}` : "Transfer-Encoding: chunked"}\r\nConnection: ${keepAlive ? "keep-alive" : "close"}\r\n\r\n`,
  );
  const block = Buffer.alloc(64 * 1024, "a");
  const chunk = declared ? block : Buffer.concat([Buffer.from("10000\r\n"), block, Buffer.from("\r\n")]);
  const send = async (bytes: number) => {
    for (let sent = 0; sent < bytes && !error && !socket.destroyed; sent += 64 * 1024) {
      if (!socket.write(chunk)) await Promise.race([new Promise((resolve) => socket.once("drain", resolve)), closed]);
    }
  };
  const until = async (done: () => boolean, ms: number) => {
    for (const end = Date.now() + ms; !done() && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 10));
  };
  await send(before);
  const complete = () => {
    const [head, body = ""] = answer.split("\r\n\r\n");
    const length = /content-length: (\d+)/i.exec(head ?? "");
    return !!length && Buffer.byteLength(body) >= Number(length[1]);
  };
  await until(() => complete() || !!error, 5_000);
  const status = Number(answer.split(" ")[1] ?? 0);
  const connection = /connection: (\S+)/i.exec(answer)?.[1]?.toLowerCase();
  await new Promise((resolve) => setTimeout(resolve, 100));
  await send(after);
  // Let a reset arrive: the kernel answers the first segment after a close with one.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const errorWhileSending = error;
  // The body's end; then the server has closed the socket: a byte more is answered with a reset, and the write
  // after it fails.
  if (!socket.destroyed && !declared) socket.write("0\r\n\r\n");
  await until(() => {
    if (!error && !socket.destroyed) socket.write("x");
    return !!error;
  }, 2_000);
  const serverClosed = serverEnded && !!error;
  socket.destroy();
  return { status, connection, answer, errorWhileSending, serverClosed };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "backoffice-guard-"));
  server = startProductionServer(PORT, dataDir, admin);
  await waitUntilUp(base, server, 30_000);
  cookie = (await signIn()).cookie;
  const people = await fetch(`${base}/people?_data=routes%2F_app.people._index`, { headers: { Cookie: cookie } });
  adminId = ((await people.json()) as { rows: { id: string }[] }).rows[0]!.id;
});

afterAll(() => {
  server.child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

const healthy = async () => expect((await fetch(`${base}/healthz`)).status).toBe(200);

describe("form guard: array indexes, field counts, field names (item 1)", () => {
  it("refuses organizations[10000000] with 400 in milliseconds; the server stays up", async () => {
    const before = vmHWM();
    for (const url of [`/people/${adminId}`, "/people/new"]) {
      const started = performance.now();
      const r = await post(url, new URLSearchParams({ email: "x@example.com", "organizations[10000000]": "x" }));
      const ms = performance.now() - started;
      expect(r.status).toBe(400);
      expect(await r.text()).toContain(`index above ${FORM_LIMITS.index}`);
      console.log(`[guard] ${url} organizations[10000000]: ${r.status} in ${ms.toFixed(1)} ms`);
      expect(ms).toBeLessThan(500);
    }
    // The same index percent-encoded, and in a multipart part's name.
    expect((await post("/people/new", "organizations%5B10000000%5D=x", { "Content-Type": "application/x-www-form-urlencoded" })).status).toBe(400);
    const form = new FormData();
    form.set("organizations[10000000]", "x");
    expect((await post(`/people/${adminId}`, form)).status).toBe(400);
    const after = vmHWM();
    console.log(`[guard] server VmHWM before ${before} kB, after ${after} kB`);
    expect(after - before).toBeLessThan(50 * 1024);
    await healthy();
  });

  it("keeps indexes up to the bound", async () => {
    const r = await post("/people/new", new URLSearchParams({ [`organizations[${FORM_LIMITS.index}]`]: "x" }));
    expect(r.status).toBe(400);
    expect(await r.text()).not.toContain("index above");
  });

  it("refuses more than 1,000 fields, names nested too deep, and names conform cannot parse", async () => {
    const many = new URLSearchParams();
    for (let i = 0; i < 1001; i++) many.append(`f${i}`, "1");
    expect((await post("/people/new", many)).status).toBe(400);
    const parts = new FormData();
    for (let i = 0; i < 1001; i++) parts.append(`f${i}`, "1");
    expect((await post(`/people/${adminId}`, parts)).status).toBe(400);
    for (const name of [Array.from({ length: 20 }, () => "a").join("."), "__proto__.x", "a]", "a..b", "x".repeat(1001)]) {
      const r = await post("/teams/new", new URLSearchParams({ [name]: "1", name: "t" }));
      expect(r.status, name).toBe(400);
    }
    await healthy();
  });
});

/**
 * While `work` runs, /healthz is asked again and again: the slowest answer (an event loop held by the work shows here),
 * and the server's peak RSS growth (MB).
 */
async function whileHealthy<T>(work: () => Promise<T>): Promise<{ result: T; slowestHealthMs: number; peakGrowthMb: number }> {
  const before = vmHWM();
  let done = false;
  let slowest = 0;
  const probing = (async () => {
    while (!done) {
      const started = performance.now();
      // A failed probe (a kept-alive connection the server closed meanwhile) counts by the time it took.
      await fetch(`${base}/healthz`).catch(() => undefined);
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  try {
    return { result: await work(), slowestHealthMs: slowest, peakGrowthMb: (vmHWM() - before) / 1024 };
  } finally {
    done = true;
    await probing;
  }
}

describe("form guard: each list by its own maximum", () => {
  it("refuses deadlines[999] on a rule's form at once: no seconds of work, no 100+ MB, /healthz answers meanwhile", async () => {
    for (const url of ["/rules/create", "/rules/some-id/edit"]) {
      const { result, slowestHealthMs, peakGrowthMb } = await whileHealthy(async () => {
        const started = performance.now();
        const r = await post(url, new URLSearchParams({ name: "R", trigger: "T", "deadlines[999].label": "x" }));
        return { status: r.status, text: await r.text(), ms: performance.now() - started };
      });
      console.log(`[guard] ${url} deadlines[999]: ${result.status} in ${result.ms.toFixed(0)} ms, slowest /healthz ${slowestHealthMs.toFixed(0)} ms, peak RSS +${peakGrowthMb.toFixed(0)} MB`);
      expect(result.status).toBe(400);
      expect(result.text).toContain(`index above ${RULE_LIMITS.deadlines}, the most "deadlines" takes`);
      expect(result.ms).toBeLessThan(1_000);
      expect(slowestHealthMs).toBeLessThan(1_000);
      expect(peakGrowthMb).toBeLessThan(50);
    }
  });

  it("refuses conform's update intent naming deadlines[99999] and an intent that is not JSON, with 400", async () => {
    const bomb = JSON.stringify({ type: "update", payload: { name: "deadlines[99999]", value: { label: "x" } } });
    const { result, slowestHealthMs } = await whileHealthy(async () => {
      const r = await post("/rules/create", new URLSearchParams({ name: "R", trigger: "T", __intent__: bomb }));
      return { status: r.status, text: await r.text() };
    });
    expect(result.status).toBe(400);
    expect(result.text).toContain("index above");
    expect(slowestHealthMs).toBeLessThan(1_000);
    const broken = await post("/rules/create", new URLSearchParams({ name: "R", __intent__: "{" }));
    expect(broken.status).toBe(400);
    expect(await broken.text()).toContain("The form's intent cannot be read.");
  });

  it("lets one row too many through to the rule's own schema, which answers with its message", async () => {
    const r = await post(`/rules/create?_data=${encodeURIComponent("routes/_app.rules.create")}`, new URLSearchParams({ name: "R", trigger: "T", [`deadlines[${RULE_LIMITS.deadlines}].label`]: "x" }));
    expect(r.status).toBe(400);
    expect(JSON.stringify(await r.json())).toContain(LIMIT_MESSAGES.tooMany("deadlines", RULE_LIMITS.deadlines));
  });
});

describe("form guard: body sizes (items 1, 3)", () => {
  it("answers 413 at once to a declared 400 MB body, reading none of it", async () => {
    for (const url of ["/login", "/prefs", "/auth/microsoft", "/saml-callback.html", `/people/${adminId}`]) {
      const r = await rawPost(url, { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": 400 * 1024 * 1024 }, 64 * 1024);
      expect(r.status, url).toBe(413);
      expect(r.body).toContain("may be at most");
      expect(r.ms).toBeLessThan(1000);
    }
    await healthy();
  });

  it("counts an undeclared (chunked) body and stops reading past 1 MB", async () => {
    const before = vmHWM();
    const r = await rawPost("/login", { "Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked" }, 4 * 1024 * 1024);
    expect(r.status).toBe(413);
    expect(vmHWM() - before).toBeLessThan(50 * 1024);
    await healthy();
  });

  it("keeps reading after a 413 until the body ends (lingering close), whether the client asked for keep-alive or not", async () => {
    for (const keepAlive of [false, true]) {
      const r = await lateSender("/login", keepAlive, 1.25 * 1024 * 1024, 2 * 1024 * 1024);
      expect(r.status, `keep-alive ${keepAlive}`).toBe(413);
      expect(r.answer).toContain("may be at most 1 MB");
      expect(r.connection).toBe("close");
      expect(r.errorWhileSending, `keep-alive ${keepAlive}: the server reset the connection while the client was still sending`).toBe("");
      expect(r.serverClosed).toBe(true);
    }
    // No connection costs more than LINGER.bytes (16 MB) read and dropped: past it, the server closes.
    const flood = await lateSender("/login", false, 1.25 * 1024 * 1024, 24 * 1024 * 1024);
    expect(flood.status).toBe(413);
    expect(flood.errorWhileSending).not.toBe("");
    await healthy();
  });

  it("bounds each upload route by its own limit", async () => {
    // 1.5 MB: too much for a page form, fine for a bot script upload.
    const big = new FormData();
    big.set("intent", "upload");
    big.set("file", new File([Buffer.alloc(1.5 * 1024 * 1024, "a")], "bot.js"));
    expect((await post("/people/new", big)).status).toBe(413);
    expect((await post(`/people/${adminId}`, big)).status).not.toBe(413);
    // A specification's document: 10 MB and the template, posted once (no base64 copy any more); 12 MB is refused
    // before reading.
    const spec = await rawPost("/specifications/x", { "Content-Type": "multipart/form-data; boundary=b", "Content-Length": 12 * 1024 * 1024 }, 0);
    expect(spec.status).toBe(413);
    expect(spec.body).toContain("sample document may be at most 11 MB");
    // The Application Crawler's installer: 1.5 MB passes the guard, 60 MB is refused before reading.
    expect((await post("/applications", big)).status).not.toBe(413);
    const installer = await rawPost("/applications", { "Content-Type": "multipart/form-data; boundary=b", "Content-Length": 60 * 1024 * 1024 }, 0);
    expect(installer.status).toBe(413);
    expect(installer.body).toContain("installer upload may be at most 51 MB");
  });
});

describe("form guard: only forms (item 8)", () => {
  const urls = () => ["/login", "/logout", "/prefs", "/people/new", `/people/${adminId}`, "/teams/new", "/organizations/new"];

  it("answers JSON, text, unknown and broken multipart bodies with 4xx, never 500", async () => {
    const bodies: [string, Record<string, string>, string][] = [
      ["json", { "Content-Type": "application/json" }, '{"name":"x"}'],
      ["text", { "Content-Type": "text/plain" }, "name=x"],
      ["none", {}, "name=x"],
      ["octets", { "Content-Type": "application/octet-stream" }, "\u0000\u0001"],
      ["multipart without boundary", { "Content-Type": "multipart/form-data" }, "--x\r\n"],
      ["broken multipart", { "Content-Type": "multipart/form-data; boundary=x" }, "garbage"],
      ["truncated multipart", { "Content-Type": "multipart/form-data; boundary=x" }, '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb'],
    ];
    for (const url of urls()) {
      for (const [what, headers, body] of bodies) {
        const r = await post(url, body, headers);
        expect(r.status, `${url} ${what}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${url} ${what}`).toBeLessThan(500);
      }
    }
    expect((await post("/people/new", '{"a":1}', { "Content-Type": "application/json" })).status).toBe(415);
    expect(server.output()).not.toContain("Could not parse content as FormData");
    await healthy();
  });

  it("answers a same-origin post whose X-Forwarded-Host differs (Remix's own origin check threw a 500)", async () => {
    const r = await post("/login", new URLSearchParams({ email: "nobody@guard.test", password: "wrong-password", redirectTo: "/" }), {
      "X-Forwarded-Host": "other.example",
    });
    expect(r.status).toBeLessThan(500);
  });

  it("takes an empty body as an empty form", async () => {
    for (const url of urls()) {
      const r = await post(url, null);
      expect(r.status, url).toBeLessThan(500);
    }
    cookie = (await signIn()).cookie; // /logout above signed out
  });
});

describe("same-origin check (item 5)", () => {
  const changePassword = () => `/people/${adminId}/change-password?_data=routes%2F_app.people.%24id.change-password`;

  it("refuses a cross-site ?_data= password change with 403 and changes nothing", async () => {
    const r = await post(changePassword(), new URLSearchParams({ password: "hijacked-password" }), { Origin: EVIL });
    expect(r.status).toBe(403);
    expect(await r.text()).toContain("Cross-site request refused");
    expect((await signIn()).status).toBe(302);
    expect((await signIn("hijacked-password")).status).not.toBe(302);
  });

  it("refuses cross-site posts to /teams/new, /organizations/new, /login and /logout", async () => {
    const [teams, organizations] = [await total("teams"), await total("organizations")];
    const tries: [string, Record<string, string>][] = [
      ["/teams/new?_data=routes%2F_app.teams.new", { name: "csrf-team" }],
      ["/teams/new", { name: "csrf-team" }],
      ["/organizations/new?_data=routes%2F_app.organizations.new", { name: "csrf-org" }],
      ["/organizations/new", { name: "csrf-org" }],
      ["/logout", {}],
    ];
    for (const [url, fields] of tries) {
      expect((await post(url, new URLSearchParams(fields), { Origin: EVIL })).status, url).toBe(403);
    }
    // Login CSRF: no session is handed out.
    const login = await signIn(admin.password, { Origin: EVIL });
    expect(login.status).toBe(403);
    expect(login.cookie).toBe("");
    expect([await total("teams"), await total("organizations")]).toEqual([teams, organizations]);
    // The cookie still works: /logout did nothing.
    expect((await fetch(`${base}/people`, { headers: { Cookie: cookie }, redirect: "manual" })).status).toBe(200);
  });

  it("without Origin, judges by Sec-Fetch-Site, then Referer; Origin: null only when same-origin", async () => {
    const form = () => new URLSearchParams({ name: "csrf-team" });
    const noOrigin = async (headers: Record<string, string>) => {
      // fetch cannot drop Origin: a raw request.
      return new Promise<number>((resolve, reject) => {
        const req = http.request(`${base}/teams/new`, { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded", ...headers } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on("error", reject);
        req.end(form().toString());
      });
    };
    expect(await noOrigin({ "Sec-Fetch-Site": "cross-site" })).toBe(403);
    expect(await noOrigin({ "Sec-Fetch-Site": "same-site" })).toBe(403);
    expect(await noOrigin({ Referer: `${EVIL}/page` })).toBe(403);
    expect(await noOrigin({ Origin: "null" })).toBe(403);
    expect(await noOrigin({ Origin: "null", "Sec-Fetch-Site": "cross-site" })).toBe(403);
    expect(await noOrigin({ Origin: `http://localhost:${PORT}` })).toBe(403);
    // Same origin, by any of them; none at all is not a browser: accepted (the action answers).
    expect(await noOrigin({ Origin: base })).not.toBe(403);
    expect(await noOrigin({ "Sec-Fetch-Site": "same-origin" })).not.toBe(403);
    expect(await noOrigin({ Referer: `${base}/teams/new` })).not.toBe(403);
    expect(await noOrigin({})).not.toBe(403);
  });

  it("lets same-origin forms through: a password change, a new team", async () => {
    const r = await post(changePassword(), new URLSearchParams({ password: "guard-password-2" }));
    expect(r.status).toBeLessThan(400);
    expect((await signIn("guard-password-2")).status).toBe(302);
    const back = await post(changePassword(), new URLSearchParams({ password: admin.password }));
    expect(back.status).toBeLessThan(400);
    cookie = (await signIn()).cookie;
    const before = await total("teams");
    const team = await post("/teams/new", new URLSearchParams({ name: `guard-team-${Date.now()}` }));
    expect(team.status).toBe(302);
    expect(team.headers.getSetCookie().length).toBeGreaterThan(0);
    expect(await total("teams")).toBe(before + 1);
  });

  it("exempts the SAML assertion consumer service (cross-site by design)", async () => {
    const r = await post("/saml-callback.html", new URLSearchParams({ SAMLResponse: "x", RelayState: "/" }), { Origin: "https://idp.example" });
    expect(r.status).not.toBe(403);
    expect(r.status).toBeLessThan(500);
  });

  it("leaves GET alone, whatever the Origin", async () => {
    const r = await fetch(`${base}/people`, { headers: { Cookie: cookie, Origin: EVIL } });
    expect(r.status).toBe(200);
  });
});

describe("/api body limits (item 3)", () => {
  it("answers 413 before reading a body over 1 MB, and uploads over their own limits", async () => {
    const json = { "Content-Type": "application/json" };
    for (const url of ["/api/auth/login", "/api/auth/users", "/api/organizations"]) {
      const r = await rawPost(url, { ...json, "Content-Length": 400 * 1024 * 1024 }, 64 * 1024);
      expect(r.status, url).toBe(413);
      expect(JSON.parse(r.body)).toEqual({ message: expect.stringContaining("too large") });
    }
    const chunked = await rawPost("/api/auth/login", { ...json, "Transfer-Encoding": "chunked" }, 2 * 1024 * 1024, true);
    expect(chunked.status).toBe(413);
    // A 1.5 MB bot script passes the body limit (then 401: no token); 3 MB does not.
    const script = (mb: number) => rawPost("/api/auth/bots/bot@example.com/script", { "Content-Type": "multipart/form-data; boundary=b", "Content-Length": Math.round(mb * 1024 * 1024) }, 0);
    expect((await script(3)).status).toBe(413);
    const installer = (mb: number) => rawPost("/api/application-crawler/installer", { "Content-Type": "multipart/form-data; boundary=b", "Content-Length": Math.round(mb * 1024 * 1024) }, 0);
    expect((await installer(51)).status).toBe(413);
    // Documents: 13.4 MB of base64 JSON passes, 20 MB does not.
    const nlp = (mb: number) => rawPost("/api/nlp/api/v1/parser/parse", { ...json, "Content-Length": Math.round(mb * 1024 * 1024) }, 0);
    expect((await nlp(20)).status).toBe(413);
    const small = await fetch(`${base}/api/nlp/api/v1/parser/parse`, { method: "POST", headers: json, body: "x".repeat(5 * 1024 * 1024) });
    expect(small.status).toBe(401);
    await healthy();
  });

  it("keeps reading after the upstream's early answer until the body ends (lingering close), as the pages' guard does", async () => {
    // The upstream answers a chunked body as soon as it passes 1 MB (413), and a declared body it does not want before
    // reading it (401 without a token): closing then would reset the connection under a client still sending, which
    // may lose the answer (server/guard.ts lingerIfAnsweredEarly).
    const MB = 1024 * 1024;
    const cases = [
      { url: "/api/auth/login", declared: false, status: 413, text: "too large" },
      { url: "/api/nlp/api/v1/parser/parse", declared: true, status: 401, text: "message" },
    ];
    for (const { url, declared, status, text } of cases) {
      for (const keepAlive of [false, true]) {
        const r = await lateSender(url, keepAlive, 1.25 * MB, 2 * MB, declared);
        expect(r.status, `${url} keep-alive ${keepAlive}`).toBe(status);
        expect(r.answer).toContain(text);
        expect(r.connection).toBe("close");
        expect(r.errorWhileSending, `${url} keep-alive ${keepAlive}: the server reset the connection while the client was still sending`).toBe("");
        expect(r.serverClosed).toBe(true);
      }
    }
    const flood = await lateSender("/api/auth/login", false, 1.25 * 1024 * 1024, 24 * 1024 * 1024);
    expect(flood.status).toBe(413);
    expect(flood.errorWhileSending).not.toBe("");
    await healthy();
  });
});

describe("production origin without PUBLIC_URL (ALLOWED_HOSTS)", () => {
  /** A raw POST with its own Host header (fetch sends the URL's). */
  const postAs = (port: number, host: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        { host: "127.0.0.1", port, path: "/login", method: "POST", headers: { Host: host, Origin: `http://${host}`, "Content-Type": "application/x-www-form-urlencoded" } },
        (res) => {
          let body = "";
          res.on("data", (d: Buffer) => (body += d.toString()));
          res.on("end", () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on("error", reject);
      req.end("email=x%40example.com&password=nope");
    });

  it("refuses to start in production without PUBLIC_URL or ALLOWED_HOSTS, naming them", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "backoffice-origin-"));
    const s = startProductionServer(ORIGIN_PORT, dir, admin, { PUBLIC_URL: "" });
    expect(await s.exited).toBe(1);
    expect(s.output()).toContain("PUBLIC_URL: is required in production");
    expect(s.output()).toContain("ALLOWED_HOSTS");
    rmSync(dir, { recursive: true, force: true });
  });

  it("judges a post's own origin only when its host name is allowed: a DNS-rebinding name is refused", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "backoffice-origin-"));
    const port = ORIGIN_PORT + 1;
    const s = startProductionServer(port, dir, admin, { PUBLIC_URL: "", ALLOWED_HOSTS: "127.0.0.1" });
    try {
      await waitUntilUp(`http://127.0.0.1:${port}`, s, 30_000);
      const rebound = await postAs(port, `rebind.evil.example:${port}`);
      expect(rebound.status).toBe(403);
      expect(rebound.body).toContain("Host not allowed");
      const own = await postAs(port, `127.0.0.1:${port}`);
      expect(own.status).not.toBe(403);
    } finally {
      s.child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
