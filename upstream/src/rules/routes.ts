import type { MiddlewareHandler } from "hono";
import { RulesResource } from "../../contract/rules";
import type { AppEnv } from "../lib/http";
import { resourceRoutes } from "../lib/resource-routes";
import type { RulesStore } from "./store";

/** /api/rules/* (spec 2 §7): the resource kit's CRUD and clone. */
export function ruleRoutes(deps: { rules: RulesStore; requireAuth: MiddlewareHandler<AppEnv> }) {
  return resourceRoutes(RulesResource, deps.rules, { requireAuth: deps.requireAuth });
}
