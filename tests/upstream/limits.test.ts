import { describe, expect, test } from "vitest";
import { LIMIT_MESSAGES, LIST_LIMITS, TEXT_LIMITS } from "@contract/common";
import { ALL_PERMISSIONS } from "@contract/permissions";
import { harness, message, type Harness } from "./helpers";

/** Every text field and list the upstream stores is bounded, control characters are refused. */

const text = (n: number, c = "a") => c.repeat(n);
const spec = { name: "Abstract generator", type: "abstract", description: "d", tags: ["EP"], template: "{{title}}" };

async function expect400(res: Response, field: string, msg?: string) {
  expect(res.status).toBe(400);
  const m = await message(res);
  expect(m.startsWith(`${field}: `)).toBe(true);
  if (msg) expect(m).toBe(`${field}: ${msg}`);
}

async function count(h: Harness, path: string): Promise<number> {
  return ((await (await h.call("GET", path, { token: h.adminToken })).json()) as { total: number }).total;
}

describe("users", () => {
  test("a 1,000,000-character first name is refused on create and update; exactly 200 passes", async () => {
    const h = await harness();
    const t = h.adminToken;
    const before = await count(h, "/api/auth/users");
    const huge = await h.call("POST", "/api/auth/users", {
      token: t,
      body: { firstName: text(1_000_000), lastName: "Lee", email: "huge@example.com", password: "secret1" },
    });
    await expect400(huge, "firstName", LIMIT_MESSAGES.tooLong("First name", TEXT_LIMITS.name));
    const over = await h.call("POST", "/api/auth/users", {
      token: t,
      body: { firstName: "Ann", lastName: text(201), email: "over@example.com", password: "secret1" },
    });
    await expect400(over, "lastName", "Last name must be at most 200 characters.");
    expect(await count(h, "/api/auth/users")).toBe(before);

    const user = await h.createUser({ email: "max@example.com", firstName: text(200), lastName: text(200) });
    expect(user.firstName).toBe(text(200));

    const patch = (body: Record<string, unknown>) =>
      h.call("PATCH", `/api/auth/users/${user.id}`, { token: t, body: { id: user.id, ...body } });
    await expect400(await patch({ firstName: text(1_000_000) }), "firstName");
    await expect400(await patch({ lastName: text(201) }), "lastName");
    await expect400(await patch({ password: text(1_001) }), "password", "Password must be at most 1,000 characters.");
    expect((await patch({ password: text(1_000) })).status).toBe(200);
    expect((await patch({ firstName: text(200, "b") })).status).toBe(200);
  });

  test("NUL and other control characters are refused in names, email and script key", async () => {
    const h = await harness();
    const t = h.adminToken;
    const create = (fields: Record<string, unknown>) =>
      h.call("POST", "/api/auth/users", {
        token: t,
        body: { firstName: "Ann", lastName: "Lee", email: "c@example.com", password: "secret1", ...fields },
      });
    await expect400(await create({ firstName: "Ann\u0000" }), "firstName", "First name contains characters that are not allowed.");
    await expect400(await create({ lastName: "Lee\u001b[31m" }), "lastName");
    await expect400(await create({ lastName: "Lee\nLee" }), "lastName");
    await expect400(await create({ lastName: "Lee\u0085" }), "lastName");
    await expect400(await create({ email: "c\u0000@example.com" }), "email");
    await expect400(await create({ isBot: true, scriptKey: "bot/v1/a\u0000.js" }), "scriptKey");
    await expect400(await create({ email: `${text(250)}@e.com` }), "email");
    expect((await create({ firstName: "Ann\tMarie" })).status).toBe(201);
  });

  test("lists: organizations, assistants and permissions are bounded", async () => {
    const h = await harness();
    const t = h.adminToken;
    const user = await h.createUser({ email: "lists@example.com" });
    const patch = (body: Record<string, unknown>) =>
      h.call("PATCH", `/api/auth/users/${user.id}`, { token: t, body: { id: user.id, ...body } });
    const orgs = Array.from({ length: LIST_LIMITS.organizations + 1 }, (_, i) => `org-${i}`);
    await expect400(await patch({ organizations: orgs }), "organizations", "At most 200 organizations.");
    await expect400(await patch({ organizations: [text(101)] }), "organizations.0");
    const assistants = Array.from({ length: LIST_LIMITS.members + 1 }, (_, i) => `a${i}@example.com`);
    await expect400(await patch({ assistants }), "assistants");
    await expect400(await patch({ permissions: [...ALL_PERMISSIONS, "users"] }), "permissions");
    expect((await patch({ permissions: [...ALL_PERMISSIONS] })).status).toBe(200);
  });
});

