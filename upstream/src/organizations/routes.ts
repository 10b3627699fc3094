import type { MiddlewareHandler } from "hono";
import { OrganizationsResource } from "../../contract/organizations";
import type { AppEnv } from "../lib/http";
import { resourceRoutes } from "../lib/resource-routes";
import type { OrganizationsStore } from "./store";

/**
 * /api/organizations/* (spec 3 §7): the resource kit's routes (permissions in `OrganizationsResource`; see
 * upstream/README.md, Organizations), plus `/user`, the pickers' ids and names, open to every signed-in user.
 */
export function organizationRoutes(deps: {
  organizations: OrganizationsStore;
  requireAuth: MiddlewareHandler<AppEnv>;
}) {
  const { organizations, requireAuth } = deps;
  return resourceRoutes(OrganizationsResource, organizations, {
    requireAuth,
    hooks: { routes: (app) => app.get("/user", requireAuth, (c) => c.json(organizations.options())) },
  });
}
