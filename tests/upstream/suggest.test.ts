import { describe, expect, test } from "vitest";
import { harness } from "./helpers";

describe("GET /api/auth/suggest/users", () => {
  test("emails containing q, those starting with it first; [] for no q; needs users.read", async () => {
    const h = await harness();
    const t = { token: h.adminToken };
    await h.createUser({ email: "ann@example.com" });
    await h.createUser({ email: "joann@example.com" });
    await h.createUser({ email: "bob@example.com" });
    expect(await (await h.call("GET", "/api/auth/suggest/users?q=ANN", t)).json()).toEqual(["ann@example.com", "joann@example.com"]);
    expect(await (await h.call("GET", "/api/auth/suggest/users?q=", t)).json()).toEqual([]);
    expect(await (await h.call("GET", "/api/auth/suggest/users", t)).json()).toEqual([]);
    expect((await h.call("GET", "/api/auth/suggest/users?q=a")).status).toBe(401);
    const none = await h.login("bob@example.com", "secret1");
    expect((await h.call("GET", "/api/auth/suggest/users?q=a", { token: none })).status).toBe(403);
  });
});
