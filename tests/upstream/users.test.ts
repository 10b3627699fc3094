import { describe, expect, test } from "vitest";
import { User, UserPage } from "@contract";
import { openDatabase } from "../../upstream/src/db";
import { OrganizationsStore } from "../../upstream/src/organizations/store";
import { ADMIN, START, decodePayload, harness, message, type Harness } from "./helpers";

/** Creates a user holding `permissions` and answers a token for them. */
async function userWith(h: Harness, email: string, permissions: string[]): Promise<{ id: string; token: string }> {
  const user = await h.createUser({ email });
  if (permissions.length) {
    const res = await h.call("PATCH", `/api/auth/users/${user.id}`, {
      token: h.adminToken,
      body: { id: user.id, permissions },
    });
    expect(res.status).toBe(200);
  }
  return { id: user.id, token: await h.login(email, "secret1") };
}

function addOrganizations(h: Harness, names: string[]): string[] {
  const db = openDatabase(h.dir);
  try {
    const store = new OrganizationsStore(db, () => START);
    return names.map((name) => store.create({ name }, ADMIN.email).id);
  } finally {
    db.close();
  }
}

const adminId = (h: Harness) => decodePayload(h.adminToken).sub as string;

describe("permissions of the users endpoints", () => {
  test("401 without a token on every users endpoint", async () => {
    const h = await harness();
    const id = adminId(h);
    for (const [method, url, body] of [
      ["GET", "/api/auth/users", undefined],
      ["GET", `/api/auth/users/${id}`, undefined],
      ["POST", "/api/auth/users", { firstName: "a", lastName: "b", email: "c@d.ef", password: "secret1" }],
      ["PATCH", `/api/auth/users/${id}`, { id }],
      ["DELETE", `/api/auth/users/${id}`, undefined],
      ["GET", "/api/auth/permissions/list", undefined],
    ] as const) {
      const res = await h.call(method, url, { body });
      expect(res.status, `${method} ${url}`).toBe(401);
      expect(await message(res)).toBe("Authentication required.");
    }
  });

  test("403 without the permission; read-only cannot write; users.write cannot create", async () => {
    const h = await harness();
    const none = await userWith(h, "none@example.com", []);
    const reader = await userWith(h, "reader@example.com", ["users.read", "organizations"]);
    const target = adminId(h);
    const newUser = { firstName: "N", lastName: "U", email: "n@example.com", password: "secret1" };

    const list = await h.call("GET", "/api/auth/users", { token: none.token });
    expect(list.status).toBe(403);
    expect(await list.json()).toEqual({ message: "You do not have the permission users.read." });
    expect((await h.call("GET", `/api/auth/users/${target}`, { token: none.token })).status).toBe(403);

    expect((await h.call("GET", "/api/auth/users", { token: reader.token })).status).toBe(200);
    expect((await h.call("GET", `/api/auth/users/${target}`, { token: reader.token })).status).toBe(200);
    const create = await h.call("POST", "/api/auth/users", { token: reader.token, body: newUser });
    expect(create.status).toBe(403);
    expect(await message(create)).toBe("You do not have the permission users.");
    const patch = await h.call("PATCH", `/api/auth/users/${target}`, {
      token: reader.token,
      body: { id: target, firstName: "X" },
    });
    expect(patch.status).toBe(403);
    expect(await message(patch)).toBe("You do not have the permission users.");
    expect((await h.call("DELETE", `/api/auth/users/${target}`, { token: reader.token })).status).toBe(403);
  });

  test("holding `users` grants read, write and create", async () => {
    const h = await harness();
    const manager = await userWith(h, "manager@example.com", ["users"]);
    const created = await h.createUser({ email: "made@example.com" }, manager.token);
    expect(created.createdBy).toBe("manager@example.com");
    expect((await h.call("GET", `/api/auth/users/${created.id}`, { token: manager.token })).status).toBe(200);
    const patch = await h.call("PATCH", `/api/auth/users/${created.id}`, {
      token: manager.token,
      body: { id: created.id, lastName: "Changed" },
    });
    expect(patch.status).toBe(200);
    expect((await h.call("DELETE", `/api/auth/users/${created.id}`, { token: manager.token })).status).toBe(204);
  });

  test("a revoked permission takes effect at once, with the old token still in hand: its session ends (401)", async () => {
    const h = await harness();
    const reader = await userWith(h, "reader@example.com", ["users.read"]);
    expect((await h.call("GET", "/api/auth/users", { token: reader.token })).status).toBe(200);
    const revoke = await h.call("PATCH", `/api/auth/users/${reader.id}`, {
      token: h.adminToken,
      body: { id: reader.id, permissions: [] },
    });
    expect(revoke.status).toBe(200);
    expect(decodePayload(reader.token).permissions).toEqual(["users.read"]);
    expect((await h.call("GET", "/api/auth/users", { token: reader.token })).status).toBe(401);
    // Signed in again, the fresh token carries the current permissions and the upstream refuses the read.
    const again = await h.login("reader@example.com", "secret1");
    expect(decodePayload(again).permissions).toEqual([]);
    expect((await h.call("GET", "/api/auth/users", { token: again })).status).toBe(403);
  });

  test("a deleted user's token stops working", async () => {
    const h = await harness();
    const gone = await userWith(h, "gone@example.com", ["users.read"]);
    expect((await h.call("DELETE", `/api/auth/users/${gone.id}`, { token: h.adminToken })).status).toBe(204);
    expect((await h.call("GET", "/api/auth/users", { token: gone.token })).status).toBe(401);
  });
});

