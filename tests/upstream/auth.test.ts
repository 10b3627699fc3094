import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, test } from "vitest";
import { PERMISSION_KEYS, TokenPayload, User } from "@contract";
import { createUpstream } from "../../upstream/src/app";
import { signToken } from "../../upstream/src/auth/tokens";
import { ADMIN, START, decodePayload, harness, message, tempDir, type Harness } from "./helpers";

describe("seeding the administrator", () => {
  test("on an empty database: holds every permission and can sign in", async () => {
    const h = await harness();
    expect(h.up.seeded).toEqual(ADMIN);
    const payload = TokenPayload.parse(decodePayload(h.adminToken));
    expect(payload.email).toBe(ADMIN.email);
    expect(payload.permissions).toEqual([...PERMISSION_KEYS]);
    const me = User.parse(await (await h.call("GET", `/api/auth/users/${payload.sub}`, { token: h.adminToken })).json());
    expect(me.createdBy).toBeNull();
    expect(me.createdAt).toBe(new Date(START).toISOString());
  });

  test("generates a 16-character password when none is given", async () => {
    const dir = tempDir();
    const up = createUpstream({ dataDir: dir, adminEmail: " Boss@Example.com " });
    try {
      expect(up.seeded?.email).toBe("boss@example.com");
      expect(up.seeded?.password).toMatch(/^[A-Za-z0-9]{16}$/);
      const res = await up.fetch(
        new Request("http://x/api/auth/login", {
          method: "POST",
          body: JSON.stringify({ email: "boss@example.com", password: up.seeded?.password }),
        }),
      );
      expect(res.status).toBe(200);
    } finally {
      up.close();
    }
  });

  test("only on an empty users table", async () => {
    const dir = tempDir();
    const first = createUpstream({ dataDir: dir, adminEmail: "a@example.com", adminPassword: "secret1" });
    expect(first.seeded).not.toBeNull();
    first.close();
    const second = createUpstream({ dataDir: dir, adminEmail: "b@example.com", adminPassword: "secret2" });
    expect(second.seeded).toBeNull();
    const res = await second.fetch(
      new Request("http://x/api/auth/login", {
        method: "POST",
        body: JSON.stringify({ email: "b@example.com", password: "secret2" }),
      }),
    );
    expect(res.status).toBe(401);
    second.close();
  });

  test("no adminEmail: nothing seeded", () => {
    const up = createUpstream({ dataDir: tempDir() });
    expect(up.seeded).toBeNull();
    up.close();
  });

  test("creates the data dir, the database and a 0600 jwt-secret reused on restart", async () => {
    const dir = path.join(tempDir(), "nested", "data");
    const up = createUpstream({ dataDir: dir, adminEmail: ADMIN.email, adminPassword: ADMIN.password });
    expect(up.health()).toBe(true);
    const login = () =>
      up.fetch(new Request("http://x/api/auth/login", { method: "POST", body: JSON.stringify(ADMIN) }));
    const token = ((await (await login()).json()) as { token: string }).token;
    up.close();
    expect(up.health()).toBe(false);
    expect(fs.existsSync(path.join(dir, "backoffice.sqlite"))).toBe(true);
    const secretFile = path.join(dir, "jwt-secret");
    expect(fs.readFileSync(secretFile, "utf8")).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.statSync(secretFile).mode & 0o777).toBe(0o600);
    const again = createUpstream({ dataDir: dir });
    const res = await again.fetch(
      new Request("http://x/api/auth/permissions/list", { headers: { authorization: `Bearer ${token}` } }),
    );
    expect(res.status).toBe(200);
    again.close();
  });

  test("a jwtSecret option is used instead of the file", async () => {
    const dir = tempDir();
    const h = await harness({ dataDir: dir, jwtSecret: "explicit-secret" });
    expect(fs.existsSync(path.join(dir, "jwt-secret"))).toBe(false);
    const forged = signToken(TokenPayload.parse(decodePayload(h.adminToken)), "explicit-secret");
    expect((await h.call("GET", "/api/auth/permissions/list", { token: forged })).status).toBe(200);
  });
});

