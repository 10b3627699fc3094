import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import {
  ParamsBody,
  SPECIFICATION_TYPES,
  SpecificationCreate,
  SpecificationType,
  SpecificationUpdate,
  type ParamsAnswer,
} from "../../contract/specifications";
import { TemplateError, templateParams } from "../nlp/generator";
import { badRequest, jsonBody, listQuery, notFound, requirePermission, validate, type AppEnv } from "../lib/http";
import type { SpecificationsStore } from "./store";

/** `?types=abstract,claims`: absent means every type; an empty value means none. */
const TypesQuery = z
  .string()
  .optional()
  .transform((v) => (v === undefined ? null : v.split(",").map((s) => s.trim()).filter(Boolean)))
  .pipe(z.array(SpecificationType).nullable());

const NOT_FOUND = "Specification not found.";

/** /api/specifications/* (spec 1 §7). */
export function specificationRoutes(deps: {
  specifications: SpecificationsStore;
  requireAuth: MiddlewareHandler<AppEnv>;
}): Hono<AppEnv> {
  const { specifications, requireAuth } = deps;
  const app = new Hono<AppEnv>();
  const read = [requireAuth, requirePermission("specifications.read")] as const;
  const write = [requireAuth, requirePermission("specifications.write")] as const;

  app.get("/", ...read, (c) => {
    const chosen = validate(TypesQuery, c.req.query("types"));
    return c.json(specifications.list(listQuery(c), chosen ?? [...SPECIFICATION_TYPES]));
  });

  app.post("/params", ...read, async (c) => {
    const { template } = await jsonBody(c, ParamsBody);
    try {
      return c.json({ params: templateParams(template) } satisfies ParamsAnswer);
    } catch (error) {
      if (error instanceof TemplateError) throw badRequest(error.message);
      throw error;
    }
  });

  app.post("/", ...write, async (c) => {
    const input = await jsonBody(c, SpecificationCreate);
    return c.json(specifications.create(input, c.get("actor").email), 201);
  });

  app.get("/:id", ...read, (c) => {
    const found = specifications.get(c.req.param("id"));
    if (!found) throw notFound(NOT_FOUND);
    return c.json(found);
  });

  app.patch("/:id", ...write, async (c) => {
    const input = await jsonBody(c, SpecificationUpdate);
    const updated = specifications.update(c.req.param("id"), input, c.get("actor").email);
    if (!updated) throw notFound(NOT_FOUND);
    return c.json(updated);
  });

  app.delete("/:id", ...write, (c) => {
    if (!specifications.remove(c.req.param("id"))) throw notFound(NOT_FOUND);
    return c.body(null, 204);
  });
  return app;
}
