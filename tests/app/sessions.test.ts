import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startApp, type Browser, type TestApp } from "../helpers/app";

/** Revocable sessions, and a permission revoked mid-session is never a 500, end to end. */

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const uniq = () => Math.random().toString(36).slice(2, 8);
const NOT_FOUND = "Nothing here :(";

/** Another browser holding the cookies `browser` has now (a stolen or copied session cookie). */
function copyOf(browser: Browser | string): Browser {
  const copy = app.browser();
  const header = typeof browser === "string" ? browser : browser.header();
  copy.store(new Response(null, { headers: header.split("; ").map((c): [string, string] => ["Set-Cookie", c]) }));
  return copy;
}

function expectSignedOut(r: Response, back: string) {
  expect(r.status).toBe(302);
  expect(r.headers.get("Location")).toBe(`/login?${new URLSearchParams({ redirectTo: back })}`);
  // The dead session cookie is cleared.
  expect(r.headers.getSetCookie().some((c) => c.startsWith("__session=;") || /__session=.*Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(c))).toBe(true);
}

describe("log out revokes the session upstream", () => {
  it("a copied cookie stops working after POST /logout: pages, data requests and actions sign it out", async () => {
    const b = app.browser();
    await b.signIn(ADMIN.email, ADMIN.password);
    const stolen = b.header();
    expect((await copyOf(stolen).get("/people")).status).toBe(200);
    const out = await b.post("/logout", {});
    expect(out.headers.get("Location")).toBe("/login");

    expectSignedOut(await copyOf(stolen).get("/people?q=ann"), "/people?q=ann");
    // A client-side navigation's data request: Remix's redirect, back to the page (not its data).
    const data = await copyOf(stolen).get("/organizations?_data=routes%2F_app.organizations._index");
    expect(data.headers.get("X-Remix-Redirect")).toBe(`/login?${new URLSearchParams({ redirectTo: "/organizations" })}`);
    // An action whose upstream call is refused: the sign-in redirect, not a failure toast; nothing created.
    const name = `Revoked ${uniq()}`;
    const created = await copyOf(stolen).post("/organizations/new", { name });
    expectSignedOut(created, "/organizations/new");
    const admin = app.browser();
    await admin.signIn(ADMIN.email, ADMIN.password);
    expect(await (await admin.get(`/organizations?q=${encodeURIComponent(name)}`)).text()).toContain("0 organizations in total");
  });
});

describe("the shell and the overview check the session upstream", () => {
  /** What a page built from the cookie alone would show: the greeting, the navigation, the log out button. */
  const PERSONAL = [/Hello, /, /aria-label="Main"/, /Log out/];

  it("after log out, a copied cookie renders no name and no navigation: the overview, its data and the shell's", async () => {
    const email = `shell-${uniq()}@test.local`;
    await app.createUser(email, ["users.read"]);
    const b = app.browser();
    await b.signIn(email, "secret-123");
    const stolen = b.header();
    const before = await (await copyOf(stolen).get("/")).text();
    for (const personal of PERSONAL) expect(before).toMatch(personal);
    expect((await b.post("/logout", {})).headers.get("Location")).toBe("/login");

    const page = await copyOf(stolen).get("/");
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/login");
    expect(page.headers.getSetCookie().some((c) => c.startsWith("__session=;") || /__session=.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i.test(c))).toBe(true);
    for (const data of ["routes%2F_app._index", "routes%2F_app"]) {
      const r = await copyOf(stolen).get(`/?_data=${data}`);
      expect(r.headers.get("X-Remix-Redirect"), data).toBe("/login");
      expect(await r.text()).not.toContain(email);
    }
  });

  it("a session ended elsewhere (an administrator changed the password) renders nothing personal either", async () => {
    const email = `shell2-${uniq()}@test.local`;
    const id = await app.createUser(email, ["users.read"]);
    const user = app.browser();
    await user.signIn(email, "secret-123");
    expect(await (await user.get("/")).text()).toMatch(/Hello, /);
    const admin = app.browser();
    await admin.signIn(ADMIN.email, ADMIN.password);
    expect((await admin.post(`/people/${id}/change-password`, { password: "by-admin-2" })).status).toBe(302);
    const r = await user.get("/");
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/login");
  });
});