/** A failed sign-in (an unknown email) sent from `env` with `X-Client-Address: header`. */
const failedLogin = (h: Harness) => (env: { trusted?: boolean; clientAddress?: string }, header: string) =>
  h.call("POST", "/api/auth/login", {
    body: { email: `x${Math.random()}@example.com`, password: "x" },
    env,
    headers: { "x-client-address": header },
  });

describe("POST /api/auth/login", () => {
  test("good credentials (email case and spaces ignored) answer a token with the contract's payload", async () => {
    const h = await harness({ tokenTtlSeconds: 600, issuer: "test-issuer" });
    const res = await h.call("POST", "/api/auth/login", {
      body: { email: "  ADMIN@example.com ", password: ADMIN.password },
    });
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };
    const payload = decodePayload(token);
    expect(Object.keys(payload).sort()).toEqual(
      ["iss", "sub", "email", "firstName", "lastName", "permissions", "sid", "iat", "exp"].sort(),
    );
    expect(payload.iss).toBe("test-issuer");
    expect(payload.iat).toBe(START / 1000);
    expect(payload.exp).toBe(START / 1000 + 600);
  });

  test("wrong password and unknown email answer the same 401", async () => {
    const h = await harness();
    const wrong = await h.call("POST", "/api/auth/login", { body: { email: ADMIN.email, password: "nope-nope" } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ message: "Invalid email or password." });
    const unknown = await h.call("POST", "/api/auth/login", { body: { email: "who@example.com", password: "x" } });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ message: "Invalid email or password." });
  });

  test("bad bodies answer 400", async () => {
    const h = await harness();
    const malformed = await h.call("POST", "/api/auth/login", { rawBody: "{not json" });
    expect(malformed.status).toBe(400);
    expect(await message(malformed)).toBe("Request body must be JSON");
    const missing = await h.call("POST", "/api/auth/login", { body: { email: ADMIN.email } });
    expect(missing.status).toBe(400);
    expect(await message(missing)).toMatch(/^password: /);
  });

  test("per (account, address): 3 free failures, then 1 s, 2 s, 4 s … with 429 and Retry-After, password not checked", async () => {
    const h = await harness();
    const attempt = (password: string, address = "10.0.0.1") =>
      h.call("POST", "/api/auth/login", {
        body: { email: ADMIN.email, password },
        env: { clientAddress: address },
      });
    for (let i = 0; i < 3; i++) expect((await attempt("wrong")).status).toBe(401);
    // After the third failure: 1 s. Even the right password waits (it is not checked), and waiting is not counted.
    const limited = await attempt(ADMIN.password);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(await limited.json()).toEqual({ message: "Too many failed sign-in attempts.", retryAfter: 1 });
    // Another address is not slowed down at all: nobody can lock anyone out.
    expect((await attempt(ADMIN.password, "10.1.1.1")).status).toBe(200);
    // The delay doubles with each failure: 2 s after the fourth, 4 s after the fifth.
    h.clock.advance(1000);
    expect((await attempt("wrong")).status).toBe(401);
    expect((await attempt(ADMIN.password)).headers.get("retry-after")).toBe("2");
    h.clock.advance(2000);
    expect((await attempt("wrong")).status).toBe(401);
    expect((await attempt(ADMIN.password)).headers.get("retry-after")).toBe("4");
    h.clock.advance(3999);
    expect((await attempt(ADMIN.password)).status).toBe(429);
    h.clock.advance(1);
    expect((await attempt(ADMIN.password)).status).toBe(200);
  });

  test("a success clears that (account, address)'s failures", async () => {
    const h = await harness();
    const fail = () => h.call("POST", "/api/auth/login", { body: { email: ADMIN.email, password: "x" } });
    for (let i = 0; i < 3; i++) expect((await fail()).status).toBe(401);
    h.clock.advance(1000);
    await h.login();
    for (let i = 0; i < 3; i++) expect((await fail()).status).toBe(401);
    h.clock.advance(1000);
    expect((await h.call("POST", "/api/auth/login", { body: ADMIN })).status).toBe(200);
  });

  test("20 failures per client address: 429 for unknown accounts and wrong passwords from it; the right password still gets in", async () => {
    const h = await harness();
    const env = { clientAddress: "192.0.2.7" };
    for (let i = 0; i < 20; i++) {
      const res = await h.call("POST", "/api/auth/login", {
        body: { email: `nobody${i}@example.com`, password: "x" },
        env,
      });
      expect(res.status).toBe(401);
    }
    const limited = await h.call("POST", "/api/auth/login", { body: { email: "nobody@example.com", password: "x" }, env });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    const wrong = await h.call("POST", "/api/auth/login", { body: { email: ADMIN.email, password: "nope-nope" }, env });
    expect(wrong.status).toBe(429);
    expect(await wrong.json()).toEqual(await limited.json());
    // Behind one office address: one attacker does not lock the others out.
    expect((await h.call("POST", "/api/auth/login", { body: ADMIN, env })).status).toBe(200);
    expect((await h.call("POST", "/api/auth/login", { body: ADMIN, env: { clientAddress: "192.0.2.8" } })).status).toBe(
      200,
    );
  });

  test("X-Client-Address from an untrusted caller is ignored", async () => {
    const h = await harness();
    const fail = failedLogin(h);
    // Untrusted: the header is ignored, failures count against the socket address.
    for (let i = 0; i < 20; i++) expect((await fail({ clientAddress: "198.51.100.1" }, `203.0.113.${i}`)).status).toBe(401);
    const unknown = { email: "who@example.com", password: "x" };
    expect(
      (await h.call("POST", "/api/auth/login", { body: unknown, env: { clientAddress: "198.51.100.1" } })).status,
    ).toBe(429);
  });

  test("X-Client-Address from a trusted caller names the browser's address", async () => {
    const h = await harness();
    const fail = failedLogin(h);
    for (let i = 0; i < 20; i++) expect((await fail({ trusted: true, clientAddress: "127.0.0.1" }, "203.0.113.50")).status).toBe(401);
    const unknown = { email: "who@example.com", password: "x" };
    const limited = await h.call("POST", "/api/auth/login", {
      body: unknown,
      env: { trusted: true, clientAddress: "127.0.0.1" },
      headers: { "x-client-address": "203.0.113.50" },
    });
    expect(limited.status).toBe(429);
    const otherBrowser = await h.call("POST", "/api/auth/login", {
      body: unknown,
      env: { trusted: true, clientAddress: "127.0.0.1" },
      headers: { "x-client-address": "203.0.113.51" },
    });
    expect(otherBrowser.status).toBe(401);
  });
});