describe("POST /api/auth/users", () => {
  test("creates a user: trimmed, lower-cased email, no permissions, audit fields, can sign in", async () => {
    const h = await harness();
    const [orgA, orgB] = addOrganizations(h, ["Acme", "Globex"]);
    h.clock.advance(5000);
    const res = await h.call("POST", "/api/auth/users", {
      token: h.adminToken,
      body: {
        firstName: "  Ada ",
        lastName: " Lovelace ",
        email: "  Ada.Lovelace@Example.COM ",
        password: "analytical",
        isBot: true,
        scriptKey: "ada/v1.js",
        assistants: ["someone@example.com"],
        organizations: [orgB, orgA, orgB],
      },
    });
    expect(res.status).toBe(201);
    const user = User.parse(await res.json());
    expect(user).toMatchObject({
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada.lovelace@example.com",
      isBot: true,
      scriptKey: "ada/v1.js",
      organizations: [orgB, orgA],
      permissions: [],
      createdBy: ADMIN.email,
      updatedBy: ADMIN.email,
      createdAt: new Date(START + 5000).toISOString(),
      updatedAt: new Date(START + 5000).toISOString(),
    });
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(user)).not.toMatch(/password|scrypt/);
    expect("assistants" in user).toBe(false);
    const token = await h.login("ADA.lovelace@example.com", "analytical");
    expect(decodePayload(token)).toMatchObject({ sub: user.id, firstName: "Ada", lastName: "Lovelace" });
  });

  test("defaults: isBot false, scriptKey null, organizations empty", async () => {
    const h = await harness();
    const user = await h.createUser({ email: "d@example.com" });
    expect(user).toMatchObject({ isBot: false, scriptKey: null, organizations: [], permissions: [] });
  });

  test("each rule answers 400 naming the field", async () => {
    const h = await harness();
    const [org] = addOrganizations(h, ["Acme"]);
    const good = { firstName: "A", lastName: "B", email: "a@example.com", password: "secret1", organizations: [org] };
    const cases: [Record<string, unknown>, string][] = [
      [{ firstName: "  " }, "firstName: First name is required"],
      [{ lastName: "" }, "lastName: Last name is required"],
      [{ email: "   " }, "email: Email is required"],
      [{ email: "not-an-email" }, "email: Email has invalid format"],
      [{ email: "a@b" }, "email: Email has invalid format"],
      [{ password: "" }, "password: Password is required"],
      [{ password: "12345" }, "password: Password must be at least 6 characters long."],
      [{ organizations: [org, "nope"] }, 'organizations: Unknown organization id "nope".'],
      [{ firstName: 7 }, "firstName: Expected string, received number"],
      [{ isBot: "yes" }, "isBot: Expected boolean, received string"],
    ];
    for (const [patch, expected] of cases) {
      const res = await h.call("POST", "/api/auth/users", { token: h.adminToken, body: { ...good, ...patch } });
      expect(res.status, expected).toBe(400);
      expect(await message(res)).toBe(expected);
    }
    const missing = await h.call("POST", "/api/auth/users", { token: h.adminToken, body: { firstName: "A" } });
    expect(missing.status).toBe(400);
    expect(await message(missing)).toMatch(/^lastName: /);
    expect((await h.call("POST", "/api/auth/users", { token: h.adminToken, body: good })).status).toBe(201);
  });

  test("409 on a duplicate email, whatever its case", async () => {
    const h = await harness();
    await h.createUser({ email: "dup@example.com" });
    const res = await h.call("POST", "/api/auth/users", {
      token: h.adminToken,
      body: { firstName: "A", lastName: "B", email: " DUP@example.com", password: "secret1" },
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: "A user with this email already exists." });
  });
});

