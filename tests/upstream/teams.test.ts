import { describe, expect, test } from "vitest";
import { Team, TeamPage } from "@contract/teams";
import { harness, message, type Harness } from "./helpers";

async function tokenFor(h: Harness, email: string, permissions: string[]): Promise<{ id: string; token: string }> {
  const user = await h.createUser({ email });
  const res = await h.call("PATCH", `/api/auth/users/${user.id}`, { token: h.adminToken, body: { id: user.id, permissions } });
  expect(res.status).toBe(200);
  return { id: user.id, token: await h.login(email, "secret1") };
}

describe("teams endpoints", () => {
  test("refuse without the permission (401 without a token, 403 without users.read / users.write)", async () => {
    const h = await harness();
    expect((await h.call("GET", "/api/auth/teams")).status).toBe(401);
    const none = await tokenFor(h, "none@example.com", []);
    const reader = await tokenFor(h, "reader@example.com", ["users.read"]);
    expect((await h.call("GET", "/api/auth/teams", { token: none.token })).status).toBe(403);
    expect((await h.call("GET", `/api/auth/teams/assistants/${none.id}`, { token: none.token })).status).toBe(403);
    const created = await h.call("POST", "/api/auth/teams", { token: h.adminToken, body: { name: "Alpha" } });
    const team = Team.parse(await created.json());
    expect((await h.call("GET", `/api/auth/teams/${team.id}`, { token: none.token })).status).toBe(403);
    expect((await h.call("GET", `/api/auth/teams/${team.id}`, { token: reader.token })).status).toBe(200);
    for (const [method, url, body] of [
      ["POST", "/api/auth/teams", { name: "Beta" }],
      ["DELETE", `/api/auth/teams/${team.id}`, undefined],
      ["POST", `/api/auth/teams/${team.id}/members`, { email: "a@b.cd" }],
      ["DELETE", `/api/auth/teams/${team.id}/members/a%40b.cd`, undefined],
    ] as const) {
      const res = await h.call(method, url, { token: reader.token, body });
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(await message(res)).toBe("You do not have the permission users.");
    }
  });

  test("create: trimmed name, 400 for an empty name or a bad member, 409 for a taken name (any case)", async () => {
    const h = await harness();
    const t = { token: h.adminToken };
    const empty = await h.call("POST", "/api/auth/teams/", { ...t, body: { name: "   " } });
    expect(empty.status).toBe(400);
    expect(await message(empty)).toBe("name: Name is required");
    const badMember = await h.call("POST", "/api/auth/teams/", { ...t, body: { name: "X", members: ["nope"] } });
    expect(badMember.status).toBe(400);
    expect(await message(badMember)).toBe("email: Email is not well-formed");
    const ok = await h.call("POST", "/api/auth/teams/", { ...t, body: { name: "  Patent Team ", members: ["A@B.cd"] } });
    expect(ok.status).toBe(201);
    const team = Team.parse(await ok.json());
    expect(team).toMatchObject({ name: "Patent Team", members: ["a@b.cd"], assistantsTeam: false, createdBy: "admin@example.com" });
    const dup = await h.call("POST", "/api/auth/teams/", { ...t, body: { name: "patent team" } });
    expect(dup.status).toBe(409);
    expect(await message(dup)).toBe("Team already exists");
  });

  test("members: add (400 required / malformed, 409 duplicate), remove (404 when not a member), delete team", async () => {
    const h = await harness();
    const t = { token: h.adminToken };
    const team = Team.parse(await (await h.call("POST", "/api/auth/teams", { ...t, body: { name: "T" } })).json());
    const url = `/api/auth/teams/${team.id}/members`;
    expect(await message(await h.call("POST", url, { ...t, body: { email: " " } }))).toBe("email: Email is required");
    expect(await message(await h.call("POST", url, { ...t, body: { email: "x@" } }))).toBe("email: Email is not well-formed");
    const added = await h.call("POST", url, { ...t, body: { email: "Ann@Example.com" } });
    expect(added.status).toBe(201);
    expect(Team.parse(await added.json()).members).toEqual(["ann@example.com"]);
    const again = await h.call("POST", url, { ...t, body: { email: "ann@example.com" } });
    expect(again.status).toBe(409);
    expect(await message(again)).toBe("Email should be unique");
    const removed = await h.call("DELETE", `${url}/${encodeURIComponent("ann@example.com")}`, t);
    expect(removed.status).toBe(200);
    expect(Team.parse(await removed.json()).members).toEqual([]);
    expect((await h.call("DELETE", `${url}/${encodeURIComponent("ann@example.com")}`, t)).status).toBe(404);
    expect((await h.call("POST", `/api/auth/teams/nope/members`, { ...t, body: { email: "a@b.cd" } })).status).toBe(404);
    expect((await h.call("DELETE", `/api/auth/teams/${team.id}`, t)).status).toBe(204);
    expect((await h.call("GET", `/api/auth/teams/${team.id}`, t)).status).toBe(404);
    expect((await h.call("DELETE", `/api/auth/teams/${team.id}`, t)).status).toBe(404);
  });

  test("list: assistants filter, search, sort; assistants team of a user", async () => {
    const h = await harness();
    const t = { token: h.adminToken };
    const ann = await h.createUser({ email: "ann@example.com" });
    await h.call("POST", "/api/auth/teams", { ...t, body: { name: "ann assistants", assistantsTeam: true, members: ["bob@example.com"] } });
    await h.call("POST", "/api/auth/teams", { ...t, body: { name: "Zeta" } });
    await h.call("POST", "/api/auth/teams", { ...t, body: { name: "alpha" } });
    const names = async (qs: string) =>
      TeamPage.parse(await (await h.call("GET", `/api/auth/teams${qs}`, t)).json()).items.map((x) => x.name);
    expect(await names("")).toEqual(["alpha", "ann assistants", "Zeta"]);
    expect(await names("?assistants=true")).toEqual(["ann assistants"]);
    expect(await names("?assistants=false")).toEqual(["alpha", "Zeta"]);
    expect(await names("?q=bob")).toEqual(["ann assistants"]);
    expect((await h.call("GET", "/api/auth/teams?assistants=maybe", t)).status).toBe(400);
    expect((await h.call("GET", "/api/auth/teams?sort=sideways", t)).status).toBe(400);
    const mine = await h.call("GET", `/api/auth/teams/assistants/${ann.id}`, t);
    expect(mine.status).toBe(200);
    expect(Team.parse(await mine.json()).members).toEqual(["bob@example.com"]);
    const bob = await h.createUser({ email: "bob@example.com" });
    expect((await h.call("GET", `/api/auth/teams/assistants/${bob.id}`, t)).status).toBe(404);
    expect((await h.call("GET", `/api/auth/teams/assistants/nobody`, t)).status).toBe(404);
  });
});
