import { describe, expect, it } from "vitest";
import { grantOf, permissionsOf, resolveGrant, toggle } from "~/people/permissions";
import { PEOPLE } from "~/people/texts";
import { PERMISSION_KEYS } from "@contract";
import { appAsAdmin, uniq } from "../helpers/app";

const { app, admin } = appAsAdmin();

/** What the form posts: every key's previous state ("none" unless given), plus the checked boxes. */
function permissionForm(checked: { write?: string[]; read?: string[] }, was: Record<string, string> = {}) {
  const previous = Object.fromEntries(PERMISSION_KEYS.map((k) => [`was.${k}`, was[k] ?? "none"]));
  return { ...previous, write: checked.write ?? [], read: checked.read ?? [] };
}

async function permissionsOfUser(id: string): Promise<string[]> {
  const r = await app.context.upstream(`/api/auth/users/${id}`, { headers: { Authorization: `Bearer ${await app.adminToken()}` } });
  return ((await r.json()) as { permissions: string[] }).permissions;
}

describe("the three-state toggle (spec 1 §4)", () => {
  it("from none sets the clicked one; clicking the set one returns to none; clicking the other makes it exclusive", () => {
    expect(toggle("none", "write")).toBe("write");
    expect(toggle("none", "read")).toBe("read");
    expect(toggle("write", "write")).toBe("none");
    expect(toggle("read", "read")).toBe("none");
    expect(toggle("write", "read")).toBe("read");
    expect(toggle("read", "write")).toBe("write");
  });
  it("resolves both boxes ticked without JavaScript in favour of the one changed", () => {
    expect(resolveGrant("write", true, true)).toBe("read");
    expect(resolveGrant("read", true, true)).toBe("write");
    expect(resolveGrant("none", true, true)).toBe("write");
    expect(resolveGrant("write", false, false)).toBe("none");
  });
  it("maps grants to permission strings and back", () => {
    expect(permissionsOf([["users", "write"], ["forms", "read"], ["uspto", "none"]])).toEqual(["users", "forms.read"]);
    expect(grantOf(["users", "forms.read"], "forms")).toBe("read");
    expect(grantOf(["users"], "users")).toBe("write");
    expect(grantOf([], "users")).toBe("none");
  });
});

describe("/people/:id/permissions", () => {
  it("lists every catalogue key with Read and write / Read, and saves the new list", async () => {
    const id = await app.createUser(`perm-${uniq()}@test.local`, ["forms.read"]);
    const html = await (await admin.get(`/people/${id}/permissions`)).text();
    for (const key of ["users", "organizations", "forms", "workflows"]) expect(html).toContain(`<code>${key}</code>`);
    expect(html).toContain(PEOPLE.permissions.write);
    expect(html).toContain('aria-label="forms: Read" checked="" value="forms"');
    expect(html).not.toContain('aria-label="forms: Read and write" checked=""');
    const r = await admin.post(`/people/${id}/permissions`, permissionForm({ write: ["users", "forms"], read: ["forms", "templates"] }, { forms: "read" }));
    expect(r.status).toBe(302);
    expect((await permissionsOfUser(id)).sort()).toEqual(["forms", "templates.read", "users"]);
  });

  it("saving your own permissions refreshes your session at once: People leaves the navigation, /people is not found", async () => {
    const email = `self-${uniq()}@test.local`;
    const id = await app.createUser(email, ["users"]);
    const b = app.browser();
    await b.signIn(email, "secret-123");
    expect(await (await b.get("/")).text()).toContain('href="/people"');
    const r = await b.post(`/people/${id}/permissions`, permissionForm({ write: ["forms"] }, { users: "write" }));
    expect(r.status).toBe(302);
    expect(r.headers.getSetCookie().some((c) => c.startsWith("__session") || c.includes("session"))).toBe(true);
    const home = await (await b.get("/")).text();
    expect(home).not.toContain('href="/people"');
    const refused = await b.get(`/people/${id}/permissions`);
    expect(refused.status).toBe(404);
    expect(await refused.text()).toContain("Nothing here :(");
  });

  it("is read-only with users.read and refuses saving (404)", async () => {
    const email = `ro-${uniq()}@test.local`;
    const id = await app.createUser(email, ["users.read"]);
    const b = app.browser();
    await b.signIn(email, "secret-123");
    const html = await (await b.get(`/people/${id}/permissions`)).text();
    expect(html).toContain(PEOPLE.readOnlyNote);
    expect((await b.post(`/people/${id}/permissions`, permissionForm({ write: ["users"] }))).status).toBe(404);
    expect(await permissionsOfUser(id)).toEqual(["users.read"]);
  });
});

describe("/people/:id/permissions, forged posts", () => {
  it("refuses a post that does not carry every permission's previous state, changing nothing", async () => {
    const id = await app.createUser(`partial-${uniq()}@test.local`, ["forms.read", "users.read"]);
    const r = await admin.post(`/people/${id}/permissions`, { write: ["forms"], "was.forms": "read" });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain(PEOPLE.permissions.incomplete);
    expect((await permissionsOfUser(id)).sort()).toEqual(["forms.read", "users.read"]);
  });
});

describe("/people/:id/change-password", () => {
  it("requires at least 6 characters, then changes the password", async () => {
    const email = `pw-${uniq()}@test.local`;
    const id = await app.createUser(email, []);
    const page = await (await admin.get(`/people/${id}/change-password`)).text();
    expect(page).toContain(`value="${email}"`);
    const empty = await admin.post(`/people/${id}/change-password`, { password: "" });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain(PEOPLE.validation.passwordRequired);
    const short = await admin.post(`/people/${id}/change-password`, { password: "12345" });
    expect(await short.text()).toContain(PEOPLE.validation.passwordShort);
    const ok = await admin.post(`/people/${id}/change-password`, { password: "brand-new-1" });
    expect(ok.status).toBe(302);
    await app.browser().signIn(email, "brand-new-1");
  });

  it("shows the spec's failure text when the upstream refuses", async () => {
    const r = await admin.post(`/people/no-such-user/change-password`, { password: "brand-new-1" });
    expect(r.status).toBe(404);
    expect(await r.text()).toContain(PEOPLE.password.failed);
  });
});
