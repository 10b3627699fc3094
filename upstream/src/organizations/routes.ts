import type { MiddlewareHandler } from "hono";
import { AI_ADMIN_MESSAGES, AI_ADMIN_PERMISSIONS } from "../../contract/ai-admin";
import { OrganizationsResource, type OrganizationCreate, type OrganizationUpdate } from "../../contract/organizations";
import { can } from "../../contract/permissions";
import type { AiAdmin } from "../ai-admin/service";
import { HttpError, type AppContext, type AppEnv } from "../lib/http";
import { resourceRoutes } from "../lib/resource-routes";
import type { OrganizationsStore } from "./store";

/** The organization fields only an administrator sets (spec 3 §6: `administration` edits models and services). */
const AI_FIELDS = ["enableSpeechToText", "speechToTextService", "speechPostProcessingModel", "models"] as const;

/**
 * /api/organizations/* (spec 3 §7): the resource kit's routes (permissions in `OrganizationsResource`; see
 * upstream/README.md, Organizations), plus `/user`, the pickers' ids and names, open to every signed-in user. The AI
 * fields need `administration` too (403), name a service and models that exist (400), and keep the speech
 * post-processing model among the organization's models (409, spec 3 §5).
 */
export function organizationRoutes(deps: {
  organizations: OrganizationsStore;
  ai: AiAdmin;
  requireAuth: MiddlewareHandler<AppEnv>;
}) {
  const { organizations, ai, requireAuth } = deps;
  const checkAi = (input: OrganizationUpdate, c: AppContext, current: { id: string; models: string[]; speechPostProcessingModel: { id: string } | null } | null) => {
    if (!AI_FIELDS.some((field) => input[field] !== undefined)) return;
    if (!can(c.get("actor").permissions, AI_ADMIN_PERMISSIONS.write)) throw new HttpError(403, AI_ADMIN_MESSAGES.aiFieldsForbidden);
    if (input.speechToTextService) ai.rules.serviceExists(input.speechToTextService.id);
    if (input.speechPostProcessingModel) ai.rules.modelsExist([input.speechPostProcessingModel.id]);
    if (input.models) ai.rules.modelsExist(input.models);
    if (current && input.models) {
      const next = input.speechPostProcessingModel !== undefined ? input.speechPostProcessingModel : current.speechPostProcessingModel;
      ai.rules.keepsPostProcessingModel(current.id, input.models, next?.id ?? null);
    }
  };
  return resourceRoutes(OrganizationsResource, organizations, {
    requireAuth,
    hooks: {
      routes: (app) => app.get("/user", requireAuth, (c) => c.json(organizations.options())),
      beforeCreate: (input: OrganizationCreate, c) => {
        checkAi(input, c, null);
        return input as Parameters<OrganizationsStore["create"]>[0];
      },
      beforeUpdate: (input, c, current) => {
        checkAi(input, c, current);
        return input as Parameters<OrganizationsStore["update"]>[1];
      },
    },
  });
}