describe("GET /api/auth/users/{id}", () => {
  test("answers the user, or 404", async () => {
    const h = await harness();
    const created = await h.createUser({ email: "get@example.com" });
    const res = await h.call("GET", `/api/auth/users/${created.id}`, { token: h.adminToken });
    expect(res.status).toBe(200);
    expect(User.parse(await res.json())).toEqual(created);
    const missing = await h.call("GET", "/api/auth/users/does-not-exist", { token: h.adminToken });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: "User not found." });
  });
});

describe("PATCH /api/auth/users/{id}", () => {
  test("updates the given fields only, with audit", async () => {
    const h = await harness();
    const [org] = addOrganizations(h, ["Acme"]);
    const user = await h.createUser({ email: "p@example.com", organizations: [org] });
    h.clock.advance(60_000);
    const res = await h.call("PATCH", `/api/auth/users/${user.id}`, {
      token: h.adminToken,
      body: {
        id: user.id,
        firstName: " Pat ",
        isBot: true,
        scriptKey: "p/v2.js",
        permissions: ["users.read", "organizations", "users.read"],
        assistants: ["ignored@example.com"],
        email: "P@example.com",
      },
    });
    expect(res.status).toBe(200);
    const updated = User.parse(await res.json());
    expect(updated).toMatchObject({
      email: "p@example.com",
      firstName: "Pat",
      lastName: "Lee",
      isBot: true,
      scriptKey: "p/v2.js",
      organizations: [org],
      permissions: ["users.read", "organizations"],
      createdAt: user.createdAt,
      updatedAt: new Date(START + 60_000).toISOString(),
      updatedBy: ADMIN.email,
    });
    const cleared = await h.call("PATCH", `/api/auth/users/${user.id}`, {
      token: h.adminToken,
      body: { id: user.id, organizations: [], scriptKey: null, isBot: false },
    });
    expect(await cleared.json()).toMatchObject({ organizations: [], scriptKey: null, isBot: false, firstName: "Pat" });
  });

  test("a new password replaces the old one", async () => {
    const h = await harness();
    const user = await h.createUser({ email: "pw@example.com" });
    const res = await h.call("PATCH", `/api/auth/users/${user.id}`, {
      token: h.adminToken,
      body: { id: user.id, password: "brand-new" },
    });
    expect(res.status).toBe(200);
    expect((await h.call("POST", "/api/auth/login", { body: { email: "pw@example.com", password: "secret1" } })).status).toBe(401);
    await h.login("pw@example.com", "brand-new");
  });

  test("each rule answers 400", async () => {
    const h = await harness();
    const user = await h.createUser({ email: "r@example.com" });
    const cases: [Record<string, unknown>, string][] = [
      [{ id: "other" }, "id: Must match the user id in the path."],
      [{ email: "new@example.com" }, "email: Email cannot be changed."],
      [{ firstName: " " }, "firstName: First name is required"],
      [{ lastName: "" }, "lastName: Last name is required"],
      [{ password: "12345" }, "password: Password must be at least 6 characters long."],
      [{ permissions: ["users", "users.write"] }, 'permissions: Unknown permission "users.write".'],
      [{ permissions: ["admin"] }, 'permissions: Unknown permission "admin".'],
      [{ organizations: ["nope"] }, 'organizations: Unknown organization id "nope".'],
      [{ permissions: "users" }, "permissions: Expected array, received string"],
    ];
    for (const [patch, expected] of cases) {
      const res = await h.call("PATCH", `/api/auth/users/${user.id}`, {
        token: h.adminToken,
        body: { id: user.id, ...patch },
      });
      expect(res.status, expected).toBe(400);
      expect(await message(res)).toBe(expected);
    }
    const noId = await h.call("PATCH", `/api/auth/users/${user.id}`, { token: h.adminToken, body: { firstName: "A" } });
    expect(noId.status).toBe(400);
    expect(await message(noId)).toMatch(/^id: /);
    const unchanged = await h.call("GET", `/api/auth/users/${user.id}`, { token: h.adminToken });
    expect(await unchanged.json()).toEqual(user);
  });

  test("404 when the user does not exist", async () => {
    const h = await harness();
    const res = await h.call("PATCH", "/api/auth/users/missing", {
      token: h.adminToken,
      body: { id: "missing", firstName: "A" },
    });
    expect(res.status).toBe(404);
    expect(await message(res)).toBe("User not found.");
  });
});

