import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, test } from "vitest";
import { LOGIN_LIMITS } from "../../upstream/src/app";
import { signToken } from "../../upstream/src/auth/tokens";
import { LoginThrottle } from "../../upstream/src/lib/rate-limit";
import { ADMIN, START, decodePayload, harness, message, type Harness } from "./helpers";

/** Revocable sessions and sign-in throttling without lockout (docs/decisions/revocable-sessions.md). */

const works = async (h: Harness, token: string) =>
  (await h.call("GET", "/api/auth/permissions/list", { token })).status;
const refresh = async (h: Harness, token: string) => {
  const res = await h.call("POST", "/api/auth/refresh", { body: { token } });
  return { status: res.status, token: res.status === 200 ? ((await res.json()) as { token: string }).token : "" };
};
const patch = (h: Harness, token: string, id: string, body: Record<string, unknown>) =>
  h.call("PATCH", `/api/auth/users/${id}`, { token, body: { id, ...body } });

async function userWith(h: Harness, email: string, permissions: string[]) {
  const user = await h.createUser({ email });
  if (permissions.length) expect((await patch(h, h.adminToken, user.id, { permissions })).status).toBe(200);
  return user.id;
}

describe("sessions: every token belongs to a revocable session", () => {
  test("sign-in opens a session per sign-in; refresh keeps it", async () => {
    const h = await harness();
    const a = await h.login();
    const b = await h.login();
    expect(decodePayload(a).sid).toEqual(expect.any(String));
    expect(decodePayload(a).sid).not.toBe(decodePayload(b).sid);
    h.clock.advance(30_000);
    const fresh = await refresh(h, a);
    expect(fresh.status).toBe(200);
    expect(decodePayload(fresh.token).sid).toBe(decodePayload(a).sid);
  });

  test("POST /api/auth/logout revokes the caller's session: its tokens answer 401 on the API and on refresh", async () => {
    const h = await harness();
    const token = await h.login();
    const other = await h.login();
    h.clock.advance(30_000);
    const refreshed = (await refresh(h, token)).token;
    expect(await works(h, token)).toBe(200);
    const out = await h.call("POST", "/api/auth/logout", { token });
    expect(out.status).toBe(204);
    // The copied token, and the one refreshed from it in the same session: refused everywhere.
    for (const t of [token, refreshed]) {
      expect(await works(h, t)).toBe(401);
      expect((await refresh(h, t)).status).toBe(401);
      expect((await h.call("GET", "/api/auth/users", { token: t })).status).toBe(401);
    }
    // Another session of the same user is untouched.
    expect(await works(h, other)).toBe(200);
    // Logging out needs a working token.
    expect((await h.call("POST", "/api/auth/logout", { token })).status).toBe(401);
    expect((await h.call("POST", "/api/auth/logout")).status).toBe(401);
  });

  test("a password change by an administrator (PATCH) ends every session of that user, not the administrator's", async () => {
    const h = await harness();
    const id = await userWith(h, "pw@example.com", ["users.read"]);
    const one = await h.login("pw@example.com", "secret1");
    const two = await h.login("pw@example.com", "secret1");
    expect((await patch(h, h.adminToken, id, { password: "changed-1" })).status).toBe(200);
    for (const t of [one, two]) {
      expect(await works(h, t)).toBe(401);
      expect((await refresh(h, t)).status).toBe(401);
    }
    expect(await works(h, h.adminToken)).toBe(200);
    expect(await works(h, await h.login("pw@example.com", "changed-1"))).toBe(200);
  });

  test("changing your own password keeps the session you changed it from and ends your others", async () => {
    const h = await harness();
    const id = await userWith(h, "self@example.com", ["users"]);
    const here = await h.login("self@example.com", "secret1");
    const elsewhere = await h.login("self@example.com", "secret1");
    expect((await patch(h, here, id, { password: "changed-2" })).status).toBe(200);
    expect(await works(h, here)).toBe(200);
    expect((await refresh(h, here)).status).toBe(200);
    expect(await works(h, elsewhere)).toBe(401);
  });

  test("removing a permission ends the user's sessions; adding one or other changes do not", async () => {
    const h = await harness();
    const id = await userWith(h, "perm@example.com", ["users.read", "organizations.read"]);
    const token = await h.login("perm@example.com", "secret1");
    expect((await patch(h, h.adminToken, id, { permissions: ["users.read", "organizations.read", "forms"] })).status).toBe(200);
    expect((await patch(h, h.adminToken, id, { firstName: "Renamed" })).status).toBe(200);
    expect(await works(h, token)).toBe(200);
    expect((await patch(h, h.adminToken, id, { permissions: ["users.read", "forms"] })).status).toBe(200);
    expect(await works(h, token)).toBe(401);
    expect((await refresh(h, token)).status).toBe(401);
    const again = await h.login("perm@example.com", "secret1");
    expect(decodePayload(again).permissions).toEqual(["users.read", "forms"]);
  });

  test("a validly signed token whose session is unknown is refused", async () => {
    const secret = "s".repeat(64);
    const h = await harness({ jwtSecret: secret });
    const payload = decodePayload(h.adminToken) as Parameters<typeof signToken>[0];
    const forged = signToken({ ...payload, sid: "no-such-session" }, secret);
    expect(await works(h, forged)).toBe(401);
    expect((await refresh(h, forged)).status).toBe(401);
    expect(await works(h, h.adminToken)).toBe(200);
  });

  test("single sign-on tokens belong to a session too, and log out revokes it", async () => {
    const SECRET = "upstream-test-service-secret-0123456789";
    const h = await harness({ sso: { serviceSecret: SECRET, saml: { label: "Sign in with OKTA" } } });
    const res = await h.call("POST", "/api/auth/sso/exchange", {
      body: { email: ADMIN.email, provider: "saml" },
      headers: { "X-Service-Credential": SECRET },
    });
    const { token } = (await res.json()) as { token: string };
    expect(await works(h, token)).toBe(200);
    expect((await h.call("POST", "/api/auth/logout", { token })).status).toBe(204);
    expect(await works(h, token)).toBe(401);
  });

  test("expired sessions are pruned on sign-in, so the table stays bounded", async () => {
    const h = await harness({ tokenTtlSeconds: 60 });
    for (let i = 0; i < 5; i++) await h.login();
    const db = new Database(path.join(h.dir, "backoffice.sqlite"), { readonly: true });
    try {
      const count = () => db.prepare("select count(*) from sessions").pluck().get() as number;
      expect(count()).toBe(6); // the harness's own sign-in too
      h.clock.advance(61_000);
      const token = await h.login();
      expect(count()).toBe(1);
      expect(await works(h, token)).toBe(200);
      // The lookup is by primary key.
      const plan = db
        .prepare("explain query plan select 1 from sessions s join users u on u.id = s.user_id where s.id = ?")
        .all("x") as { detail: string }[];
      expect(plan.map((p) => p.detail).join("\n")).toMatch(/SEARCH s USING INDEX sqlite_autoindex_sessions_1 \(id=\?\)/);
    } finally {
      db.close();
    }
  });
});

