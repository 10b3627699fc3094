import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { ListQuery } from "@contract";
import { UsersStore } from "../../upstream/src/people/store";
import { openDatabase } from "../../upstream/src/db";
import { OrganizationsStore } from "../../upstream/src/organizations/store";

/**
 * Users are read as raw rows with their organizations in one statement for all of them: the list must
 * answer exactly the users `get` answers, in every sort, search and page, and every reader keeps each user's
 * organizations in their order.
 */
describe("UsersStore.list", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "backoffice-users-list-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const db = openDatabase(dir);
  let clock = Date.parse("2026-01-01T00:00:00Z");
  const now = () => (clock += 1000);
  const users = new UsersStore(db, now);
  const organizations = new OrganizationsStore(db, now);
  const orgs = ["North", "South", "East"].map((name) => organizations.create({ name }, "admin@example.com").id);
  const ids: string[] = [];
  for (let i = 0; i < 30; i++) {
    const user = users.create(
      {
        email: `person${i}@example.com`,
        firstName: i % 4 === 0 ? "Ann" : `First${i}`,
        lastName: `Last${(i * 7) % 30}`,
        passwordHash: "not-used",
        isBot: i % 5 === 0,
        scriptKey: i % 5 === 0 ? `script-${i}` : null,
        // Several organizations in an order that is not theirs, one, or none.
        organizations: i % 3 === 0 ? [orgs[2]!, orgs[0]!, orgs[1]!] : i % 3 === 1 ? [orgs[1]!] : [],
        permissions: i % 2 ? ["users.read", "organizations"] : [],
      },
      i % 2 ? "admin@example.com" : null,
    );
    ids.push(user.id);
  }

  test("answers the users get answers, for every sort, search and page", () => {
    for (const sort of ["name", "newest", "oldest"] as const) {
      for (const q of ["", "ann", "last1", "nobody"]) {
        let seen = 0;
        for (let page = 1; page <= 6; page++) {
          const result = users.list(ListQuery.parse({ q, sort, page, pageSize: 7 }));
          expect(result.items).toEqual(result.items.map((item) => users.get(item.id)));
          expect(result.page).toBe(page);
          expect(result.pageSize).toBe(7);
          seen += result.items.length;
          if (q === "") expect(result.total).toBe(30);
        }
        if (q === "") expect(seen).toBe(30);
        if (q === "nobody") expect(seen).toBe(0);
      }
    }
  });

  test("keeps each user's organizations in their order", () => {
    const all = users.list(ListQuery.parse({ sort: "oldest", pageSize: 100 })).items;
    expect(all.map((user) => user.id)).toEqual(ids);
    expect(all[0]!.organizations).toEqual([orgs[2], orgs[0], orgs[1]]);
    expect(all[1]!.organizations).toEqual([orgs[1]]);
    expect(all[2]!.organizations).toEqual([]);
    expect(all[0]).toMatchObject({ isBot: true, scriptKey: "script-0", permissions: [], createdBy: null });
    expect(all[1]).toMatchObject({ isBot: false, scriptKey: null, permissions: ["users.read", "organizations"] });
    // get and bots read the same rows the same way.
    expect(users.get(ids[0]!)!.organizations).toEqual([orgs[2], orgs[0], orgs[1]]);
    expect(users.get("no-such-id")).toBeNull();
    const bots = users.bots();
    expect(bots.map((user) => user.email)).toEqual(all.filter((user) => user.isBot).map((user) => user.email).sort());
    expect(bots.find((user) => user.id === ids[0])!.organizations).toEqual([orgs[2], orgs[0], orgs[1]]);
  });
});
