import { describe, expect, it } from "vitest";
import { PEOPLE } from "~/people/texts";
import { ADMIN, appAsAdmin, uniq } from "../helpers/app";

const { app, admin } = appAsAdmin();

/** The id of the user with this email, through the list page's upstream call. */
async function idOf(email: string): Promise<string> {
  const r = await app.context.upstream(`/api/auth/users?q=${encodeURIComponent(email)}`, {
    headers: { Authorization: `Bearer ${await app.adminToken()}` },
  });
  return ((await r.json()) as { items: Array<{ id: string }> }).items[0]!.id;
}

describe("/people list", () => {
  it("renders the spec's columns and the total", async () => {
    const html = await (await admin.get("/people")).text();
    for (const c of Object.values(PEOPLE.columns)) expect(html).toContain(`>${c}<`);
    expect(html).toMatch(/\d+ (person|people) in total/);
    expect(html).toContain(PEOPLE.addNew);
  });

  it("searches on the server", async () => {
    const email = `findme-${uniq()}@test.local`;
    await app.createUser(email, []);
    const html = await (await admin.get(`/people?q=${encodeURIComponent(email)}`)).text();
    expect(html).toContain(email);
    expect(html).toContain("1 person in total");
    const none = await (await admin.get(`/people?q=zzz-${uniq()}`)).text();
    expect(none).toContain("No people match");
  });

  it("remembers the sort per list in the prefs cookie", async () => {
    const b = app.browser();
    await b.signIn(ADMIN.email, ADMIN.password);
    const first = await b.get("/people?sort=newest");
    expect(first.headers.getSetCookie().some((c) => c.startsWith("prefs="))).toBe(true);
    const again = await (await b.get("/people")).text();
    expect(again).toMatch(/<option value="newest" selected="">/);
  });

  it("ignores a bad page or sort instead of failing", async () => {
    const r = await admin.get("/people?page=-3&sort=sideways");
    expect(r.status).toBe(200);
  });
});

describe("/people/new action", () => {
  it("answers 400 with every message for empty input", async () => {
    const r = await admin.post("/people/new?_data=routes%2F_app.people.new", { intent: "save" });
    expect(r.status).toBe(400);
    const body = (await r.json()) as { error: Record<string, string[]> };
    expect(body.error).toEqual({
      firstName: [PEOPLE.validation.firstNameRequired],
      lastName: [PEOPLE.validation.lastNameRequired],
      email: [PEOPLE.validation.emailRequired],
      password: [PEOPLE.validation.passwordRequired],
    });
  });

  it("re-renders the form with what was typed and the messages, without JavaScript", async () => {
    const r = await admin.post("/people/new", { intent: "save", firstName: "Ada", email: "bad", password: "123" });
    expect(r.status).toBe(400);
    const html = await r.text();
    expect(html).toContain('value="Ada"');
    expect(html).toContain('value="bad"');
    expect(html).toContain(PEOPLE.validation.emailInvalid);
    expect(html).toContain(PEOPLE.validation.passwordShort);
    expect(html).toContain(PEOPLE.validation.lastNameRequired);
  });

  it("randomizes the password without JavaScript, keeping the rest and showing no errors", async () => {
    const r = await admin.post("/people/new", { intent: "randomize", firstName: "Ada", password: "" });
    expect(r.status).toBe(200);
    const html = await r.text();
    expect(html).toContain('value="Ada"');
    expect(html).toMatch(/name="password"[^>]*value="[0-9a-z]{12}"|value="[0-9a-z]{12}"[^>]*name="password"/);
    expect(html).not.toContain(PEOPLE.validation.lastNameRequired);
  });

  it("creates a user (trimmed) and goes to /people with a toast", async () => {
    const email = `new-${uniq()}@test.local`;
    const r = await admin.post("/people/new", {
      intent: "save",
      firstName: " Ada ",
      lastName: " Lovelace ",
      email: ` ${email} `,
      password: "secret-123",
    });
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/people");
    const list = await (await admin.get("/people")).text();
    expect(list).toContain("User created");
    const id = await idOf(email);
    const user = await (await admin.get(`/people/${id}`)).text();
    expect(user).toContain('value="Ada"');
    expect(user).toContain('value="Lovelace"');
  });

  it("shows the create failure for a duplicate email, values kept", async () => {
    const email = `dupe-${uniq()}@test.local`;
    await app.createUser(email, []);
    const r = await admin.post("/people/new", { intent: "save", firstName: "A", lastName: "B", email, password: "secret-123" });
    expect(r.status).toBe(409);
    const html = await r.text();
    expect(html).toContain(PEOPLE.inline.createFailed);
    expect(html).toContain(PEOPLE.toasts.createFailed);
    expect(html).toContain(`value="${email}"`);
  });

  it("is not found for a user without the users permission", async () => {
    const email = `reader-${uniq()}@test.local`;
    await app.createUser(email, ["users.read"]);
    const b = app.browser();
    await b.signIn(email, "secret-123");
    const r = await b.post("/people/new", { intent: "save", firstName: "A", lastName: "B", email: "x@y.z", password: "secret-123" });
    expect(r.status).toBe(404);
  });
});

