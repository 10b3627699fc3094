import { describe, expect, it } from "vitest";
import { parseIdpMetadata } from "~/auth/saml-idp.server";
import { ConfigError, loadConfig } from "~/lib/config.server";
import { createTestIdp } from "../../e2e/peers/saml-idp";
import { startSsoApp } from "./helpers";

const OIDC = { OIDC_ISSUER: "https://login.example.com/tenant/v2.0", OIDC_CLIENT_ID: "id", OIDC_CLIENT_SECRET: "secret" };

describe("single sign-on configuration", () => {
  it("is off without settings", () => {
    expect(loadConfig({}).sso).toBeNull();
  });

  it("reads the OpenID and SAML settings", () => {
    const config = loadConfig({ ...OIDC, PUBLIC_URL: "https://bo.example.com/", SAML_IDP_METADATA: "/etc/idp.xml" });
    expect(config.sso).toEqual({
      publicUrl: "https://bo.example.com",
      serviceSecret: undefined,
      oidc: { ...{ issuer: OIDC.OIDC_ISSUER, clientId: "id", clientSecret: "secret" }, label: "Sign in with Microsoft", allowHttp: false },
      saml: { metadataFile: "/etc/idp.xml", spEntityId: "https://bo.example.com/auth/saml/metadata.xml", clockSkewMs: 60_000 },
    });
  });

  it("refuses incomplete or unsafe settings, naming them", () => {
    const bad = (env: Record<string, string>, text: string) =>
      expect(() => loadConfig(env)).toThrow(expect.objectContaining({ message: expect.stringContaining(text) }) as Error);
    bad({ OIDC_ISSUER: OIDC.OIDC_ISSUER, PUBLIC_URL: "https://bo.example.com" }, "set all three, or none");
    bad(OIDC, "PUBLIC_URL: is required");
    bad({ ...OIDC, OIDC_ISSUER: "http://idp.example.com", PUBLIC_URL: "https://bo.example.com" }, "must be https");
    bad({ ...OIDC, PUBLIC_URL: "https://bo.example.com", UPSTREAM_URL: "https://api.example.com" }, "SSO_SERVICE_SECRET");
    bad({ SSO_SERVICE_SECRET: "short" }, "SSO_SERVICE_SECRET: must be at least 32");
    expect(() => loadConfig({ SAML_CLOCK_SKEW_SECONDS: "9999" })).toThrow(ConfigError);
    // Plain HTTP only for an issuer on loopback (tests, local providers).
    const local = loadConfig({ ...OIDC, OIDC_ISSUER: "http://127.0.0.1:4000", PUBLIC_URL: "http://localhost:3000" });
    expect(local.sso?.oidc?.allowHttp).toBe(true);
  });

  it("parses IdP metadata, and refuses metadata without a certificate or a redirect endpoint", async () => {
    const idp = await createTestIdp("https://idp.example.com");
    const parsed = parseIdpMetadata(idp.metadata);
    expect(parsed.entityId).toBe("https://idp.example.com/metadata");
    expect(parsed.ssoUrl).toBe("https://idp.example.com/sso");
    expect(parsed.certs).toHaveLength(1);
    expect(() => parseIdpMetadata(idp.metadata.replace(/<md:KeyDescriptor[\s\S]*<\/md:KeyDescriptor>/, ""))).toThrow(
      "no signing certificate",
    );
    expect(() => parseIdpMetadata(idp.metadata.replace("HTTP-Redirect", "HTTP-POST"))).toThrow("HTTP-Redirect");
    expect(() => parseIdpMetadata("<nope/>")).toThrow();
  });
});

describe("the sign-in screen without single sign-on", () => {
  it("shows no external button, and the form still signs in", async () => {
    const app = await startSsoApp({});
    try {
      const agent = app.agent();
      const page = await (await agent.request("/login")).text();
      expect(page).not.toContain("Sign in with Microsoft");
      expect(page).not.toContain("Sign in with OKTA");
      expect((await agent.request("/auth/saml/metadata.xml")).status).toBe(404);
      // The button's route without a provider: the failure toast, no redirect elsewhere.
      const start = await agent.request("/auth/microsoft", { form: { redirectTo: "/" } });
      expect(start.headers.get("Location")).toBe("/login");
      const signIn = await agent.request("/login", { form: { email: "admin@sso.test", password: "admin-password", redirectTo: "/" } });
      expect(signIn.status).toBe(302);
      expect(await (await agent.request("/")).text()).toContain("Hello, ");
    } finally {
      await app.close();
    }
  });
});
