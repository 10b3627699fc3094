import { describe, expect, it } from "vitest";
import { TEAMS } from "~/teams/texts";
import { appAsAdmin, uniq } from "../helpers/app";

const { app, admin } = appAsAdmin();

async function upstream(method: string, path: string, body?: unknown) {
  const r = await app.adminApi(method, path, body);
  return r.status === 204 ? null : ((await r.json()) as Record<string, unknown>);
}

describe("/teams", () => {
  it("lists regular teams by default, assistants teams or all with the filter; members first 3 then N more...", async () => {
    const tag = uniq();
    await upstream("POST", "/api/auth/teams", {
      name: `big-${tag}`,
      members: ["a@x.io", "b@x.io", "c@x.io", "d@x.io", "e@x.io"],
    });
    await upstream("POST", "/api/auth/teams", { name: `${tag} assistants`, assistantsTeam: true });
    const regular = await (await admin.get(`/teams?q=${tag}`)).text();
    expect(regular).toContain(`big-${tag}`);
    expect(regular).not.toContain(`${tag} assistants`);
    expect(regular).toContain("a@x.io, b@x.io, c@x.io");
    expect(regular).not.toContain("d@x.io");
    expect(regular).toContain(TEAMS.more(2));
    for (const c of Object.values(TEAMS.columns)) expect(regular).toContain(`>${c}<`);
    const assistants = await (await admin.get(`/teams?q=${tag}&show=assistants`)).text();
    expect(assistants).toContain(`${tag} assistants`);
    expect(assistants).not.toContain(`big-${tag}`);
    const all = await (await admin.get(`/teams?q=${tag}&show=all`)).text();
    expect(all).toContain(`${tag} assistants`);
    expect(all).toContain(`big-${tag}`);
  });

  it("hides + add new and the edit pencil without users.write", async () => {
    const email = `reader-${uniq()}@test.local`;
    await app.createUser(email, ["users.read"]);
    const b = app.browser();
    await b.signIn(email, "secret-123");
    const html = await (await b.get("/teams")).text();
    expect(html).not.toContain(TEAMS.addNew);
    expect((await b.get("/teams/new")).status).toBe(404);
  });
});

describe("/teams/new", () => {
  it("requires a name, trims it, and answers Team already exists on 409", async () => {
    const empty = await admin.post("/teams/new", { name: "   " });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain(TEAMS.validation.nameRequired);
    const name = `Team ${uniq()}`;
    const created = await admin.post("/teams/new", { name: `  ${name}  ` });
    expect(created.status).toBe(302);
    expect(created.headers.get("Location")).toBe("/teams");
    const list = await (await admin.get(`/teams?q=${encodeURIComponent(name)}`)).text();
    expect(list).toContain(`>${name}<`);
    const again = await admin.post("/teams/new", { name });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain(TEAMS.inline.exists);
  });
});

describe("/teams/:id", () => {
  it("adds members (required, well-formed, unique), removes them, and deletes the team after confirmation", async () => {
    const team = (await upstream("POST", "/api/auth/teams", { name: `members-${uniq()}` }))!;
    const url = `/teams/${team.id as string}`;
    const page = await (await admin.get(url)).text();
    for (const t of [TEAMS.editTitle, TEAMS.noMembers, TEAMS.addMember, TEAMS.labels.assistantsTeam, TEAMS.back]) {
      expect(page).toContain(t);
    }
    expect(await (await admin.post(url, { intent: "add", email: "" })).text()).toContain(TEAMS.validation.emailRequired);
    expect(await (await admin.post(url, { intent: "add", email: "nope" })).text()).toContain(TEAMS.validation.emailInvalid);
    const added = await admin.post(url, { intent: "add", email: "Member@Test.local" });
    expect(added.status).toBe(302);
    expect(await (await admin.get(url)).text()).toContain("member@test.local");
    const dup = await admin.post(url, { intent: "add", email: "member@test.local" });
    expect(dup.status).toBe(400);
    expect(await dup.text()).toContain(TEAMS.validation.emailTaken);
    expect((await admin.post(url, { intent: "remove", email: "member@test.local" })).status).toBe(302);
    expect(await (await admin.get(url)).text()).toContain(TEAMS.noMembers);
    const failedRemove = await admin.post(url, { intent: "remove", email: "member@test.local" });
    expect(failedRemove.status).toBe(404);
    expect(await failedRemove.text()).toContain(TEAMS.toasts.memberRemoveFailed);

    const ask = await admin.post(url, { intent: "delete" });
    expect(await ask.text()).toContain(TEAMS.confirmDelete.title);
    const gone = await admin.post(url, { intent: "delete", confirmed: "yes" });
    expect(gone.headers.get("Location")).toBe("/teams");
    expect((await admin.get(url)).status).toBe(404);
  });

  it("is read-only without users.write and refuses its actions", async () => {
    const team = (await upstream("POST", "/api/auth/teams", { name: `ro-${uniq()}` }))!;
    const email = `ro-${uniq()}@test.local`;
    await app.createUser(email, ["users.read"]);
    const b = app.browser();
    await b.signIn(email, "secret-123");
    const html = await (await b.get(`/teams/${team.id as string}`)).text();
    expect(html).toContain(TEAMS.readOnlyNote);
    expect(html).not.toContain(TEAMS.addMember);
    expect((await b.post(`/teams/${team.id as string}`, { intent: "add", email: "x@y.zz" })).status).toBe(404);
  });
});
