import { describe, expect, test } from "vitest";
import { ALL_PERMISSIONS, PERMISSION_KEYS, can, type TokenPayload } from "@contract";
import { hashPassword, randomPassword, verifyPassword } from "../../upstream/src/auth/passwords";
import { signToken, verifyToken } from "../../upstream/src/auth/tokens";
import { FailureLimiter } from "../../upstream/src/lib/rate-limit";

describe("can()", () => {
  test("grants by the exact string", () => {
    expect(can(["users.read"], "users.read")).toBe(true);
    expect(can(["users"], "users")).toBe(true);
  });
  test("grants by the first segment", () => {
    expect(can(["users"], "users.read")).toBe(true);
    expect(can(["users"], "users")).toBe(true);
    expect(can(["specifications"], "specifications")).toBe(true);
  });
  test("no false grants", () => {
    expect(can(["user"], "users.read")).toBe(false);
    expect(can(["users.read"], "specifications.read")).toBe(false);
    expect(can(["users.read"], "users")).toBe(false);
    expect(can(["users.write"], "users")).toBe(false);
    expect(can(["organizations"], "users.read")).toBe(false);
    expect(can([], "users.read")).toBe(false);
    expect(can(undefined, "users.read")).toBe(false);
    expect(can(["users.read.extra"], "users.read")).toBe(false);
  });
  test("ALL_PERMISSIONS holds each key and key.read", () => {
    expect(ALL_PERMISSIONS).toHaveLength(PERMISSION_KEYS.length * 2);
    expect(ALL_PERMISSIONS).toContain("users");
    expect(ALL_PERMISSIONS).toContain("users.read");
    expect(ALL_PERMISSIONS).not.toContain("users.write");
  });
});

describe("tokens", () => {
  const secret = "s".repeat(64);
  const payload: TokenPayload = {
    iss: "backoffice-upstream",
    sub: "u1",
    email: "a@b.co",
    firstName: "A",
    lastName: "B",
    permissions: ["users.read"],
    sid: "s1",
    iat: 1000,
    exp: 2000,
  };

  test("sign then verify gives the exact payload", () => {
    const token = signToken({ ...payload, extra: 1 } as TokenPayload, secret);
    expect(token.split(".")).toHaveLength(3);
    const header = JSON.parse(Buffer.from(token.split(".")[0] ?? "", "base64url").toString()) as unknown;
    expect(header).toEqual({ alg: "HS256", typ: "JWT" });
    const body = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as unknown;
    expect(body).toEqual(payload);
    expect(verifyToken(token, secret, 1500, payload.iss)).toEqual(payload);
  });

  test("expired at exp", () => {
    const token = signToken(payload, secret);
    expect(verifyToken(token, secret, 1999, payload.iss)).not.toBeNull();
    expect(verifyToken(token, secret, 2000, payload.iss)).toBeNull();
  });

  test("tampered payload, wrong secret, wrong issuer, garbage are refused", () => {
    const token = signToken(payload, secret);
    const [h, , s] = token.split(".");
    const forged = Buffer.from(JSON.stringify({ ...payload, permissions: ["users"] })).toString("base64url");
    expect(verifyToken(`${h}.${forged}.${s}`, secret, 1500, payload.iss)).toBeNull();
    expect(verifyToken(token, "other-secret", 1500, payload.iss)).toBeNull();
    expect(verifyToken(token, secret, 1500, "someone-else")).toBeNull();
    expect(verifyToken(`${token}x`, secret, 1500, payload.iss)).toBeNull();
    expect(verifyToken("a.b", secret, 1500, payload.iss)).toBeNull();
    expect(verifyToken("", secret, 1500, payload.iss)).toBeNull();
  });

  test("alg none is refused", () => {
    const h = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    const b = Buffer.from(JSON.stringify(payload)).toString("base64url");
    expect(verifyToken(`${h}.${b}.`, secret, 1500, payload.iss)).toBeNull();
  });
});

describe("passwords", () => {
  test("scrypt hash has the documented format and verifies", async () => {
    const hash = await hashPassword("correct horse");
    expect(hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(await verifyPassword("correct horse", hash)).toBe(true);
    expect(await verifyPassword("correct horsf", hash)).toBe(false);
    expect(await verifyPassword("", hash)).toBe(false);
  });
  test("salted: same password, different hashes", async () => {
    expect(await hashPassword("abcdef")).not.toBe(await hashPassword("abcdef"));
  });
  test("malformed stored hash never verifies", async () => {
    expect(await verifyPassword("x", "plain")).toBe(false);
    expect(await verifyPassword("x", "scrypt$3$8$1$AAAA$AAAA")).toBe(false);
  });
  test("randomPassword", () => {
    expect(randomPassword()).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(randomPassword()).not.toBe(randomPassword());
  });
});

describe("FailureLimiter", () => {
  test("limits after max failures and frees up as the window slides", () => {
    let t = 0;
    const limiter = new FailureLimiter({ max: 3, windowMs: 60_000, now: () => t });
    limiter.fail("k");
    t = 10_000;
    limiter.fail("k");
    limiter.fail("k");
    expect(limiter.retryAfter("k")).toBe(50);
    expect(limiter.retryAfter("other")).toBe(0);
    t = 60_000;
    expect(limiter.retryAfter("k")).toBe(0);
    limiter.fail("k");
    expect(limiter.retryAfter("k")).toBe(10);
    limiter.clear("k");
    expect(limiter.retryAfter("k")).toBe(0);
  });
});