describe("POST /api/auth/refresh", () => {
  test("a valid token gets a new one with permissions and names re-read from the database", async () => {
    const h = await harness();
    const user = await h.createUser({ email: "ref@example.com" });
    const token = await h.login("ref@example.com", "secret1");
    expect(decodePayload(token).permissions).toEqual([]);
    await h.call("PATCH", `/api/auth/users/${user.id}`, {
      token: h.adminToken,
      body: { id: user.id, firstName: "Renamed", permissions: ["users.read"] },
    });
    h.clock.advance(30_000);
    const res = await h.call("POST", "/api/auth/refresh", { body: { token } });
    expect(res.status).toBe(200);
    const payload = decodePayload(((await res.json()) as { token: string }).token);
    expect(payload.firstName).toBe("Renamed");
    expect(payload.permissions).toEqual(["users.read"]);
    expect(payload.iat).toBe(START / 1000 + 30);
  });

  test("expired, tampered, garbage, deleted user: 401", async () => {
    const h = await harness({ tokenTtlSeconds: 60 });
    const user = await h.createUser({ email: "gone@example.com" });
    const token = await h.login("gone@example.com", "secret1");
    const refresh = (t: unknown) => h.call("POST", "/api/auth/refresh", { body: { token: t } });

    const [head, , sig] = token.split(".");
    const forged = Buffer.from(JSON.stringify({ ...decodePayload(token), permissions: ["users"] })).toString(
      "base64url",
    );
    const tampered = await refresh(`${head}.${forged}.${sig}`);
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toEqual({ message: "Invalid or expired token." });
    expect((await refresh("garbage")).status).toBe(401);
    expect((await refresh(123)).status).toBe(400);

    expect((await h.call("DELETE", `/api/auth/users/${user.id}`, { token: h.adminToken })).status).toBe(204);
    expect((await refresh(token)).status).toBe(401);

    h.clock.advance(60_000);
    expect((await refresh(h.adminToken)).status).toBe(401);
  });
});

