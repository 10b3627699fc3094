import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import {
  ParamsBody,
  SpecificationType,
  SpecificationsResource,
  type ParamsAnswer,
} from "../../contract/specifications";
import { TemplateError, templateParams } from "../nlp/generator";
import { badRequest, jsonBody, requirePermission, validate, type AppEnv } from "../lib/http";
import { resourceRoutes } from "../lib/resource-routes";
import type { SpecificationsStore } from "./store";

/** `?types=abstract,claims`: absent means every type; an empty value means none. */
const TypesQuery = z
  .string()
  .optional()
  .transform((v) =>
    v === undefined
      ? undefined
      : v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
  )
  .pipe(z.array(SpecificationType).optional());

/** /api/specifications/* (spec 1 §7): the resource kit's routes, the `types` filter and `POST /params`. */
export function specificationRoutes(deps: {
  specifications: SpecificationsStore;
  requireAuth: MiddlewareHandler<AppEnv>;
}) {
  const { specifications, requireAuth } = deps;
  return resourceRoutes(SpecificationsResource, specifications, {
    requireAuth,
    hooks: {
      filters: (c) => ({ types: validate(TypesQuery, c.req.query("types")) }),
      routes: (app) =>
        app.post("/params", requireAuth, requirePermission(SpecificationsResource.permissions.read), async (c) => {
          const { template } = await jsonBody(c, ParamsBody);
          try {
            return c.json({ params: templateParams(template) } satisfies ParamsAnswer);
          } catch (error) {
            if (error instanceof TemplateError) throw badRequest(error.message);
            throw error;
          }
        }),
    },
  });
}
