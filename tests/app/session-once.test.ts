import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refreshSession } from "~/auth/session.server";
import { startAppAsAdmin, type Browser, type TestApp } from "../helpers/app";

let app: TestApp;
let admin: Browser;
beforeAll(async () => {
  ({ app, admin } = await startAppAsAdmin());
});
afterAll(() => app.close());

/** A page's loaders each get their own copy of the request (Remix), but share one load context. */
const copy = (url: string, cookie: string, method = "GET") =>
  new Request(`http://localhost${url}`, { method, headers: { Cookie: cookie } });

describe("the session is decoded once per page request", () => {
  it("a page's loaders share one answer through the request's load context", async () => {
    const context = { ...app.context };
    const cookie = admin.header();
    const first = refreshSession(copy("/people", cookie), context);
    const second = refreshSession(copy("/people?_data=routes%2F_app", cookie), context);
    expect(second).toBe(first);
    expect((await first).identity.email).toBeTruthy();
  });

  it("another request (a new context), another cookie, or an action decodes again", async () => {
    const cookie = admin.header();
    const context = { ...app.context };
    const first = refreshSession(copy("/people", cookie), context);
    expect(refreshSession(copy("/people", cookie), { ...app.context })).not.toBe(first);
    expect(refreshSession(copy("/people", `${cookie}; x=1`), context)).not.toBe(first);
    expect(refreshSession(copy("/people", cookie, "POST"), context)).not.toBe(first);
    await first;
  });
});