describe("a password change signs out the user's other browsers", () => {
  it("changed through the web form: the other browser goes to sign-in with its return path, the changer stays", async () => {
    const email = `pw-${uniq()}@test.local`;
    const id = await app.createUser(email, ["users"]);
    const here = app.browser();
    const there = app.browser();
    await here.signIn(email, "secret-123");
    await there.signIn(email, "secret-123");
    expect((await there.get("/people")).status).toBe(200);

    const changed = await here.post(`/people/${id}/change-password`, { password: "new-secret-1" });
    expect(changed.status).toBe(302);
    expect(changed.headers.get("Location")).toBe(`/people/${id}`);

    expectSignedOut(await there.get(`/people/${id}`), `/people/${id}`);
    expect((await here.get("/people")).status).toBe(200);
    expect((await here.get(`/people/${id}`)).status).toBe(200);
    // The old password no longer works, the new one does.
    await expect(app.browser().signIn(email, "secret-123")).rejects.toThrow();
    await app.browser().signIn(email, "new-secret-1");
  });

  it("changed by an administrator: every browser of that user is signed out, the administrator is not", async () => {
    const email = `pw2-${uniq()}@test.local`;
    const id = await app.createUser(email, ["users.read"]);
    const user = app.browser();
    await user.signIn(email, "secret-123");
    const admin = app.browser();
    await admin.signIn(ADMIN.email, ADMIN.password);
    expect((await admin.post(`/people/${id}/change-password`, { password: "by-admin-1" })).status).toBe(302);
    expectSignedOut(await user.get("/teams"), "/teams");
    expect((await admin.get("/teams")).status).toBe(200);
  });
});

describe("a permission revoked while signed in (item 8): never 500", () => {
  it("revoking organizations.read ends the session: sign-in with the return path, then the not-found view", async () => {
    const email = `org-${uniq()}@test.local`;
    const id = await app.createUser(email, ["organizations.read", "users.read"]);
    const user = app.browser();
    await user.signIn(email, "secret-123");
    expect((await user.get("/organizations")).status).toBe(200);

    const saved = await app.context.upstream(`/api/auth/users/${id}`, {
      method: "PATCH",
      headers: { Authorization: `Bearer ${await app.adminToken()}`, "Content-Type": "application/json" },
      body: JSON.stringify({ id, permissions: ["users.read"] }),
    });
    expect(saved.status).toBe(200);

    for (const path of ["/organizations", "/people", "/teams", "/specifications"]) {
      const r = await user.get(path);
      expect(r.status).toBeLessThan(500);
    }
    const user2 = app.browser();
    await user2.signIn(email, "secret-123");
    const gone = await user2.get("/organizations");
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain(NOT_FOUND);
    expect((await user2.get("/people")).status).toBe(200);
  });

  it("an upstream 403 behind a token that still promises the permission is the not-found view, with a fresh token", async () => {
    const email = `org403-${uniq()}@test.local`;
    await app.createUser(email, ["organizations.read", "specifications.read", "users.read"]);
    const user = app.browser();
    await user.signIn(email, "secret-123");
    // The window this fixes: the upstream already refuses (current permissions) while the session's token still
    // carries the permission, so the route guard lets the page through.
    const real = app.context.upstream;
    app.context.upstream = async (path, init) => {
      const auth = new Headers(init?.headers).get("Authorization") ?? "";
      const payload = auth ? (JSON.parse(Buffer.from(auth.split(".")[1] ?? "", "base64url").toString()) as { email: string }) : null;
      if (payload?.email === email && /^\/api\/(organizations|specifications|auth\/users|auth\/teams)/.test(path)) {
        return Response.json({ message: "You do not have the permission." }, { status: 403 });
      }
      return real(path, init);
    };
    try {
      for (const path of ["/organizations", "/specifications", "/people", "/teams"]) {
        const r = await user.get(path);
        expect(r.status, path).toBe(404);
        const html = await r.text();
        expect(html).toContain(NOT_FOUND);
        expect(html).not.toContain("Something went wrong");
        expect(r.headers.getSetCookie().some((c) => c.startsWith("__session="))).toBe(true);
      }
    } finally {
      app.context.upstream = real;
    }
  });
});
