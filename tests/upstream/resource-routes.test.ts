import { describe, expect, test, vi } from "vitest";
import { badRequest } from "../../upstream/src/lib/http";
import { START } from "./helpers";
import { Gadget, GadgetsResource, gadgets } from "./kit";

const ALL = "ann@example.com gadgets,gadgets.clone";
const json = async (res: Response) => (await res.json()) as Record<string, unknown>;

describe("resourceRoutes", () => {
  test("create 201, get, list with search/sort/page, patch, clone 201, delete 204; audit by the actor", async () => {
    const { call, clock } = gadgets();
    const created = await call("POST", "/api/gadgets", ALL, { name: "  Lamp ", tags: ["x"] });
    expect(created.status).toBe(201);
    const lamp = Gadget.parse(await created.json());
    expect(lamp).toMatchObject({ name: "Lamp", color: "red", notes: "", level: 1, createdBy: "ann@example.com" });
    await call("POST", "/api/gadgets/", ALL, { name: "desk", color: "blue" });
    expect(Gadget.parse(await json(await call("GET", `/api/gadgets/${lamp.id}`, ALL)))).toEqual(lamp);

    const page = GadgetsResource.page.parse(
      await json(await call("GET", "/api/gadgets?sort=name&pageSize=1&page=2", ALL)),
    );
    expect(page).toMatchObject({ total: 2, page: 2, pageSize: 1, items: [{ name: "Lamp" }] });
    const found = GadgetsResource.page.parse(await json(await call("GET", "/api/gadgets?q=DES", ALL)));
    expect(found.items.map((g) => g.name)).toEqual(["desk"]);
    expect((await call("GET", "/api/gadgets?sort=sideways", ALL)).status).toBe(400);

    clock.t += 1000;
    const patched = await call("PATCH", `/api/gadgets/${lamp.id}`, "bob@example.com gadgets.write", { color: "green" });
    expect(patched.status).toBe(200);
    expect(await json(patched)).toMatchObject({
      name: "Lamp",
      color: "green",
      tags: ["x"],
      updatedBy: "bob@example.com",
      createdBy: "ann@example.com",
    });

    const cloned = await call("POST", `/api/gadgets/${lamp.id}/clone`, "cat@example.com gadgets.clone");
    expect(cloned.status).toBe(201);
    expect(await json(cloned)).toMatchObject({
      name: "Lamp (copy)",
      color: "green",
      createdBy: "cat@example.com",
      createdAt: new Date(START + 1000).toISOString(),
    });

    expect((await call("DELETE", `/api/gadgets/${lamp.id}`, ALL)).status).toBe(204);
    const gone = await call("GET", `/api/gadgets/${lamp.id}`, ALL);
    expect(gone.status).toBe(404);
    expect(await json(gone)).toEqual({ message: "Gadget not found." });
  });

  test("404 with the definition's text on get, patch, delete and clone; 400 names the field; 409", async () => {
    const { call } = gadgets();
    for (const [method, url, body] of [
      ["GET", "/api/gadgets/nope", undefined],
      ["PATCH", "/api/gadgets/nope", { color: "x" }],
      ["DELETE", "/api/gadgets/nope", undefined],
      ["POST", "/api/gadgets/nope/clone", undefined],
    ] as const) {
      const res = await call(method, url, ALL, body);
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(await json(res)).toEqual({ message: "Gadget not found." });
    }
    const bad = await call("POST", "/api/gadgets", ALL, { name: " " });
    expect(bad.status).toBe(400);
    expect(await json(bad)).toEqual({ message: "name: Name is required" });
    await call("POST", "/api/gadgets", ALL, { name: "Lamp" });
    const taken = await call("POST", "/api/gadgets", ALL, { name: "lamp" });
    expect(taken.status).toBe(409);
    expect(await json(taken)).toEqual({ message: "Gadget already exists." });
  });

  test("each verb checks its permission (403), 401 without an actor; `x` grants x.read and x.write", async () => {
    const { call, store } = gadgets();
    const id = store.create({ name: "Lamp", color: "red", isOn: false, tags: [] }, null).id;
    const verbs = [
      ["GET", "/api/gadgets", "gadgets.read"],
      ["GET", `/api/gadgets/${id}`, "gadgets.read"],
      ["POST", "/api/gadgets", "gadgets"],
      ["PATCH", `/api/gadgets/${id}`, "gadgets.write"],
      ["POST", `/api/gadgets/${id}/clone`, "gadgets.clone"],
      ["DELETE", `/api/gadgets/${id}`, "gadgets.write"],
    ] as const;
    for (const [method, url, permission] of verbs) {
      const body = method === "GET" || method === "DELETE" ? undefined : { name: `n${Math.random()}` };
      expect((await call(method, url, null, body)).status, `${method} ${url}`).toBe(401);
      for (const holder of [
        "none@example.com",
        ...verbs
          .filter((v) => v[2] !== permission && !permission.startsWith(`${v[2]}.`))
          .map((v) => `x@example.com ${v[2]}`),
      ]) {
        const res = await call(method, url, holder, body);
        expect(res.status, `${method} ${url} as ${holder}`).toBe(403);
        expect(await json(res)).toEqual({ message: `You do not have the permission ${permission}.` });
      }
      expect((await call(method, url, `ok@example.com ${permission}`, body)).status, `${method} ${url}`).toBeLessThan(
        300,
      );
    }
  });

  test("hooks: extra routes before /:id, list filters, before-create/update checks, answer mapping", async () => {
    const beforeUpdate = vi.fn((input: Record<string, unknown>) => input);
    const { call } = gadgets({
      routes: (app) => app.get("/colors", (c) => c.json(["red", "blue"])),
      filters: (c) => {
        const colors = c.req.query("colors");
        return { colors: colors === undefined ? undefined : colors.split(",") };
      },
      beforeCreate: (input) => {
        if (input.color === "black") throw badRequest("color: Black is not a color.");
        return { ...input, notes: "made by the hook" };
      },
      beforeUpdate,
      toItem: (g) => ({ ...g, label: `${g.name} (${g.color})` }),
    });
    expect(await (await call("GET", "/api/gadgets/colors", null)).json()).toEqual(["red", "blue"]);
    expect(await json(await call("POST", "/api/gadgets", ALL, { name: "Coal", color: "black" }))).toEqual({
      message: "color: Black is not a color.",
    });
    const lamp = await json(await call("POST", "/api/gadgets", ALL, { name: "Lamp", color: "blue" }));
    expect(lamp).toMatchObject({ notes: "made by the hook", label: "Lamp (blue)" });
    await call("POST", "/api/gadgets", ALL, { name: "Desk" });
    const blue = await json(await call("GET", "/api/gadgets?colors=blue", ALL));
    expect((blue.items as { label: string }[]).map((g) => g.label)).toEqual(["Lamp (blue)"]);
    expect((await json(await call("GET", "/api/gadgets", ALL))).total).toBe(2);
    await call("PATCH", `/api/gadgets/${String(lamp.id)}`, ALL, { level: 4 });
    expect(beforeUpdate).toHaveBeenCalledWith(
      { level: 4 },
      expect.anything(),
      expect.objectContaining({ name: "Lamp" }),
    );
  });
});
