import type { Permission } from "@contract/permissions";
import { Hono } from "hono";
import { afterEach } from "vitest";
import { createMiddleware } from "hono/factory";
import { z } from "zod";
import { Audit } from "@contract/common";
import { defineResource } from "@contract/resource";
import { MIGRATIONS, openDatabase, type Db } from "../../upstream/src/db";
import { CollectionStore, columns } from "../../upstream/src/lib/collection-store";
import { HttpError, type AppEnv } from "../../upstream/src/lib/http";
import { resourceRoutes, type ResourceHooks } from "../../upstream/src/lib/resource-routes";
import { START, tempDir } from "./helpers";

/** A throwaway resource for the kit's tests: typed columns, a JSON data column, a unique name, a filter. */
export const Gadget = z
  .object({
    id: z.string(),
    name: z.string(),
    color: z.string(),
    isOn: z.boolean(),
    tags: z.array(z.string()),
    notes: z.string(),
    level: z.number(),
  })
  .merge(Audit);
export type Gadget = z.infer<typeof Gadget>;

const GadgetCreate = z.object({
  name: z.string().trim().min(1, "Name is required"),
  color: z.string().default("red"),
  isOn: z.boolean().default(false),
  tags: z.array(z.string()).default([]),
  notes: z.string().optional(),
  level: z.number().optional(),
});

type GadgetPermissions = { read: Permission; create: Permission; write: Permission; clone: Permission };

export const GadgetsResource = defineResource({
  name: "gadgets",
  path: "/api/gadgets",
  item: Gadget,
  create: GadgetCreate,
  update: GadgetCreate.partial(),
  // A test domain outside the product's permission keys: typed as if it were one.
  permissions: { read: "gadgets.read", create: "gadgets", write: "gadgets.write", clone: "gadgets.clone" } as unknown as GadgetPermissions,
  notFound: "Gadget not found.",
  clone: true,
});

const GADGETS = {
  id: "900_test_gadgets",
  sql: `create table gadgets (
    id text primary key, name text not null unique collate nocase, color text not null, is_on integer not null,
    tags text not null, data text not null default '{}',
    created_at text not null, created_by text, updated_at text not null, updated_by text)`,
};

class GadgetsStore extends CollectionStore<Gadget, { colors: string[] }> {
  constructor(db: Db, now: () => number) {
    super(db, now, {
      table: "gadgets",
      columns: {
        name: columns.text("name"),
        color: columns.text("color"),
        isOn: columns.bool("is_on"),
        tags: columns.json("tags"),
      },
      data: { notes: "", level: 1 },
      search: ["name", "tags"],
      filters: {
        colors: (colors) => ({ sql: "color in (select value from json_each(?))", params: [JSON.stringify(colors)] }),
      },
      conflict: "Gadget already exists.",
      normalize: (v) => ({ ...v, tags: [...new Set(v.tags)] }),
    });
  }
}

const opened: Db[] = [];
afterEach(() => opened.splice(0).forEach((db) => db.close()));

/** A database with the gadgets table, a store on a movable clock, and (optionally) the routes. */
export function gadgets(
  hooks?: ResourceHooks<
    Gadget,
    Partial<Omit<Gadget, "id">>,
    { colors: string[] },
    typeof GadgetCreate,
    ReturnType<typeof GadgetCreate.partial>
  >,
) {
  const db = openDatabase(tempDir(), [...MIGRATIONS, GADGETS]);
  opened.push(db);
  const clock = { t: START };
  const store = new GadgetsStore(db, () => clock.t);
  // The actor comes from a header: "email permission,permission".
  const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
    const header = c.req.header("x-actor");
    if (!header) throw new HttpError(401, "Authentication required.");
    const [email = "", permissions = ""] = header.split(" ");
    c.set("actor", { id: email, email, permissions: permissions.split(",").filter(Boolean) });
    await next();
  });
  const app = new Hono<AppEnv>({ strict: false });
  app.route(GadgetsResource.path, resourceRoutes(GadgetsResource, store, { requireAuth, hooks }));
  app.onError((error, c) =>
    error instanceof HttpError
      ? c.json({ message: error.message }, error.status)
      : c.json({ message: String(error) }, 500),
  );
  const call = (method: string, url: string, actor: string | null, body?: unknown) =>
    app.fetch(
      new Request(`http://test${url}`, {
        method,
        headers: {
          ...(actor ? { "x-actor": actor } : {}),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  return { db, clock, store, call };
}
