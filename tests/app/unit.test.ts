import { describe, expect, it } from "vitest";
import { decodeToken, displayName, needsRefresh, isExpired, MAX_TOKEN_AGE_MS, REFRESH_MARGIN_MS } from "~/auth/identity";
import { safeRedirect } from "~/auth/session.server";
import { SIGN_IN } from "~/auth/texts";
import { loadConfig, ConfigError } from "~/lib/config.server";
import { formatDateTime } from "~/lib/format";
import { timeZoneOf } from "~/lib/timezone.server";
import { EditUserSchema, NewUserSchema, randomPassword } from "~/people/schema";
import { PEOPLE } from "~/people/texts";
import { can } from "@contract/permissions";

function token(payload: object): string {
  const b = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${b({ alg: "HS256", typ: "JWT" })}.${b(payload)}.signature`;
}
const payload = {
  iss: "backoffice-upstream",
  sub: "u1",
  email: "ada@example.com",
  firstName: "Ada",
  lastName: "Lovelace",
  permissions: ["users.read"],
  sid: "s1",
  iat: 1_700_000_000,
  exp: 1_700_003_600,
};

describe("can()", () => {
  it("grants by the exact string", () => expect(can(["users.read"], "users.read")).toBe(true));
  it("grants by the first segment", () => {
    expect(can(["users"], "users.read")).toBe(true);
    expect(can(["users"], "users")).toBe(true);
  });
  it("does not grant write from read, nor the whole key from its parts", () => {
    expect(can(["users.read"], "users")).toBe(false);
    expect(can(["users.read", "users.write"], "users")).toBe(false);
  });
  it("does not grant by a prefix that is not a segment", () => {
    expect(can(["user"], "users.read")).toBe(false);
    expect(can(["users.re"], "users.read")).toBe(false);
  });
  it("grants nothing to nobody", () => {
    expect(can([], "users.read")).toBe(false);
    expect(can(undefined, "users.read")).toBe(false);
  });
});

describe("token handling", () => {
  it("decodes the identity from the token payload", () => {
    expect(decodeToken(token(payload))).toEqual({
      id: "u1",
      email: "ada@example.com",
      firstName: "Ada",
      lastName: "Lovelace",
      permissions: ["users.read"],
      issuedAt: 1_700_000_000_000,
      expiresAt: 1_700_003_600_000,
    });
  });
  it("rejects malformed tokens", () => {
    expect(decodeToken("garbage")).toBeNull();
    expect(decodeToken("a.b.c")).toBeNull();
    expect(decodeToken(token({ ...payload, permissions: "users" }))).toBeNull();
    expect(decodeToken(token({ sub: "u1" }))).toBeNull();
  });
  it("refreshes near expiry and after a minute, not before", () => {
    const id = decodeToken(token(payload))!;
    expect(needsRefresh(id, id.issuedAt + 1000)).toBe(false);
    expect(needsRefresh(id, id.issuedAt + MAX_TOKEN_AGE_MS + 1)).toBe(true);
    expect(needsRefresh({ ...id, issuedAt: Date.now() }, id.expiresAt - REFRESH_MARGIN_MS + 1)).toBe(true);
    expect(isExpired(id, id.expiresAt)).toBe(true);
    expect(isExpired(id, id.expiresAt - 1)).toBe(false);
  });
});

describe("greeting", () => {
  it("joins first and last name", () => expect(displayName(payload)).toBe("Ada Lovelace"));
  it("uses one name when the other is empty", () => expect(displayName({ ...payload, lastName: "" })).toBe("Ada"));
  it("falls back on the email when both are empty", () =>
    expect(displayName({ ...payload, firstName: " ", lastName: "" })).toBe("ada@example.com"));
});

describe("new-user validation (spec 1 §5)", () => {
  const V = PEOPLE.validation;
  const errors = (input: Record<string, unknown>) => {
    const r = NewUserSchema.safeParse(input);
    return r.success ? {} : r.error.flatten().fieldErrors;
  };
  it("requires every field with the spec's messages", () => {
    expect(errors({})).toEqual({
      firstName: [V.firstNameRequired],
      lastName: [V.lastNameRequired],
      email: [V.emailRequired],
      password: [V.passwordRequired],
    });
  });
  it("treats blank names as missing", () => {
    expect(errors({ firstName: "  ", lastName: "\t", email: "a@b.co", password: "secret" })).toEqual({
      firstName: [V.firstNameRequired],
      lastName: [V.lastNameRequired],
    });
  });
  it("checks the email format and the password length", () => {
    expect(errors({ firstName: "A", lastName: "B", email: "nope", password: "12345" })).toEqual({
      email: [V.emailInvalid],
      password: [V.passwordShort],
    });
  });
  it("trims names and email", () => {
    const r = NewUserSchema.parse({ firstName: " A ", lastName: " B ", email: " a@b.co ", password: "123456" });
    expect(r).toMatchObject({ firstName: "A", lastName: "B", email: "a@b.co", organizations: [], isBot: false });
  });
  it("edit needs first and last name only", () => {
    expect(EditUserSchema.safeParse({ firstName: "A", lastName: "B" }).success).toBe(true);
    expect(EditUserSchema.safeParse({ firstName: "", lastName: "B" }).success).toBe(false);
  });
  it("randomises a base-36 password", () => {
    const a = randomPassword();
    expect(a).toMatch(/^[0-9a-z]{12}$/);
    expect(randomPassword()).not.toBe(a);
  });
});

describe("sign-in texts", () => {
  it("says how long to wait", () => {
    expect(SIGN_IN.throttled(30)).toBe("Too many failed attempts. Please wait 30 seconds before trying again.");
    expect(SIGN_IN.throttled(1)).toBe("Too many failed attempts. Please wait 1 second before trying again.");
    expect(SIGN_IN.throttled(900)).toBe("Too many failed attempts. Please wait 15 minutes before trying again.");
  });
});

describe("safeRedirect", () => {
  it("keeps paths on this site", () => expect(safeRedirect("/people?q=a")).toBe("/people?q=a"));
  it("refuses other origins and odd values", () => {
    for (const bad of ["https://evil.test", "//evil.test", "/\\evil.test", "people", "", null, undefined]) {
      expect(safeRedirect(bad)).toBe("/");
    }
    expect(safeRedirect("/login")).toBe("/");
  });
});

describe("configuration", () => {
  it("has defaults for development", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, dataDir: "./data", mode: "development", generatedSecret: true, upstreamUrl: undefined });
  });
  it("requires SESSION_SECRET in production", () => {
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(/SESSION_SECRET: is required in production/);
  });
  it("reads a list of secrets for rotation and rejects short ones", () => {
    expect(loadConfig({ SESSION_SECRET: "0123456789abcdef, fedcba9876543210" }).sessionSecrets).toEqual([
      "0123456789abcdef",
      "fedcba9876543210",
    ]);
    expect(() => loadConfig({ SESSION_SECRET: "short" })).toThrow(/SESSION_SECRET/);
  });
  it("names every bad variable", () => {
    expect(() => loadConfig({ PORT: "http", UPSTREAM_URL: "nope", ADMIN_EMAIL: "x" })).toThrow(
      /PORT[\s\S]*UPSTREAM_URL[\s\S]*ADMIN_EMAIL/,
    );
  });
});

describe("time zones and dates", () => {
  it("reads the tz cookie, falling back on UTC", () => {
    const req = (cookie: string) => new Request("http://x/", { headers: { Cookie: cookie } });
    expect(timeZoneOf(req("tz=Europe%2FBerlin"))).toBe("Europe/Berlin");
    expect(timeZoneOf(req("tz=Not%2FAZone"))).toBe("UTC");
    expect(timeZoneOf(req(""))).toBe("UTC");
  });
  it("formats in the given zone", () => {
    expect(formatDateTime("2026-01-01T23:30:00.000Z", "UTC")).toBe("January 1, 2026, 11:30 PM UTC");
    expect(formatDateTime("2026-01-01T23:30:00.000Z", "Europe/Berlin")).toBe("January 2, 2026, 12:30 AM");
    expect(formatDateTime(null, "UTC")).toBe("—");
  });
});
