import { Hono, type MiddlewareHandler } from "hono";
import type { AppEnv } from "../lib/http";
import type { OrganizationsStore } from "./store";

/** /api/organizations/* */
export function organizationRoutes(deps: {
  organizations: OrganizationsStore;
  requireAuth: MiddlewareHandler<AppEnv>;
}): Hono<AppEnv> {
  const { organizations, requireAuth } = deps;
  const app = new Hono<AppEnv>();
  // Any signed-in user: the user form's organization picker needs it.
  app.get("/user", requireAuth, (c) => c.json(organizations.options()));
  return app;
}
