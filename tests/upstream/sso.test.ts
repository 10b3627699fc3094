import { describe, expect, it } from "vitest";
import { ADMIN, harness, message } from "./helpers";

const SECRET = "upstream-test-service-secret-0123456789";
const exchange = { email: ADMIN.email, provider: "saml" };

describe("single sign-on: the server-to-server exchange", () => {
  it("lists no providers when none is configured, and has no exchange then", async () => {
    const h = await harness();
    const list = await h.call("GET", "/api/auth/");
    expect(await list.json()).toEqual([]);
    const res = await h.call("POST", "/api/auth/sso/exchange", { body: exchange, headers: { "X-Service-Credential": SECRET } });
    expect(res.status).toBe(404);
    expect((await h.call("GET", "/api/auth/microsoft?redirect_uri=http://localhost/microsoft.html")).status).toBe(404);
  });

  it("lists the configured providers in order: corporate OpenID Connect first, then SAML", async () => {
    const h = await harness({
      sso: {
        serviceSecret: SECRET,
        oidc: { issuer: "http://127.0.0.1:9", clientId: "c", clientSecret: "s", label: "Sign in with Microsoft", allowHttp: true },
        saml: { label: "Sign in with OKTA" },
      },
    });
    expect(await (await h.call("GET", "/api/auth/")).json()).toEqual([
      { name: "microsoft", type: "oidc", label: "Sign in with Microsoft" },
      { name: "saml", type: "saml", label: "Sign in with OKTA" },
    ]);
  });

  it("mints a token only with the service credential, compared exactly", async () => {
    const h = await harness({ sso: { serviceSecret: SECRET, saml: { label: "Sign in with OKTA" } } });
    const without = await h.call("POST", "/api/auth/sso/exchange", { body: exchange });
    expect(without.status).toBe(401);
    expect(await message(without)).toBe("A valid service credential is required.");
    for (const wrong of [SECRET.slice(0, -1), `${SECRET}x`, SECRET.toUpperCase(), "x"]) {
      const res = await h.call("POST", "/api/auth/sso/exchange", { body: exchange, headers: { "X-Service-Credential": wrong } });
      expect(res.status).toBe(401);
    }
    const good = await h.call("POST", "/api/auth/sso/exchange", { body: exchange, headers: { "X-Service-Credential": SECRET } });
    expect(good.status).toBe(200);
    const { token } = (await good.json()) as { token: string };
    // The token works like a signed-in user's.
    expect((await h.call("GET", "/api/auth/permissions/list", { token })).status).toBe(200);
  });

  it("is not reachable with a user's bearer token, even the administrator's", async () => {
    const h = await harness({ sso: { serviceSecret: SECRET, saml: { label: "Sign in with OKTA" } } });
    const res = await h.call("POST", "/api/auth/sso/exchange", { token: h.adminToken, body: exchange });
    expect(res.status).toBe(401);
    const asBearer = await h.call("POST", "/api/auth/sso/exchange", {
      body: exchange,
      headers: { Authorization: `Bearer ${SECRET}` },
    });
    expect(asBearer.status).toBe(401);
  });

  it("matches an existing account by email (any case) and never creates one", async () => {
    const h = await harness({ sso: { serviceSecret: SECRET, saml: { label: "Sign in with OKTA" } } });
    const headers = { "X-Service-Credential": SECRET };
    const upper = await h.call("POST", "/api/auth/sso/exchange", { body: { ...exchange, email: ADMIN.email.toUpperCase() }, headers });
    expect(upper.status).toBe(200);
    const unknown = await h.call("POST", "/api/auth/sso/exchange", {
      body: { email: "nobody@example.com", provider: "oidc" },
      headers,
    });
    expect(unknown.status).toBe(404);
    expect(await message(unknown)).toBe("No account for this email.");
    const users = await h.call("GET", "/api/auth/users?q=nobody", { token: h.adminToken });
    expect(((await users.json()) as { total: number }).total).toBe(0);
  });

  it("guards the OpenID callback with the service credential and checks redirect_uri", async () => {
    const h = await harness({
      sso: {
        serviceSecret: SECRET,
        oidc: { issuer: "http://127.0.0.1:9", clientId: "c", clientSecret: "s", label: "Sign in with Microsoft", allowHttp: true },
      },
    });
    const cb = await h.call("POST", "/api/auth/microsoft/callback", {
      token: h.adminToken,
      body: { callbackUrl: "http://localhost/microsoft.html?code=x&state=y" },
    });
    expect(cb.status).toBe(401);
    const bad = await h.call("GET", "/api/auth/microsoft?redirect_uri=javascript:alert(1)");
    expect(bad.status).toBe(400);
    // The provider is down (nothing listens on port 9): a status outside 200–300.
    const down = await h.call("GET", "/api/auth/microsoft?redirect_uri=http%3A%2F%2Flocalhost%2Fmicrosoft.html");
    expect(down.status).toBe(502);
  });
});