describe("DELETE /api/auth/users/{id}", () => {
  test("deletes, then 404; own account refused", async () => {
    const h = await harness();
    const [org] = addOrganizations(h, ["Acme"]);
    const user = await h.createUser({ email: "del@example.com", organizations: [org] });
    const res = await h.call("DELETE", `/api/auth/users/${user.id}`, { token: h.adminToken });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect((await h.call("GET", `/api/auth/users/${user.id}`, { token: h.adminToken })).status).toBe(404);
    const again = await h.call("DELETE", `/api/auth/users/${user.id}`, { token: h.adminToken });
    expect(again.status).toBe(404);
    expect(await message(again)).toBe("User not found.");

    const self = await h.call("DELETE", `/api/auth/users/${adminId(h)}`, { token: h.adminToken });
    expect(self.status).toBe(403);
    expect(await self.json()).toEqual({ message: "You cannot delete your own account." });
    expect((await h.call("GET", `/api/auth/users/${adminId(h)}`, { token: h.adminToken })).status).toBe(200);
  });
});

describe("GET /api/auth/users (list)", () => {
  const FIRST = ["Zoe", "adam", "Mia", "Liam", "Emma", "Noah", "Olivia", "Ava", "Lucas", "Ella"];
  const LAST = ["Smith", "Jones", "Brown"];

  async function populate(h: Harness): Promise<void> {
    // 30 users, one second apart; the seeded admin (empty names) is the oldest.
    for (let i = 0; i < 30; i++) {
      h.clock.advance(1000);
      const first = FIRST[i % FIRST.length] ?? "";
      const last = LAST[i % LAST.length] ?? "";
      await h.createUser({ firstName: first, lastName: last, email: `user${String(i).padStart(2, "0")}@example.com` });
    }
  }

  const page = async (h: Harness, query: string) => {
    const res = await h.call("GET", `/api/auth/users${query}`, { token: h.adminToken });
    expect(res.status, query).toBe(200);
    return UserPage.parse(await res.json());
  };

  test("sort, pagination, search", async () => {
    const h = await harness();
    await populate(h);

    const first = await page(h, "");
    expect(first).toMatchObject({ total: 31, page: 1, pageSize: 25 });
    expect(first.items).toHaveLength(25);
    // Name order: case-insensitive "first last", then email; the admin's empty name sorts first.
    const names = first.items.map((u) => `${u.firstName} ${u.lastName}`.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(first.items[0]?.email).toBe(ADMIN.email);
    expect(first.items[1]?.firstName).toBe("adam");

    const second = await page(h, "?page=2");
    expect(second.items).toHaveLength(6);
    const all = [...first.items, ...second.items].map((u) => u.id);
    expect(new Set(all).size).toBe(31);
    expect((await page(h, "?page=9")).items).toEqual([]);

    const newest = await page(h, "?sort=newest&pageSize=3");
    expect(newest.items.map((u) => u.email)).toEqual([
      "user29@example.com",
      "user28@example.com",
      "user27@example.com",
    ]);
    const oldest = await page(h, "?sort=oldest&pageSize=2&page=1");
    expect(oldest.items.map((u) => u.email)).toEqual([ADMIN.email, "user00@example.com"]);
    expect(oldest.total).toBe(31);

    const jones = await page(h, "?q=JONES&pageSize=200");
    expect(jones.total).toBe(10);
    expect(jones.items.every((u) => u.lastName === "Jones")).toBe(true);
    const full = await page(h, "?q=olivia%20smith");
    expect(full.items.map((u) => `${u.firstName} ${u.lastName}`)).toEqual(["Olivia Smith"]);
    expect((await page(h, "?q=user07@")).items.map((u) => u.email)).toEqual(["user07@example.com"]);
    expect((await page(h, "?q=%25")).total).toBe(0);
    expect((await page(h, "?q=nobody-at-all")).total).toBe(0);
    const paged = await page(h, "?q=example.com&sort=oldest&page=4&pageSize=10");
    expect(paged).toMatchObject({ total: 31, page: 4, pageSize: 10 });
    expect(paged.items.map((u) => u.email)).toEqual(["user29@example.com"]);
  });

  test("bad query values answer 400", async () => {
    const h = await harness();
    for (const query of ["?sort=size", "?page=0", "?page=abc", "?pageSize=201", "?pageSize=1.5"]) {
      const res = await h.call("GET", `/api/auth/users${query}`, { token: h.adminToken });
      expect(res.status, query).toBe(400);
      expect(await message(res)).toMatch(/^(sort|page|pageSize): /);
    }
  });
});
