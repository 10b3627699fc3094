import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_URL, expectSignInRefused, expectSignedIn, startSsoApp, type Agent, type SsoApp } from "./helpers";

const FAILED = "Failed to Sign in with Microsoft";
const CALLBACK = `${PUBLIC_URL}/microsoft.html`;

let app: SsoApp;
const email = "ada@sso.test";
beforeAll(async () => {
  app = await startSsoApp({ oidc: true });
  await app.createUser(email, "Ada", "Lovelace");
});
afterAll(() => app.close());

/** Clicks the corporate button: the authorization URL the browser is sent to. */
async function start(agent: Agent, redirectTo = "/"): Promise<URL> {
  const response = await agent.request("/auth/microsoft", { form: { redirectTo } });
  expect(response.status).toBe(302);
  const url = new URL(response.headers.get("Location")!);
  expect(url.origin).toBe(app.oidc!.issuer);
  return url;
}

/** At the provider: signs in as `who`; the callback URL the provider sends the browser back to (not visited). */
async function authorize(agent: Agent, url: URL, who = email): Promise<string> {
  const { url: interaction, response } = await agent.follow(url.href);
  expect(response.status, await response.clone().text()).toBe(200);
  expect(interaction).toMatch(/\/interaction\//);
  const posted = await agent.request(interaction, { form: { email: who } });
  const location = new URL(posted.headers.get("Location")!, interaction).href;
  const back = await agent.follow(location, CALLBACK);
  expect(back.url.startsWith(CALLBACK)).toBe(true);
  return back.url;
}

/** Refused: back on the sign-in screen with the failure toast, and not signed in. */
const expectRefused = (agent: Agent, response: Response) => expectSignInRefused(agent, response, FAILED);

describe("OpenID Connect: the corporate provider", () => {
  it("shows its button when the upstream lists it", async () => {
    const page = await (await app.agent().request("/login")).text();
    expect(page).toContain("Sign in with Microsoft");
    expect(page).toContain('action="/auth/microsoft"');
  });

  it("signs in with code, PKCE, state and nonce, and greets the user by name", async () => {
    const agent = app.agent();
    const url = await start(agent, "/people");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("state")).toBeTruthy();
    expect(url.searchParams.get("nonce")).toBeTruthy();
    expect(url.searchParams.get("redirect_uri")).toBe(CALLBACK);
    const callback = await authorize(agent, url);
    await expectSignedIn(agent, await agent.request(callback), { status: 302, location: "/people", name: "Ada Lovelace" });
  });
});

describe("OpenID Connect: refused", () => {
  it("a callback whose state is not this browser's (another browser's code and state)", async () => {
    const attacker = app.agent();
    const callback = await authorize(attacker, await start(attacker));
    // The victim never started a sign-in.
    const victim = app.agent();
    await expectRefused(victim, await victim.request(callback));
    // Or started their own: their cookie holds another state.
    const other = app.agent();
    await start(other);
    await expectRefused(other, await other.request(callback));
  });

  it("a callback with a wrong state in this browser", async () => {
    const agent = app.agent();
    const callback = new URL(await authorize(agent, await start(agent)));
    callback.searchParams.set("state", "not-the-state");
    await expectRefused(agent, await agent.request(callback.href));
  });

  it("an ID token with a wrong nonce (the authorization request was altered)", async () => {
    const agent = app.agent();
    const url = await start(agent);
    url.searchParams.set("nonce", "a-nonce-the-back-office-never-chose");
    const callback = await authorize(agent, url);
    await expectRefused(agent, await agent.request(callback));
    expect(app.logs.at(-1)).toMatch(/refused: The code was refused: .*nonce/);
  });

  it("a code replayed, even with the original browser's cookies", async () => {
    const agent = app.agent();
    const callback = await authorize(agent, await start(agent));
    const oidcCookie = agent.cookie(CALLBACK, "__oidc")!;
    expect((await agent.request(callback)).status).toBe(302);
    expect(agent.cookie("/", "__session")).toBeDefined();
    // An attacker who captured the callback request (URL and cookie) replays it.
    const attacker = app.agent();
    attacker.setCookie(CALLBACK, "__oidc", oidcCookie);
    await expectRefused(attacker, await attacker.request(callback));
    expect(app.logs.at(-1)).toMatch(/Unknown or expired sign-in/);
  });

  it("a code replayed into a sign-in of its own (another state): the provider refuses it", async () => {
    const victim = app.agent();
    const victimCallback = new URL(await authorize(victim, await start(victim)));
    // The victim's code, injected into a sign-in the attacker started (their own state and cookie, another verifier).
    const attacker = app.agent();
    const injected = new URL(victimCallback);
    injected.searchParams.set("state", (await start(attacker)).searchParams.get("state")!);
    await expectRefused(attacker, await attacker.request(injected.href));
    expect(app.logs.at(-1)).toMatch(/The code was refused/);
    // Once the victim has used it, the same code in yet another sign-in.
    const used = await victim.request(victimCallback.href);
    expect(used.headers.get("Location")).toBe("/");
    const again = app.agent();
    const reused = new URL(victimCallback);
    reused.searchParams.set("state", (await start(again)).searchParams.get("state")!);
    await expectRefused(again, await again.request(reused.href));
    expect(app.logs.at(-1)).toMatch(/The code was refused/);
  });

  it("a user without an account: nothing is created", async () => {
    const before = await app.userCount();
    const agent = app.agent();
    const callback = await authorize(agent, await start(agent), "stranger@sso.test");
    await expectRefused(agent, await agent.request(callback));
    expect(await app.userCount()).toBe(before);
  });

  it("the provider refusing (error in the callback)", async () => {
    const agent = app.agent();
    const url = await start(agent);
    const state = url.searchParams.get("state")!;
    const response = await agent.request(`/microsoft.html?error=access_denied&state=${encodeURIComponent(state)}`);
    await expectRefused(agent, response);
  });
});

describe("OpenID Connect: the provider is down", () => {
  it("answers a status outside 200–300 and the sign-in screen shows the toast", async () => {
    const down = await startSsoApp({ oidc: true, oidcIssuer: "http://127.0.0.1:9" });
    try {
      const agent = down.agent();
      const response = await agent.request("/auth/microsoft", { form: { redirectTo: "/" } });
      await expectRefused(agent, response);
    } finally {
      await down.close();
    }
  });
});
