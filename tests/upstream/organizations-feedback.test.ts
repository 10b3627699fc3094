import { describe, expect, test } from "vitest";
import { OrganizationOptions } from "@contract";
import { openDatabase } from "../../upstream/src/db";
import { OrganizationsStore } from "../../upstream/src/organizations/store";
import { START, harness, message } from "./helpers";

describe("GET /api/organizations/user", () => {
  test("id and name of every organization by name, to any signed-in user; 401 without a token", async () => {
    const h = await harness();
    expect(await (await h.call("GET", "/api/organizations/user", { token: h.adminToken })).json()).toEqual([]);
    const db = openDatabase(h.dir);
    const store = new OrganizationsStore(db, () => START);
    const add = (name: string) => ({ id: store.create({ name }, null).id, name });
    const globex = add("globex");
    const acme = add("Acme");
    const initech = add("Initech");
    db.close();
    await h.createUser({ email: "plain@example.com" });
    const token = await h.login("plain@example.com", "secret1");
    const res = await h.call("GET", "/api/organizations/user", { token });
    expect(res.status).toBe(200);
    expect(OrganizationOptions.parse(await res.json())).toEqual([acme, globex, initech]);
    expect((await h.call("GET", "/api/organizations/user")).status).toBe(401);
  });
});

describe("GET /api/feedback/canny/redirectUrl", () => {
  test("answers the configured URL as text/plain", async () => {
    const h = await harness({ feedbackUrl: "https://feedback.example.com/board" });
    const res = await h.call("GET", "/api/feedback/canny/redirectUrl", { token: h.adminToken });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await res.text()).toBe("https://feedback.example.com/board");
    expect((await h.call("GET", "/api/feedback/canny/redirectUrl")).status).toBe(401);
  });

  test("404 when no board is configured", async () => {
    const h = await harness();
    const res = await h.call("GET", "/api/feedback/canny/redirectUrl", { token: h.adminToken });
    expect(res.status).toBe(404);
    expect(await message(res)).toBe("No feedback board is configured.");
  });
});
