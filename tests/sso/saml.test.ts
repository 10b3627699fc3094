import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKeyPair, type ResponseOptions } from "../../e2e/peers/saml-idp";
import { PUBLIC_URL, expectSignInRefused, expectSignedIn, startSsoApp, type Agent, type SsoApp } from "./helpers";

const ACS = `${PUBLIC_URL}/saml-callback.html`;
const SP = `${PUBLIC_URL}/auth/saml/metadata.xml`;
const FAILED = "Failed to Sign in with OKTA";

let app: SsoApp;
const email = "grace@sso.test";
beforeAll(async () => {
  app = await startSsoApp({ saml: true });
  await app.createUser(email, "Grace", "Hopper");
});
afterAll(() => app.close());

/** Starts a sign-in at the "Sign in with OKTA" button: the AuthnRequest the browser carries to the IdP. */
async function start(agent: Agent, redirectTo = "/") {
  const response = await agent.request("/auth/saml/login", { form: { redirectTo } });
  expect(response.status).toBe(302);
  const location = response.headers.get("Location")!;
  expect(location.startsWith(app.saml!.ssoUrl)).toBe(true);
  return app.saml!.parseRequest(location);
}

/** A good response to `request`, with `changes`. */
function respond(request: { id: string }, changes: Partial<ResponseOptions> = {}) {
  return app.saml!.respond({ email, inResponseTo: request.id, destination: ACS, audience: SP, ...changes });
}

async function post(agent: Agent, samlResponse: string, relayState: string | null = "/") {
  const form: Record<string, string> = { SAMLResponse: samlResponse };
  if (relayState !== null) form.RelayState = relayState;
  return agent.request("/saml-callback.html", { form });
}

/** Refused: back on the sign-in screen with the failure toast, and not signed in. */
const expectRefused = (agent: Agent, response: Response) => expectSignInRefused(agent, response, FAILED);

describe("SAML: the service provider", () => {
  it("serves its metadata at a stable URL", async () => {
    const response = await app.agent().request("/auth/saml/metadata.xml");
    expect(response.status).toBe(200);
    const xml = await response.text();
    expect(xml).toContain(`entityID="${SP}"`);
    expect(xml).toContain(`Location="${ACS}"`);
  });

  it("shows both buttons when the upstream lists both providers", async () => {
    const page = await (await app.agent().request("/login")).text();
    expect(page).toContain("Sign in with OKTA");
    expect(page).toContain('action="/auth/saml/login"');
  });

  it("accepts a signed response to its own request and greets the user by name", async () => {
    const agent = app.agent();
    const request = await start(agent, "/people");
    expect(request.acsUrl).toBe(ACS);
    expect(request.issuer).toBe(SP);
    expect(request.relayState).toBe("/people");
    const response = await post(agent, respond(request), request.relayState);
    await expectSignedIn(agent, response, { status: 303, location: "/people", name: "Grace Hopper" });
  });
});

describe("SAML: refused", () => {
  it("an unsigned response", async () => {
    const agent = app.agent();
    await expectRefused(agent, await post(agent, respond(await start(agent), { sign: "none" })));
  });

  it("a response whose assertion is signed but not the response itself", async () => {
    const agent = app.agent();
    await expectRefused(agent, await post(agent, respond(await start(agent), { sign: "assertion" })));
  });

  it("a response whose assertion is not signed (only the response is)", async () => {
    const agent = app.agent();
    await expectRefused(agent, await post(agent, respond(await start(agent), { sign: "response" })));
  });

  it("a response from another issuer, even signed with the IdP's key", async () => {
    const agent = app.agent();
    await expectRefused(agent, await post(agent, respond(await start(agent), { issuer: "https://other-idp.example/metadata" })));
  });

  it("a response signed with another key", async () => {
    const agent = app.agent();
    const key = await generateKeyPair("impostor");
    await expectRefused(agent, await post(agent, respond(await start(agent), { key })));
  });

  it("a tampered NameID (altered after signing)", async () => {
    const agent = app.agent();
    const tampered = respond(await start(agent), {
      tamper: (xml) => xml.replace(`>${email}</saml:NameID>`, ">admin@sso.test</saml:NameID>"),
    });
    expect(Buffer.from(tampered, "base64").toString()).toContain(">admin@sso.test</saml:NameID>");
    await expectRefused(agent, await post(agent, tampered));
  });

  it("an expired assertion", async () => {
    const agent = app.agent();
    const request = await start(agent);
    const expired = respond(request, { issuedAt: Date.now() - 20 * 60_000, validForMs: 5 * 60_000 });
    await expectRefused(agent, await post(agent, expired));
  });

  it("an assertion from the future beyond the clock skew", async () => {
    const agent = app.agent();
    const request = await start(agent);
    await expectRefused(agent, await post(agent, respond(request, { issuedAt: Date.now() + 10 * 60_000 })));
  });

  it("a response to a request this server never issued, or to none", async () => {
    const agent = app.agent();
    await start(agent);
    await expectRefused(agent, await post(agent, respond({ id: "_never-issued-by-this-server" })));
    const unsolicited = app.saml!.respond({ email, destination: ACS, audience: SP });
    await expectRefused(agent, await post(agent, unsolicited));
  });

  it("a replayed response", async () => {
    const first = app.agent();
    const good = respond(await start(first));
    expect((await post(first, good)).status).toBe(303);
    const attacker = app.agent();
    await expectRefused(attacker, await post(attacker, good));
    // Even in the same browser.
    const again = await post(first, good);
    expect(again.status).toBe(302);
    expect(again.headers.get("Location")).toBe("/login");
  });

  it("a response for another Audience", async () => {
    const agent = app.agent();
    await expectRefused(agent, await post(agent, respond(await start(agent), { audience: "https://other-sp.example/metadata" })));
  });

  it("a response for another Destination", async () => {
    const agent = app.agent();
    const other = "https://other-sp.example/saml/acs";
    await expectRefused(agent, await post(agent, respond(await start(agent), { destination: other })));
  });

  it("a RelayState pointing to another site", async () => {
    for (const relay of ["https://evil.example/", "//evil.example/path", "/\\evil.example", "javascript:alert(1)"]) {
      const agent = app.agent();
      const response = await post(agent, respond(await start(agent)), relay);
      await expectRefused(agent, response);
    }
  });

  it("a user without an account: nothing is created", async () => {
    const before = await app.userCount();
    const agent = app.agent();
    await expectRefused(agent, await post(agent, respond(await start(agent), { email: "stranger@sso.test" })));
    expect(await app.userCount()).toBe(before);
  });
});