describe("/people/:id", () => {
  it("updates names and returns to /people", async () => {
    const email = `edit-${uniq()}@test.local`;
    const id = await app.createUser(email, []);
    const r = await admin.post(`/people/${id}`, { intent: "update", firstName: "Grace", lastName: "Hopper" });
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/people");
    expect(await (await admin.get(`/people/${id}`)).text()).toContain('value="Hopper"');
  });

  it("requires first and last name on update", async () => {
    const id = await app.createUser(`edit2-${uniq()}@test.local`, []);
    const r = await admin.post(`/people/${id}`, { intent: "update", firstName: "", lastName: "" });
    expect(r.status).toBe(400);
    const html = await r.text();
    expect(html).toContain(PEOPLE.validation.firstNameRequired);
    expect(html).toContain(PEOPLE.validation.lastNameRequired);
  });

  it("shows a read-only form without users.write and refuses its actions", async () => {
    const id = await app.createUser(`target-${uniq()}@test.local`, []);
    const email = `ro-${uniq()}@test.local`;
    await app.createUser(email, ["users.read"]);
    const b = app.browser();
    await b.signIn(email, "secret-123");
    const html = await (await b.get(`/people/${id}`)).text();
    expect(html).toContain(PEOPLE.editTitle);
    expect(html).not.toContain(">Update<");
    expect(html).toMatch(/name="firstName"[^>]*disabled|disabled[^>]*name="firstName"/);
    expect((await b.post(`/people/${id}`, { intent: "update", firstName: "X", lastName: "Y" })).status).toBe(404);
    expect((await b.post(`/people/${id}`, { intent: "delete", confirmed: "yes" })).status).toBe(404);
  });

  it("asks for confirmation before deleting, then deletes", async () => {
    const email = `del-${uniq()}@test.local`;
    const id = await app.createUser(email, []);
    const ask = await admin.post(`/people/${id}`, { intent: "delete" });
    expect(ask.status).toBe(200);
    const html = await ask.text();
    expect(html).toContain(PEOPLE.confirmDelete.title);
    expect(html).toContain(`Test User (${email}) will be deleted. This action can&#x27;t be undone.`);
    expect((await admin.get(`/people/${id}`)).status).toBe(200);
    const done = await admin.post(`/people/${id}`, { intent: "delete", confirmed: "yes" });
    expect(done.status).toBe(302);
    expect(await (await admin.get("/people")).text()).toContain(PEOPLE.toasts.deleted);
    expect((await admin.get(`/people/${id}`)).status).toBe(404);
  });

  it("refuses to delete one's own account", async () => {
    const id = await idOf(ADMIN.email);
    const page = await (await admin.get(`/people/${id}`)).text();
    expect(page).toContain(PEOPLE.ownAccount);
    const r = await admin.post(`/people/${id}`, { intent: "delete", confirmed: "yes" });
    expect(r.status).toBe(403);
    expect((await admin.get(`/people/${id}`)).status).toBe(200);
  });

  it("is not found for an unknown id", async () => {
    expect((await admin.get("/people/does-not-exist")).status).toBe(404);
  });
});
