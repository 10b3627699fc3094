import { describe, expect, test, vi } from "vitest";
import { ListQuery } from "@contract/common";
import { copyName } from "../../upstream/src/lib/collection-store";
import { limitOf } from "../../upstream/src/lib/collection";
import { HttpError } from "../../upstream/src/lib/http";
import { START } from "./helpers";
import { gadgets } from "./kit";

const q = (query: Partial<ListQuery> = {}) => ListQuery.parse(query);

describe("CollectionStore", () => {
  test("create: random id, typed and data columns, data defaults, audit fields from the actor and the clock", () => {
    const { store, db } = gadgets();
    const made = store.create({ name: "Lamp", color: "blue", isOn: true, tags: ["a", "a", "b"] }, "ann@example.com");
    expect(made).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "Lamp",
      color: "blue",
      isOn: true,
      tags: ["a", "b"], // normalize
      notes: "",
      level: 1,
      createdAt: new Date(START).toISOString(),
      createdBy: "ann@example.com",
      updatedAt: new Date(START).toISOString(),
      updatedBy: "ann@example.com",
    });
    const row = db.prepare("select * from gadgets where id = ?").get(made.id) as Record<string, unknown>;
    expect(row).toMatchObject({ is_on: 1, tags: '["a","b"]', data: '{"notes":"","level":1}' });
    expect(store.get(made.id)).toEqual(made);
    expect(store.get("missing")).toBeNull();
  });

  test("update: only the fields given; audit updated, created kept; unknown data keys kept; null when missing", () => {
    const { store, db, clock } = gadgets();
    const made = store.create({ name: "Lamp", color: "blue", isOn: false, tags: [] }, "ann@example.com");
    db.prepare(`update gadgets set data = '{"notes":"n","level":2,"legacy":true}' where id = ?`).run(made.id);
    clock.t += 60_000;
    const changed = store.update(made.id, { color: "green", level: 3, notes: undefined }, "bob@example.com");
    expect(changed).toMatchObject({ name: "Lamp", color: "green", notes: "n", level: 3, createdBy: "ann@example.com" });
    expect(changed).toMatchObject({ updatedBy: "bob@example.com", updatedAt: new Date(START + 60_000).toISOString() });
    expect(JSON.parse(db.prepare("select data from gadgets").pluck().get() as string)).toEqual({
      notes: "n",
      level: 3,
      legacy: true,
    });
    expect(store.update("missing", { color: "x" }, null)).toBeNull();
  });

  test("a damaged data column reads as the defaults", () => {
    const { store, db } = gadgets();
    const made = store.create({ name: "Lamp", color: "blue", isOn: false, tags: [] }, null);
    db.prepare(`update gadgets set data = '{"level":"high"' where id = ?`).run(made.id);
    expect(store.get(made.id)).toMatchObject({ notes: "", level: 1 });
    db.prepare(`update gadgets set data = '{"level":"high","notes":"kept"}' where id = ?`).run(made.id);
    expect(store.get(made.id)).toMatchObject({ notes: "kept", level: 1 });
  });

  test("list: search, sort by name (case-insensitive) / newest / oldest, pages, total, filters", () => {
    const { store, clock } = gadgets();
    for (const [name, color] of [
      ["beta", "red"],
      ["Alpha", "blue"],
      ["gamma", "red"],
      ["Delta", "green"],
    ]) {
      store.create({ name: name!, color: color!, isOn: false, tags: name === "gamma" ? ["shiny"] : [] }, null);
      clock.t += 1000;
    }
    const names = (query: Partial<ListQuery>, filters = {}) => store.list(q(query), filters).items.map((g) => g.name);
    expect(names({})).toEqual(["Alpha", "beta", "Delta", "gamma"]);
    expect(names({ sort: "newest" })).toEqual(["Delta", "gamma", "Alpha", "beta"]);
    expect(names({ sort: "oldest" })).toEqual(["beta", "Alpha", "gamma", "Delta"]);
    expect(names({ q: "ALP" })).toEqual(["Alpha"]);
    expect(names({ q: "shiny" })).toEqual(["gamma"]); // tags searched
    expect(store.list(q({ pageSize: 3, page: 2 }))).toMatchObject({
      total: 4,
      page: 2,
      pageSize: 3,
      items: [{ name: "gamma" }],
    });
    expect(names({}, { colors: ["red"] })).toEqual(["beta", "gamma"]);
    expect(names({}, { colors: [] })).toEqual([]);
    expect(names({ q: "a" }, { colors: ["red", "green"] })).toEqual(["beta", "Delta", "gamma"]);
  });

  test("unique violations answer 409 with the configured message (create, update, clone)", () => {
    const { store } = gadgets();
    const lamp = store.create({ name: "Lamp", color: "blue", isOn: false, tags: [] }, null);
    const desk = store.create({ name: "Desk", color: "blue", isOn: false, tags: [] }, null);
    const conflict = (work: () => unknown) => {
      try {
        work();
      } catch (error) {
        return error instanceof HttpError ? [error.status, error.message] : error;
      }
      return "no error";
    };
    expect(conflict(() => store.create({ name: "LAMP", color: "x", isOn: false, tags: [] }, null))).toEqual([
      409,
      "Gadget already exists.",
    ]);
    expect(conflict(() => store.update(desk.id, { name: "lamp" }, null))).toEqual([409, "Gadget already exists."]);
    // A copy's default name skips the names taken ("(copy)", "(copy 2)"), so cloning twice is no conflict.
    expect(store.clone(lamp.id, null)?.name).toBe("Lamp (copy)");
    expect(store.clone(lamp.id, null)?.name).toBe("Lamp (copy 2)");
  });

  test("copyName: the first free name, the original shortened to fit the limit (never the suffix)", () => {
    expect(copyName("Lamp", 200, () => false)).toBe("Lamp (copy)");
    const taken = new Set(["Lamp (copy)", "Lamp (copy 2)"]);
    expect(copyName("Lamp", 200, (n) => taken.has(n))).toBe("Lamp (copy 3)");
    expect(copyName("abcdefghij", 12, () => false)).toBe("abcde (copy)");
    expect(copyName("abc defghij", 12, (n) => n === "abc d (copy)")).toBe("abc (copy 2)");
  });

  test("clone: new id, '(copy)' name, same values, audit set anew; remove", () => {
    const { store, clock } = gadgets();
    const lamp = store.create(
      { name: "Lamp", color: "blue", isOn: true, tags: ["a"], notes: "n", level: 5 },
      "ann@example.com",
    );
    clock.t += 5000;
    const copy = store.clone(lamp.id, "bob@example.com");
    expect(copy).toMatchObject({ name: "Lamp (copy)", color: "blue", isOn: true, tags: ["a"], notes: "n", level: 5 });
    expect(copy?.id).not.toBe(lamp.id);
    expect(copy).toMatchObject({
      createdBy: "bob@example.com",
      updatedBy: "bob@example.com",
      createdAt: new Date(START + 5000).toISOString(),
    });
    expect(store.clone("missing", null)).toBeNull();
    expect(store.remove(lamp.id)).toBe(true);
    expect(store.remove(lamp.id)).toBe(false);
    expect(store.get(lamp.id)).toBeNull();
  });

  test("statements are prepared once: no db.prepare on later calls", () => {
    const { store, db } = gadgets();
    const round = () => {
      const made = store.create({ name: `Lamp ${Math.random()}`, color: "blue", isOn: false, tags: [] }, null);
      store.get(made.id);
      store.update(made.id, { color: "red" }, null);
      store.list(q({ q: "lamp", sort: "newest" }), { colors: ["red"] });
      store.list(q());
      store.remove(store.clone(made.id, null)!.id);
    };
    round();
    const prepare = vi.spyOn(db, "prepare");
    round();
    round();
    expect(prepare).not.toHaveBeenCalled();
  });
});

describe("limitOf (a page's LIMIT written into its SQL, not bound)", () => {
  test("writes a page size as it is and refuses anything that is not a non-negative integer", () => {
    expect(limitOf(25)).toBe("limit 25");
    expect(limitOf(0)).toBe("limit 0");
    for (const bad of [2.5, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) expect(() => limitOf(bad)).toThrow(RangeError);
  });

  test("with the LIMIT in the SQL, pages of every size and number hold the right rows", () => {
    const { store } = gadgets();
    for (let i = 0; i < 7; i++) store.create({ name: `G${i}`, color: "red", isOn: false, tags: [] }, "someone@example.test");
    const names = (pageSize: number, page: number) => store.list(q({ pageSize, page, sort: "name" })).items.map((g) => g.name);
    expect(names(3, 1)).toEqual(["G0", "G1", "G2"]);
    expect(names(3, 3)).toEqual(["G6"]);
    expect(names(5, 2)).toEqual(["G5", "G6"]);
  });
});
