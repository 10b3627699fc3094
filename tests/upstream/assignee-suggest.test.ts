import { describe, expect, test } from "vitest";
import { TEXT_LIMITS } from "@contract/common";
import { AssigneeSuggestions, SUGGEST_LIMIT } from "@contract/people";
import { harness, type Harness } from "./helpers";
import { tokenWith } from "./token-with";

const URL_ = "/api/user-suggest/assignees";

async function suggest(h: Harness, q: string, token = h.adminToken) {
  const r = await h.call("GET", `${URL_}?q=${encodeURIComponent(q)}`, { token });
  expect(r.status, await r.clone().text()).toBe(200);
  return AssigneeSuggestions.parse(await r.json());
}

describe("GET /api/user-suggest/assignees (spec 3 §7)", () => {
  test("name and e-mail of the people whose e-mail or name contains q, those starting with it first; [] for no q", async () => {
    const h = await harness();
    await h.createUser({ email: "ann.paralegal@firm.test", firstName: "Ann", lastName: "Parker" });
    await h.createUser({ email: "joanne@firm.test", firstName: "Joanne", lastName: "Smith" });
    await h.createUser({ email: "bob@firm.test", firstName: "Bob", lastName: "Annandale" });
    await h.createUser({ email: "carl@firm.test", firstName: "Carl", lastName: "Jones" });
    const found = await suggest(h, "ANN");
    // Starting with it: Ann Parker (first name, e-mail), Bob Annandale (last name); then containing it: Joanne.
    expect(found).toEqual([
      { name: "Ann Parker", email: "ann.paralegal@firm.test" },
      { name: "Bob Annandale", email: "bob@firm.test" },
      { name: "Joanne Smith", email: "joanne@firm.test" },
    ]);
    expect(await suggest(h, "ann park")).toEqual([{ name: "Ann Parker", email: "ann.paralegal@firm.test" }]);
    expect(await suggest(h, "  ")).toEqual([]);
    expect(await (await h.call("GET", URL_, { token: h.adminToken })).json()).toEqual([]);
  });

  test("at most SUGGEST_LIMIT people; q bounded to the search box's length", async () => {
    const h = await harness();
    for (let i = 0; i < SUGGEST_LIMIT + 5; i++) await h.createUser({ email: `clerk${String(i).padStart(2, "0")}@firm.test` });
    const found = await suggest(h, "clerk");
    expect(found).toHaveLength(SUGGEST_LIMIT);
    expect(found[0]!.email).toBe("clerk00@firm.test");
    // A q past the bound is cut to it, not refused: its first TEXT_LIMITS.search characters are what is searched.
    await h.createUser({ email: "long@firm.test", firstName: "Lou", lastName: "L".repeat(TEXT_LIMITS.search) });
    expect(await suggest(h, "l".repeat(TEXT_LIMITS.search) + "z".repeat(5000))).toEqual([{ name: `Lou ${"L".repeat(TEXT_LIMITS.search)}`, email: "long@firm.test" }]);
  });

  test("whoever assigns docket work may ask (workflows, docketing_tasks.read); users.read or workflows.read alone may not", async () => {
    const h = await harness();
    expect((await h.call("GET", `${URL_}?q=a`)).status).toBe(401);
    const allowed = [["workflows"], ["docketing_tasks.read"], ["docketing_tasks"], ["workflows.read", "docketing_tasks.read"]];
    for (const [i, permissions] of allowed.entries()) {
      const token = await tokenWith(h, `allowed${i}@firm.test`, permissions);
      expect(await suggest(h, "allowed0", token), permissions.join()).toEqual([{ name: "Ann Lee", email: "allowed0@firm.test" }]);
    }
    for (const [i, permissions] of [[], ["users.read"], ["users"], ["workflows.read"]].entries()) {
      const token = await tokenWith(h, `refused${i}@firm.test`, permissions);
      const r = await h.call("GET", `${URL_}?q=a`, { token });
      expect(r.status, permissions.join()).toBe(403);
    }
  });
});
