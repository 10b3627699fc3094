import { describe, expect, it } from "vitest";
import { appAsAdmin, uniq } from "../helpers/app";

const { app, admin } = appAsAdmin();

describe("/people/:id/authorization", () => {
  it("validates the number formats, saves, and fills the people list's columns", async () => {
    const email = `auth-${uniq()}@test.local`;
    const id = await app.createUser(email, []);
    const url = `/people/${id}/authorization`;
    expect((await admin.get(url)).status).toBe(200);
    const bad = await admin.post(url, { registrationNumbers: "12345; 12a", customerNumbers: "1" });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain("&quot;12a&quot; is not a registration number (5 or 6 digits).");
    expect(html).toContain("&quot;1&quot; is not a customer number (5 to 9 digits).");
    expect(html).toContain('value="12345; 12a"');
    const ok = await admin.post(url, { registrationNumbers: "12345; 654321; 12345", customerNumbers: "99887766" });
    expect(ok.status).toBe(302);
    expect(await (await admin.get(url)).text()).toContain('value="12345; 654321"');
    const list = await (await admin.get(`/people?q=${encodeURIComponent(email)}`)).text();
    expect(list).toContain("12345; 654321");
    expect(list).toContain("99887766");
  });

  it("refuses saving without users.write", async () => {
    const email = `ro-${uniq()}@test.local`;
    const id = await app.createUser(email, ["users.read"]);
    const b = app.browser();
    await b.signIn(email, "secret-123");
    expect((await b.get(`/people/${id}/authorization`)).status).toBe(200);
    expect((await b.post(`/people/${id}/authorization`, { registrationNumbers: "12345" })).status).toBe(404);
  });
});

describe("assistants", () => {
  it("keeps the assistants team in step on create and edit (create if missing, add and remove by difference)", async () => {
    const local = `boss${uniq()}`;
    const email = `${local}@test.local`;
    const created = await admin.post("/people/new", {
      intent: "save", firstName: "Boss", lastName: "B", email, password: "secret-123", assistants: "a1@test.local; A2@test.local",
    });
    expect(created.status).toBe(302);
    const auth = { Authorization: `Bearer ${await app.adminToken()}` };
    const found = await app.context.upstream(`/api/auth/users?q=${email}`, { headers: auth });
    const id = ((await found.json()) as { items: Array<{ id: string }> }).items[0]!.id;
    const team = async () =>
      (await (await app.context.upstream(`/api/auth/teams/assistants/${id}`, { headers: auth })).json()) as {
        name: string; members: string[]; assistantsTeam: boolean;
      };
    expect(await team()).toMatchObject({ name: `${local} assistants`, assistantsTeam: true, members: ["a1@test.local", "a2@test.local"] });
    const edit = await (await admin.get(`/people/${id}`)).text();
    expect(edit).toContain('value="a1@test.local; a2@test.local"');
    const updated = await admin.post(`/people/${id}`, { intent: "update", firstName: "Boss", lastName: "B", assistants: "a2@test.local;a3@test.local" });
    expect(updated.status).toBe(302);
    expect((await team()).members).toEqual(["a2@test.local", "a3@test.local"]);
    const bad = await admin.post(`/people/${id}`, { intent: "update", firstName: "Boss", lastName: "B", assistants: "nope" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("&quot;nope&quot; is not a valid email.");
  });

  it("suggests user emails through the resource route, only for non-empty text", async () => {
    const email = `suggestme-${uniq()}@test.local`;
    await app.createUser(email, []);
    expect(await (await admin.get(`/people/suggest?q=suggestme`)).json()).toContain(email);
    expect(await (await admin.get(`/people/suggest?q=`)).json()).toEqual([]);
    const nobody = app.browser();
    const none = `none-${uniq()}@test.local`;
    await app.createUser(none, []);
    await nobody.signIn(none, "secret-123");
    expect((await nobody.get(`/people/suggest?q=a`)).status).toBe(404);
  });
});
