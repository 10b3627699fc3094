import { Hono, type MiddlewareHandler } from "hono";
import { OrganizationCreate, OrganizationUpdate } from "../../contract/organizations";
import { jsonBody, listQuery, notFound, requirePermission, type AppEnv } from "../lib/http";
import { OrganizationsStore } from "./store";

const NOT_FOUND = "Organization not found.";

/**
 * /api/organizations/* (spec 3 §7). Reading needs organizations.read, creating the exact `organizations` permission,
 * changing and deleting organizations.write (see upstream/README.md, Organizations). `/user` (the pickers' list of
 * ids and names) is open to every signed-in user.
 */
export function organizationRoutes(deps: {
  organizations: OrganizationsStore;
  requireAuth: MiddlewareHandler<AppEnv>;
}): Hono<AppEnv> {
  const { organizations, requireAuth } = deps;
  const app = new Hono<AppEnv>();
  // Any signed-in user: the user form's organization picker needs it.
  app.get("/user", requireAuth, (c) => c.json(organizations.options()));

  app.get("/", requireAuth, requirePermission("organizations.read"), (c) => c.json(organizations.list(listQuery(c))));

  app.post("/", requireAuth, requirePermission("organizations"), async (c) => {
    const { name, ...rest } = await jsonBody(c, OrganizationCreate);
    const created = organizations.create(name, c.get("actor").email, { ...OrganizationsStore.defaults(), ...rest });
    return c.json(organizations.get(created.id), 201);
  });

  app.get("/:id", requireAuth, requirePermission("organizations.read"), (c) => {
    const found = organizations.get(c.req.param("id"));
    if (!found) throw notFound(NOT_FOUND);
    return c.json(found);
  });

  app.patch("/:id", requireAuth, requirePermission("organizations.write"), async (c) => {
    const input = await jsonBody(c, OrganizationUpdate);
    const updated = organizations.update(c.req.param("id"), input, c.get("actor").email);
    if (!updated) throw notFound(NOT_FOUND);
    return c.json(updated);
  });

  app.delete("/:id", requireAuth, requirePermission("organizations.write"), (c) => {
    if (!organizations.remove(c.req.param("id"))) throw notFound(NOT_FOUND);
    return c.body(null, 204);
  });
  return app;
}
