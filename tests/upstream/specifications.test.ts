import { describe, expect, test } from "vitest";
import { Specification, SpecificationPage } from "@contract/specifications";
import { harness, message } from "./helpers";

const base = { name: "Abstract generator", type: "abstract", description: "d", tags: ["Claims", "EP"], template: "{{title}}" };

describe("/api/specifications", () => {
  test("CRUD, audit fields, list filter by types, search in tags", async () => {
    const h = await harness();
    const t = h.adminToken;
    const created = await h.call("POST", "/api/specifications/", { token: t, body: { ...base, name: "  Abstract generator  " } });
    expect(created.status).toBe(201);
    const spec = Specification.parse(await created.json());
    expect(spec).toMatchObject({ name: "Abstract generator", isPublic: false, tags: ["Claims", "EP"], createdBy: "admin@example.com" });
    await h.call("POST", "/api/specifications", { token: t, body: { ...base, name: "Flow one", type: "flowchart", tags: ["ep", "US"] } });

    const all = SpecificationPage.parse(await (await h.call("GET", "/api/specifications/", { token: t })).json());
    expect(all.total).toBe(2);
    const flow = SpecificationPage.parse(await (await h.call("GET", "/api/specifications?types=flowchart,claims", { token: t })).json());
    expect(flow.items.map((s) => s.name)).toEqual(["Flow one"]);
    const none = SpecificationPage.parse(await (await h.call("GET", "/api/specifications?types=", { token: t })).json());
    expect(none.total).toBe(0);
    expect((await h.call("GET", "/api/specifications?types=poem", { token: t })).status).toBe(400);
    const byTag = SpecificationPage.parse(await (await h.call("GET", "/api/specifications?q=us", { token: t })).json());
    expect(byTag.items.map((s) => s.name)).toEqual(["Flow one"]);

    const patched = await h.call("PATCH", `/api/specifications/${spec.id}`, { token: t, body: { template: "{{upper title}}", isPublic: true } });
    expect(Specification.parse(await patched.json())).toMatchObject({ template: "{{upper title}}", isPublic: true, name: "Abstract generator" });
    expect((await h.call("GET", `/api/specifications/${spec.id}`, { token: t })).status).toBe(200);
    expect((await h.call("DELETE", `/api/specifications/${spec.id}`, { token: t })).status).toBe(204);
    const gone = await h.call("GET", `/api/specifications/${spec.id}`, { token: t });
    expect(gone.status).toBe(404);
    expect(await message(gone)).toBe("Specification not found.");
  });

  test("validation messages of spec 1 §5", async () => {
    const h = await harness();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, name: "   " }, "name: Name is required"],
      [{ ...base, name: " abc " }, "name: Name must be at least 4 characters."],
      [{ ...base, type: undefined }, "type: Type is required"],
      [{ ...base, template: "" }, "template: Template content is required"],
    ];
    for (const [body, text] of cases) {
      const r = await h.call("POST", "/api/specifications", { token: h.adminToken, body });
      expect(r.status).toBe(400);
      expect(await message(r)).toBe(text);
    }
  });

  test("permissions: read for reading, write for writing", async () => {
    const h = await harness();
    const spec = Specification.parse(await (await h.call("POST", "/api/specifications", { token: h.adminToken, body: base })).json());
    await h.createUser({ email: "reader@example.com" });
    const reader = await h.createUser({ email: "r2@example.com" });
    await h.call("PATCH", `/api/auth/users/${reader.id}`, { token: h.adminToken, body: { id: reader.id, permissions: ["specifications.read"] } });
    const none = await h.login("reader@example.com", "secret1");
    const read = await h.login("r2@example.com", "secret1");
    expect((await h.call("GET", "/api/specifications", { token: none })).status).toBe(403);
    expect((await h.call("GET", "/api/specifications", { token: read })).status).toBe(200);
    expect((await h.call("GET", `/api/specifications/${spec.id}`, { token: read })).status).toBe(200);
    const denied = await h.call("PATCH", `/api/specifications/${spec.id}`, { token: read, body: { name: "Changed" } });
    expect(denied.status).toBe(403);
    expect(await message(denied)).toBe("You do not have the permission specifications.");
    expect((await h.call("POST", "/api/specifications", { token: read, body: base })).status).toBe(403);
    expect((await h.call("DELETE", `/api/specifications/${spec.id}`, { token: read })).status).toBe(403);
  });

  test("params: the top-level names a template reads; a broken template is 400", async () => {
    const h = await harness();
    const r = await h.call("POST", "/api/specifications/params", {
      token: h.adminToken,
      body: { template: "{{title}} {{#each (independentClaims claims)}}{{preamble}}{{/each}} {{upper abstract}}" },
    });
    expect(await r.json()).toEqual({ params: ["abstract", "claims", "title"] });
    const bad = await h.call("POST", "/api/specifications/params", { token: h.adminToken, body: { template: "{{#each x}}" } });
    expect(bad.status).toBe(400);
    expect(await message(bad)).toMatch(/^Template error: Parse error/);
  });

  test("GET /api/suggest/tags: tags in use, prefix matches first, only with specifications.read", async () => {
    const h = await harness();
    await h.call("POST", "/api/specifications", { token: h.adminToken, body: { ...base, tags: ["European", "EP", "ep-claims"] } });
    await h.call("POST", "/api/specifications", { token: h.adminToken, body: { ...base, tags: ["Deep", "ep"] } });
    const r = await h.call("GET", "/api/suggest/tags?q=ep", { token: h.adminToken });
    expect(await r.json()).toEqual(["EP", "ep-claims", "Deep"]);
    expect(await (await h.call("GET", "/api/suggest/tags?q=", { token: h.adminToken })).json()).toEqual([]);
    await h.createUser({ email: "plain@example.com" });
    const plain = await h.login("plain@example.com", "secret1");
    expect(await (await h.call("GET", "/api/suggest/tags?q=ep", { token: plain })).json()).toEqual([]);
    expect((await h.call("GET", "/api/suggest/tags?q=ep")).status).toBe(401);
  });
});