describe("teams", () => {
  test("names: NUL refused, 200 characters pass, 201 do not; members and emails bounded", async () => {
    const h = await harness();
    const t = h.adminToken;
    const create = (body: Record<string, unknown>) => h.call("POST", "/api/auth/teams", { token: t, body });
    await expect400(await create({ name: "Team\u0000" }), "name", "Name contains characters that are not allowed.");
    await expect400(await create({ name: text(201) }), "name", "Name must be at most 200 characters.");
    await expect400(await create({ name: "Big", members: Array.from({ length: 1_001 }, (_, i) => `m${i}@example.com`) }), "members");
    await expect400(await create({ name: "Bad", members: ["a\u0000@example.com"] }), "members.0");
    expect(await count(h, "/api/auth/teams?assistants=")).toBe(0);
    const ok = await create({ name: text(200) });
    expect(ok.status).toBe(201);
    const team = (await ok.json()) as { id: string };
    await expect400(
      await h.call("POST", `/api/auth/teams/${team.id}/members`, { token: t, body: { email: `${text(255)}@example.com` } }),
      "email",
    );
  });
});

describe("organizations", () => {
  test("names: NUL refused, 200 pass, 201 fail, on create and update; models and ids bounded", async () => {
    const h = await harness();
    const t = h.adminToken;
    const create = (body: Record<string, unknown>) => h.call("POST", "/api/organizations/", { token: t, body });
    await expect400(await create({ name: "Acme\u0000" }), "name", "Name contains characters that are not allowed.");
    await expect400(await create({ name: text(201) }), "name", "Name must be at most 200 characters.");
    await expect400(await create({ name: "Acme", models: Array.from({ length: 201 }, (_, i) => `m${i}`) }), "models");
    await expect400(await create({ name: "Acme", speechToTextService: { id: text(101) } }), "speechToTextService.id");
    expect(await count(h, "/api/organizations/")).toBe(0);
    const ok = await create({ name: text(200) });
    expect(ok.status).toBe(201);
    const { id } = (await ok.json()) as { id: string };
    await expect400(await h.call("PATCH", `/api/organizations/${id}`, { token: t, body: { name: "x\u0007" } }), "name");
    await expect400(await h.call("PATCH", `/api/organizations/${id}`, { token: t, body: { name: text(201) } }), "name");
  });
});

