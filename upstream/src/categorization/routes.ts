/**
 * /api/categorization (spec 2 §7; contract/categorization.ts documents each call): the saved queries (the resource
 * kit) and the jobs that apply, remove and prune their tags over the portfolio.
 */
import type { Permission } from "../../contract/permissions";
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import {
  CATEGORIZATION_LIMITS,
  CATEGORIZATION_MESSAGES as M,
  CategorizationQueriesResource,
  DEFAULT_QUERY,
  PruneBody,
  type CategorizationJobKind,
  type CategorizationQuery,
  type JobTriggered,
} from "../../contract/categorization";
import { HttpError, badRequest, notFound, requirePermission, validate, type AppContext, type AppEnv } from "../lib/http";
import { resourceRoutes } from "../lib/resource-routes";
import { QueryError } from "../search/ir";
import type { CategorizationRunner } from "./jobs";
import type { JobsStore, QueriesStore } from "./store";

const READ = CategorizationQueriesResource.permissions.read;
const WRITE = CategorizationQueriesResource.permissions.write;

const JobsQuery = z.object({
  queryId: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(CATEGORIZATION_LIMITS.jobs).default(10),
});

export function categorizationRoutes(deps: {
  queries: QueriesStore;
  jobs: JobsStore;
  runner: CategorizationRunner;
  requireAuth: MiddlewareHandler<AppEnv>;
}) {
  const { queries, jobs, runner, requireAuth } = deps;
  const can = (permission: Permission) => [requireAuth, requirePermission(permission)] as const;
  const actor = (c: AppContext) => c.get("actor").email;

  /** A query a job can use: it has tags and the engine accepts its JSON (400 with the engine's message otherwise). */
  async function usable(id: string): Promise<CategorizationQuery> {
    const query = queries.get(id);
    if (!query) throw notFound(M.notFound);
    if (!query.tags.length) throw badRequest(M.noTags);
    try {
      await runner.check(query);
    } catch (error) {
      if (error instanceof QueryError) throw badRequest(error.message);
      throw error;
    }
    return query;
  }

  const triggered = (c: AppContext, kind: CategorizationJobKind, query: CategorizationQuery | null) =>
    c.json({ message: M.triggered[kind], job: runner.trigger(kind, query, actor(c)) } satisfies JobTriggered, 202);

  const queriesApp = resourceRoutes(CategorizationQueriesResource, queries, {
    requireAuth,
    hooks: {
      beforeCreate: (input) => ({
        name: input.name ?? DEFAULT_QUERY.name,
        tags: input.tags ?? [...DEFAULT_QUERY.tags],
        text: input.text ?? DEFAULT_QUERY.text,
      }),
      routes: (app) => {
        app.post("/apply", ...can(WRITE), (c) => triggered(c, "applyAll", null));
        app.post("/prune", ...can(WRITE), async (c) => {
          const raw = (await c.req.text()).trim();
          let body: unknown = {};
          if (raw) {
            try {
              body = JSON.parse(raw) as unknown;
            } catch {
              throw badRequest("Request body must be JSON");
            }
          }
          const { id } = validate(PruneBody, body);
          return triggered(c, "prune", id ? await usable(id) : null);
        });
        app.post("/:id/apply", ...can(WRITE), async (c) => triggered(c, "apply", await usable(c.req.param("id"))));
        app.post("/:id/remove", ...can(WRITE), async (c) => triggered(c, "remove", await usable(c.req.param("id"))));
      },
    },
  });

  const jobsApp = new Hono<AppEnv>({ strict: false });
  jobsApp.get("/", ...can(READ), (c) => {
    const q = validate(JobsQuery, c.req.query());
    return c.json(jobs.list(q.queryId, q.limit));
  });
  jobsApp.get("/:id", ...can(READ), (c) => {
    const job = jobs.get(c.req.param("id"));
    if (!job) throw new HttpError(404, M.jobNotFound);
    return c.json(job);
  });
  jobsApp.post("/:id/cancel", ...can(WRITE), async (c) => {
    const id = c.req.param("id");
    if (!jobs.get(id)) throw new HttpError(404, M.jobNotFound);
    // The runner holds every queued or running job (a restart marks the others failed): any other is finished.
    if (!(await runner.cancel(id))) throw new HttpError(409, M.jobFinished);
    return c.json(jobs.get(id)!);
  });
  return { queries: queriesApp, jobs: jobsApp };
}
