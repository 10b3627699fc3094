import type { MiddlewareHandler } from "hono";
import { ReportsResource } from "../../contract/reports";
import { badRequest, type AppEnv } from "../lib/http";
import { resourceRoutes } from "../lib/resource-routes";
import type { OrganizationsStore } from "../organizations/store";
import type { ReportsStore } from "./store";

/** /api/reports/* (spec 2 §7): list, get, and patch (name, description, organizations; each organization must exist). */
export function reportRoutes(deps: {
  reports: ReportsStore;
  organizations: Pick<OrganizationsStore, "unknownIds">;
  requireAuth: MiddlewareHandler<AppEnv>;
}) {
  const { reports, organizations, requireAuth } = deps;
  return resourceRoutes(ReportsResource, reports, {
    requireAuth,
    hooks: {
      beforeUpdate: (input) => {
        const unknown = input.organizations ? organizations.unknownIds(input.organizations)[0] : undefined;
        if (unknown !== undefined) throw badRequest(`organizations: Unknown organization id "${unknown}".`);
        return input;
      },
    },
  });
}
