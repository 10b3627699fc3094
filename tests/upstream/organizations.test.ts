import { describe, expect, test } from "vitest";
import { Organization, OrganizationPage } from "@contract/organizations";
import { harness, message } from "./helpers";

describe("/api/organizations CRUD", () => {
  test("create (trimmed name), get, list with search, patch, delete unlinks users", async () => {
    const h = await harness();
    const t = h.adminToken;
    const r = await h.call("POST", "/api/organizations/", { token: t, body: { name: "  Acme  " } });
    expect(r.status).toBe(201);
    const acme = Organization.parse(await r.json());
    expect(acme).toMatchObject({ name: "Acme", enableSpeechToText: false, speechToTextService: null, models: [], createdBy: "admin@example.com" });
    await h.call("POST", "/api/organizations", { token: t, body: { name: "Globex" } });
    const page = OrganizationPage.parse(await (await h.call("GET", "/api/organizations?q=glo", { token: t })).json());
    expect(page.items.map((o) => o.name)).toEqual(["Globex"]);
    const user = await h.createUser({ email: "member@example.com", organizations: [acme.id] });
    const patched = await h.call("PATCH", `/api/organizations/${acme.id}`, { token: t, body: { name: "Acme Corp", enableSpeechToText: true } });
    expect(Organization.parse(await patched.json())).toMatchObject({ name: "Acme Corp", enableSpeechToText: true });
    expect((await h.call("DELETE", `/api/organizations/${acme.id}`, { token: t })).status).toBe(204);
    const got = await h.call("GET", `/api/organizations/${acme.id}`, { token: t });
    expect(got.status).toBe(404);
    expect(await message(got)).toBe("Organization not found.");
    const u = (await (await h.call("GET", `/api/auth/users/${user.id}`, { token: t })).json()) as { organizations: string[] };
    expect(u.organizations).toEqual([]);
  });

  test("name required; permissions: read to list, organizations to create, write to change", async () => {
    const h = await harness();
    const empty = await h.call("POST", "/api/organizations", { token: h.adminToken, body: { name: "  " } });
    expect(empty.status).toBe(400);
    expect(await message(empty)).toBe("name: Name is required");
    const org = Organization.parse(await (await h.call("POST", "/api/organizations", { token: h.adminToken, body: { name: "Initech" } })).json());
    const reader = await h.createUser({ email: "reader@example.com" });
    await h.call("PATCH", `/api/auth/users/${reader.id}`, { token: h.adminToken, body: { id: reader.id, permissions: ["organizations.read"] } });
    const token = await h.login("reader@example.com", "secret1");
    expect((await h.call("GET", "/api/organizations", { token })).status).toBe(200);
    expect((await h.call("GET", `/api/organizations/${org.id}`, { token })).status).toBe(200);
    expect((await h.call("POST", "/api/organizations", { token, body: { name: "Nope" } })).status).toBe(403);
    expect((await h.call("PATCH", `/api/organizations/${org.id}`, { token, body: { name: "Nope" } })).status).toBe(403);
    expect((await h.call("DELETE", `/api/organizations/${org.id}`, { token })).status).toBe(403);
    await h.createUser({ email: "none@example.com" });
    const none = await h.login("none@example.com", "secret1");
    expect((await h.call("GET", "/api/organizations", { token: none })).status).toBe(403);
    expect((await h.call("GET", "/api/organizations/user", { token: none })).status).toBe(200);
  });
});
