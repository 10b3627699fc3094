import type { ActionFunctionArgs } from "@remix-run/node";
import { AI_ADMIN_PERMISSIONS } from "@contract/ai-admin";
import { OrganizationsResource } from "@contract/organizations";
import { can } from "@contract/permissions";
import { requireUser } from "~/auth/guard.server";
import { editorAction } from "~/kit/resource-routes.server";
import { resourceClient } from "~/lib/resource.server";
import { organizationSchemaOf } from "./schema";
import { ORGANIZATIONS } from "./texts";
import type { OrganizationAiUpdateSchema } from "~/ai-admin/schema";

/** The organizations collection of the upstream contract (spec 3 §7), through the resource kit. */
export const organizations = resourceClient(OrganizationsResource);

/**
 * The new and edit forms' action: the name, and the AI fields for those holding `administration` (the upstream
 * refuses them to others). The allowed models go with the same request: on create only when some were chosen, on
 * update always (spec 3 §7), so the speech settings and the models they depend on change together.
 */
export async function organizationAction(args: ActionFunctionArgs, mode: "new" | "edit") {
  const { identity } = await requireUser(args);
  const schema = organizationSchemaOf(mode, can(identity.permissions, AI_ADMIN_PERMISSIONS.write));
  return editorAction(args, organizations, {
    // The three schemas' outputs are each a subset of the create and update bodies.
    schema: schema as typeof OrganizationAiUpdateSchema,
    texts: ORGANIZATIONS,
    list: "/organizations",
  });
}