describe("sign-in throttling without lockout", () => {
  const attempt = (h: Harness, password: string, address: string, email = ADMIN.email) =>
    h.call("POST", "/api/auth/login", { body: { email, password }, env: { clientAddress: address } });

  test("10 wrong passwords from one address do not block the right password from another", async () => {
    const h = await harness();
    for (let i = 0; i < 10; i++) {
      const res = await attempt(h, "wrong", "198.51.100.66");
      expect([401, 429]).toContain(res.status);
      h.clock.advance(20_000);
    }
    expect((await attempt(h, ADMIN.password, "198.51.100.66")).status).toBe(429);
    expect((await attempt(h, ADMIN.password, "203.0.113.9")).status).toBe(200);
  });

  test("the delay per (account, address) doubles and stops at 15 minutes", () => {
    const throttle = new LoginThrottle(LOGIN_LIMITS, () => START);
    expect([1, 2, 3, 4, 5, 6].map((n) => throttle.delayAfter(n))).toEqual([0, 0, 1000, 2000, 4000, 8000]);
    expect(throttle.delayAfter(12)).toBe(512_000);
    expect(throttle.delayAfter(13)).toBe(15 * 60_000);
    expect(throttle.delayAfter(1000)).toBe(15 * 60_000);
  });

  test("per-account ceiling: past 100 failures in an hour, addresses that failed are refused, clean ones still get in", async () => {
    const h = await harness();
    // Distributed guessing: 100 addresses, one wrong password each.
    for (let i = 0; i < 100; i++) expect((await attempt(h, "wrong", `10.1.${i >> 8}.${i & 255}`)).status).toBe(401);
    h.clock.advance(60_000);
    // An address that has failed on this account: refused before the password is checked, even the right one.
    const refused = await attempt(h, ADMIN.password, "10.1.0.7");
    expect(refused.status).toBe(429);
    expect(await message(refused)).toBe("Too many failed sign-in attempts.");
    expect(Number(refused.headers.get("retry-after"))).toBe(59 * 60);
    // An address that has not failed is never blocked: the owner still signs in.
    expect((await attempt(h, ADMIN.password, "192.0.2.200")).status).toBe(200);
    // Once the hour has passed, the failed address may try again.
    h.clock.advance(59 * 60_000);
    expect((await attempt(h, ADMIN.password, "10.1.0.7")).status).toBe(200);
  }, 30_000);

  test("per-address limit: 20 failures in 15 minutes across accounts, then 429 for unknown accounts and wrong passwords", async () => {
    const h = await harness();
    await h.createUser({ email: "bob@example.com", password: "bob-secret" });
    for (let i = 0; i < 20; i++) expect((await attempt(h, "x", "192.0.2.77", `n${i}@example.com`)).status).toBe(401);
    // Unknown accounts stay limited (their password is not checked) ...
    const unknown = await attempt(h, "x", "192.0.2.77", "n99@example.com");
    expect(unknown.status).toBe(429);
    expect(await message(unknown)).toBe("Too many failed sign-in attempts.");
    expect(Number(unknown.headers.get("retry-after"))).toBe(15 * 60);
    // ... and a wrong password for a real one answers the same, so the address learns nothing about which exist.
    expect((await attempt(h, "wrong", "192.0.2.77", "bob@example.com")).status).toBe(429);
    h.clock.advance(15 * 60_000);
    expect((await attempt(h, "x", "192.0.2.77", "n99@example.com")).status).toBe(401);
  });

  test("one attacker behind an office's address does not lock the office out: the right password of an account not under attack gets in", async () => {
    const h = await harness();
    await h.createUser({ email: "bob@example.com", password: "bob-secret" });
    const office = "203.0.113.10";
    for (let i = 0; i < 25; i++) await attempt(h, "guess", office, `victim${i}@example.com`);
    expect((await attempt(h, "x", office, "someone@example.com")).status).toBe(429);
    // Colleagues behind the same address sign in, one of them after mistyping once.
    expect((await attempt(h, ADMIN.password, office)).status).toBe(200);
    expect((await attempt(h, "bob-secrte", office, "bob@example.com")).status).toBe(429);
    expect((await attempt(h, "bob-secret", office, "bob@example.com")).status).toBe(200);
    // The per (account, address) delays still hold for an account guessed from that address.
    for (let i = 0; i < 3; i++) await attempt(h, "wrong", office, "bob@example.com");
    expect((await attempt(h, "bob-secret", office, "bob@example.com")).status).toBe(429);
  });

  test("an account under attack (over its ceiling) is not let in from an address over its limit, even with its password", async () => {
    const h = await harness();
    for (let i = 0; i < 100; i++) expect((await attempt(h, "wrong", `10.2.${i >> 8}.${i & 255}`)).status).toBe(401);
    const busy = "198.51.100.200";
    for (let i = 0; i < 20; i++) await attempt(h, "x", busy, `n${i}@example.com`);
    expect((await attempt(h, ADMIN.password, busy)).status).toBe(429);
    // A clean address still gets in (the per-account rule), and so does the busy one once its window has passed.
    expect((await attempt(h, ADMIN.password, "192.0.2.201")).status).toBe(200);
    h.clock.advance(15 * 60_000);
    expect((await attempt(h, ADMIN.password, busy)).status).toBe(200);
  }, 30_000);

  test("memory stays bounded however many accounts and addresses fail", () => {
    let t = START;
    const throttle = new LoginThrottle(LOGIN_LIMITS, () => t, 1000);
    for (let i = 0; i < 20_000; i++) {
      throttle.fail(`user${i}@example.com`, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
      t += 1;
    }
    const sizes = throttle.sizes;
    expect(sizes.pairs).toBeLessThanOrEqual(1000);
    expect(sizes.accounts).toBeLessThanOrEqual(1000);
    expect(sizes.addresses).toBeLessThanOrEqual(1000);
  });
});