describe("authentication of the other endpoints", () => {
  test("missing, malformed, expired or tampered bearer: 401; cookies are ignored", async () => {
    const h = await harness({ tokenTtlSeconds: 60 });
    const get = (headers: Record<string, string>) =>
      h.call("GET", "/api/auth/permissions/list", { headers });
    const none = await get({});
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ message: "Authentication required." });
    expect((await get({ cookie: `token=${h.adminToken}` })).status).toBe(401);
    expect((await get({ authorization: h.adminToken })).status).toBe(401);
    expect((await get({ authorization: `Basic ${h.adminToken}` })).status).toBe(401);
    expect((await get({ authorization: `Bearer ${h.adminToken}x` })).status).toBe(401);
    expect((await get({ authorization: `bearer ${h.adminToken}` })).status).toBe(200);
    h.clock.advance(60_000);
    expect((await get({ authorization: `Bearer ${h.adminToken}` })).status).toBe(401);
  });

  test("a token signed with another secret is refused", async () => {
    const h = await harness();
    const foreign = signToken(TokenPayload.parse(decodePayload(h.adminToken)), "not-the-secret");
    expect((await h.call("GET", "/api/auth/permissions/list", { token: foreign })).status).toBe(401);
  });

  test("GET /api/auth/ lists no providers, without a token", async () => {
    const h = await harness();
    for (const url of ["/api/auth/", "/api/auth"]) {
      const res = await h.call("GET", url);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([]);
    }
  });

  test("GET /api/auth/permissions/list answers the catalogue to any signed-in user", async () => {
    const h = await harness();
    await h.createUser({ email: "plain@example.com" });
    const token = await h.login("plain@example.com", "secret1");
    const res = await h.call("GET", "/api/auth/permissions/list", { token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([...PERMISSION_KEYS]);
  });
});

describe("the app", () => {
  test("unknown routes answer 404 JSON, with or without a token", async () => {
    const h = await harness();
    for (const token of [null, h.adminToken]) {
      for (const [method, url] of [
        ["GET", "/api/nothing"],
        ["GET", "/"],
        ["PUT", "/api/auth/users"],
        ["POST", "/api/auth/users/x/y"],
      ] as const) {
        const res = await h.call(method, url, { token });
        expect(res.status, `${method} ${url}`).toBe(404);
        expect(res.headers.get("content-type")).toMatch(/application\/json/);
        expect(await res.json()).toEqual({ message: "Not found" });
      }
    }
  });

  test("malformed JSON answers 400 on authenticated endpoints too", async () => {
    const h = await harness();
    const res = await h.call("POST", "/api/auth/users", { token: h.adminToken, rawBody: "[1," });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: "Request body must be JSON" });
    const empty = await h.call("POST", "/api/auth/users", { token: h.adminToken });
    expect(empty.status).toBe(400);
  });

  test("a thrown error answers 500 without details and is logged", async () => {
    const h = await harness();
    // Break the database under the upstream from a second connection.
    const other = new Database(path.join(h.dir, "backoffice.sqlite"));
    other.exec("drop table user_organizations");
    other.close();
    const res = await h.call("GET", "/api/auth/users", { token: h.adminToken });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ message: "Internal server error" });
    expect(h.logs.join("\n")).toMatch(/GET \/api\/auth\/users failed/);
    expect(h.up.health()).toBe(true);
  });
});