describe("specifications", () => {
  test("NUL refused in name, description and tags; boundaries of every field; tab and newlines pass in multi-line fields", async () => {
    const h = await harness();
    const t = h.adminToken;
    const create = (fields: Record<string, unknown>) =>
      h.call("POST", "/api/specifications/", { token: t, body: { ...spec, ...fields } });
    await expect400(await create({ name: "Spec\u0000name" }), "name", "Name contains characters that are not allowed.");
    await expect400(await create({ description: "a\u0000b" }), "description", "Description contains characters that are not allowed.");
    await expect400(await create({ tags: ["ok", "E\u0000P"] }), "tags.1", "Tag contains characters that are not allowed.");
    await expect400(await create({ template: "{{a}}\u0000" }), "template");
    await expect400(await create({ name: text(201) }), "name", "Name must be at most 200 characters.");
    await expect400(await create({ description: text(TEXT_LIMITS.description + 1) }), "description");
    await expect400(await create({ tags: [text(101)] }), "tags.0", "Tag must be at most 100 characters.");
    await expect400(await create({ tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }), "tags", "At most 50 tags.");
    await expect400(await create({ template: text(TEXT_LIMITS.template + 1) }), "template");
    expect(await count(h, "/api/specifications/")).toBe(0);

    const ok = await create({
      name: text(200),
      description: `${text(TEXT_LIMITS.description - 4)}\t\n\r\n`,
      tags: [...Array.from({ length: 49 }, (_, i) => `t${i}`), text(100)],
      template: "{{#each items}}\r\n\t{{this}}\n{{/each}}",
    });
    expect(ok.status).toBe(201);
    const created = (await ok.json()) as { id: string; description: string; template: string };
    expect(created.description.endsWith("\t\n\r\n")).toBe(true);
    expect(created.template).toContain("\r\n\t");
    const patch = (body: Record<string, unknown>) => h.call("PATCH", `/api/specifications/${created.id}`, { token: t, body });
    await expect400(await patch({ tags: ["a\u0000"] }), "tags.0");
    await expect400(await patch({ description: "\u0000" }), "description");
    expect((await patch({ template: text(TEXT_LIMITS.template) })).status).toBe(200);
  });
});

describe("settings and authorization", () => {
  test("setting keys and values are bounded and refuse control characters (newlines pass in values)", async () => {
    const h = await harness();
    const t = h.adminToken;
    const put = (key: string, value: unknown) =>
      h.call("PUT", `/api/settings/users/${encodeURIComponent(key)}`, { token: t, body: { key, value, owner: "admin@example.com" } });
    await expect400(await put(text(201), "v"), "key");
    await expect400(await put("k", "a\u0000b"), "value", "Value contains characters that are not allowed.");
    await expect400(await put("k", { nested: ["a\u0000"] }), "value");
    await expect400(await put("k", text(TEXT_LIMITS.settingValue + 1)), "value");
    let deep: unknown = "x";
    for (let i = 0; i < 40; i++) deep = [deep];
    await expect400(await put("k", deep), "value");
    expect((await put("k", "line one\nline two\ttab")).status).toBe(200);
    expect((await put("k", text(TEXT_LIMITS.settingValue))).status).toBe(200);
  });

  test("authorization numbers: each number and their count bounded", async () => {
    const h = await harness();
    const t = h.adminToken;
    const user = await h.createUser({ email: "auth@example.com" });
    const put = (body: Record<string, unknown>) =>
      h.call("PUT", `/api/pair-authorizator/users/${user.id}`, { token: t, body: { registrationNumbers: [], customerNumbers: [], ...body } });
    await expect400(await put({ registrationNumbers: Array.from({ length: 201 }, (_, i) => String(10000 + i)) }), "registrationNumbers");
    await expect400(await put({ customerNumbers: [text(21, "1")] }), "customerNumbers.0");
    await expect400(await put({ customerNumbers: ["12345\u0000"] }), "customerNumbers.0");
    expect((await put({ customerNumbers: Array.from({ length: 200 }, (_, i) => String(100000 + i)) })).status).toBe(200);
  });
});

describe("list queries", () => {
  test("q is at most 200 characters: 200 pass, 201 answer 400 on every list", async () => {
    const h = await harness();
    const t = h.adminToken;
    for (const path of ["/api/auth/users", "/api/auth/teams", "/api/organizations/", "/api/specifications/"]) {
      expect((await h.call("GET", `${path}?q=${text(200)}`, { token: t })).status).toBe(200);
      await expect400(await h.call("GET", `${path}?q=${text(201)}`, { token: t }), "q", "Search text must be at most 200 characters.");
      await expect400(await h.call("GET", `${path}?q=a%00b`, { token: t }), "q");
    }
  });
});
