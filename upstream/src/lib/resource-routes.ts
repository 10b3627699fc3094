import { Hono, type MiddlewareHandler } from "hono";
import type { z } from "zod";
import type { ListQuery, Page } from "../../contract/common";
import type { ResourceDefinition } from "../../contract/resource";
import { jsonBody, listQuery, notFound, requirePermission, type AppContext, type AppEnv } from "./http";

/** What `resourceRoutes` needs of a store (`CollectionStore` is one; a domain may bring its own). */
export type ResourceStore<Item, Values, Filters extends object = Record<never, never>> = {
  list(query: ListQuery, filters?: Partial<Filters>): Page<Item>;
  get(id: string): Item | null;
  create(values: Values, actor: string | null): Item;
  update(id: string, changes: Partial<Values>, actor: string | null): Item | null;
  remove(id: string): boolean;
  clone?(id: string, actor: string | null): Item | null;
};

/** What is special about one resource. Every hook is optional. */
export type ResourceHooks<
  Item,
  Values,
  Filters extends object,
  Create extends z.AnyZodObject,
  Update extends z.AnyZodObject,
> = {
  /** Extra routes, mounted before `/:id` (so `/user` or `/params` is never read as an id). Check permissions there. */
  routes?: (app: Hono<AppEnv>) => void;
  /** The list's extra filters read from the query (throw `badRequest` on bad values). */
  filters?: (c: AppContext) => Partial<Filters>;
  /** The validated POST body → the values to store; throw `badRequest` e.g. when a referenced id does not exist. */
  beforeCreate?: (input: z.output<Create>, c: AppContext) => Values | Promise<Values>;
  /** The validated PATCH body → the changes to store (the record exists: checked before). */
  beforeUpdate?: (input: z.output<Update>, c: AppContext, current: Item) => Partial<Values> | Promise<Partial<Values>>;
  /** A stored record → the answer (default: as stored). */
  toItem?: (item: Item) => unknown;
};

/**
 * The routes of one resource (issue 9, the resource kit), each behind its definition's permission (403) and
 * answering its `notFound` text with 404:
 *
 *   GET /  (list: ?q=&sort=&page=&pageSize= plus the `filters` hook's)   definition.permissions.read
 *   GET /:id                                                              read
 *   POST /  → 201                                                         create
 *   PATCH /:id  (only the fields sent change)                             write
 *   DELETE /:id → 204                                                     write
 *   POST /:id/clone → 201 (when `definition.clone`)                       clone, else write
 *
 * A verb in `definition.omit` ("create", "delete") is not served (the API's 404 "Not found").
 *
 * Mount it at `definition.path`: `app.route(definition.path, resourceRoutes(definition, store, { requireAuth }))`.
 */
export function resourceRoutes<
  Item,
  Values,
  Filters extends object,
  Create extends z.AnyZodObject,
  Update extends z.AnyZodObject,
>(
  definition: ResourceDefinition<z.ZodTypeAny, Create, Update>,
  store: ResourceStore<Item, Values, Filters>,
  options: { requireAuth: MiddlewareHandler<AppEnv>; hooks?: ResourceHooks<Item, Values, Filters, Create, Update> },
): Hono<AppEnv> {
  const { requireAuth, hooks = {} } = options;
  const { permissions } = definition;
  const can = (permission: string) => [requireAuth, requirePermission(permission)] as const;
  const answer = (item: Item) => (hooks.toItem ? hooks.toItem(item) : item);
  const found = (item: Item | null): Item => {
    if (item === null) throw notFound(definition.notFound);
    return item;
  };
  const actor = (c: AppContext) => c.get("actor").email;

  const app = new Hono<AppEnv>();
  hooks.routes?.(app);

  app.get("/", ...can(permissions.read), (c) => {
    const page = store.list(listQuery(c), hooks.filters?.(c));
    return c.json({ ...page, items: page.items.map(answer) });
  });

  app.get("/:id", ...can(permissions.read), (c) => c.json(answer(found(store.get(c.req.param("id"))))));

  const omitted = (verb: "create" | "delete") => definition.omit?.includes(verb) ?? false;
  if (!omitted("create")) {
    app.post("/", ...can(permissions.create), async (c) => {
      const input = await jsonBody(c, definition.create);
      const values = hooks.beforeCreate ? await hooks.beforeCreate(input, c) : (input as Values);
      return c.json(answer(store.create(values, actor(c))), 201);
    });
  }

  app.patch("/:id", ...can(permissions.write), async (c) => {
    const id = c.req.param("id");
    const input = await jsonBody(c, definition.update);
    const changes = hooks.beforeUpdate
      ? await hooks.beforeUpdate(input, c, found(store.get(id)))
      : (input as Partial<Values>);
    return c.json(answer(found(store.update(id, changes, actor(c)))));
  });

  if (!omitted("delete")) {
    app.delete("/:id", ...can(permissions.write), (c) => {
      if (!store.remove(c.req.param("id"))) throw notFound(definition.notFound);
      return c.body(null, 204);
    });
  }

  if (definition.clone) {
    const { clone } = store;
    if (!clone) throw new Error(`${definition.name}: the definition serves clone but the store has no clone().`);
    app.post("/:id/clone", ...can(permissions.clone ?? permissions.write), (c) =>
      c.json(answer(found(clone.call(store, c.req.param("id"), actor(c)))), 201),
    );
  }
  return app;
}
