import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGN_IN } from "~/auth/texts";
import { ADMIN, startApp, type TestApp } from "../helpers/app";

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

describe("sign-in", () => {
  it("shows the sign-in screen to a visitor", async () => {
    const html = await (await app.browser().get("/login")).text();
    expect(html).toContain(SIGN_IN.greeting);
    expect(html).toContain(SIGN_IN.submit);
  });

  it("signs in and goes where the user was going (only on this site)", async () => {
    const b = app.browser();
    const r = await b.post("/login", { email: ADMIN.email, password: ADMIN.password, redirectTo: "/people?q=a" });
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/people?q=a");
    const cookie = r.headers.getSetCookie().find((c) => c.startsWith("__session="))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const evil = await app.browser().post("/login", { email: ADMIN.email, password: ADMIN.password, redirectTo: "//evil.test/x" });
    expect(evil.headers.get("Location")).toBe("/");
  });

  it("gives a browser without JavaScript the time zone saved in the user's settings (else dates say UTC)", async () => {
    const email = `zone-${Math.random().toString(36).slice(2, 8)}@test.local`;
    await app.createUser(email, ["users.read"]);
    const saved = await app.adminApi("PUT", "/api/settings/users/time_zone", { key: "time_zone", value: "America/New_York", secured: false, owner: email });
    expect(saved.status, await saved.clone().text()).toBeLessThan(300);
    const r = await app.browser().post("/login", { email, password: "secret-123" });
    expect(r.headers.getSetCookie().find((c) => c.startsWith("tz="))).toMatch(/^tz=America%2FNew_York;/);
    // A browser that told its own zone (JavaScript) keeps it.
    const told = app.browser();
    told.store(new Response(null, { headers: { "Set-Cookie": "tz=Europe%2FBerlin" } }));
    const r2 = await told.post("/login", { email, password: "secret-123" });
    expect(r2.status).toBe(302);
    expect(r2.headers.getSetCookie().find((c) => c.startsWith("tz="))).toBeUndefined();
  });

  it("refuses a wrong password with the spec's message, keeping the email", async () => {
    const r = await app.browser().post("/login", { email: ADMIN.email, password: "wrong" });
    expect(r.status).toBe(401);
    const html = await r.text();
    expect(html).toContain(SIGN_IN.failed);
    expect(html).toContain(`value="${ADMIN.email}"`);
  });

  it("refuses empty fields with the same message", async () => {
    const r = await app.browser().post("/login", { email: "", password: "" });
    expect(r.status).toBe(401);
    expect(await r.text()).toContain(SIGN_IN.failed);
  });

  it("throttles one address after three failures and says how long to wait; another address is not locked out", async () => {
    const email = `throttle-${Math.random().toString(36).slice(2, 8)}@test.local`;
    await app.createUser(email, []);
    for (let i = 0; i < 3; i++) {
      expect((await app.browser().post("/login", { email, password: "wrong" })).status).toBe(401);
    }
    const r = await app.browser().post("/login", { email, password: "secret-123" });
    expect(r.status).toBe(429);
    const html = await r.text();
    expect(html).toContain(SIGN_IN.failed);
    expect(html).toContain("Too many failed attempts. Please wait 1 second before trying again.");
    // The same account from another browser's address signs in at once: nobody can lock anyone out.
    const address = app.context.clientAddress;
    app.context.clientAddress = "192.0.2.10";
    try {
      expect((await app.browser().post("/login", { email, password: "secret-123" })).status).toBe(302);
    } finally {
      app.context.clientAddress = address;
    }
  });

  it("logs out with a POST only", async () => {
    const b = app.browser();
    await b.signIn(ADMIN.email, ADMIN.password);
    expect((await b.get("/logout")).status).toBe(302);
    expect((await b.get("/people")).status).toBe(200);
    const out = await b.post("/logout", {});
    expect(out.headers.get("Location")).toBe("/login");
    expect((await b.get("/people")).status).toBe(302);
  });

  it("sends a signed-in user away from the sign-in screen", async () => {
    const b = app.browser();
    await b.signIn(ADMIN.email, ADMIN.password);
    const r = await b.get("/login");
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/");
  });
});
