/**
 * Workflows, milestone templates and the docket engine, mounted on the upstream: the stores, the routes, the e-mail
 * connector's intake and the engine's worker on the job queue (queue "workflows"). The worker runs in every process
 * that serves the API: it calls nothing outside the database, and each batch claims its events in the transaction
 * that applies them, so two processes never take the same event.
 */
import type { Hono, MiddlewareHandler } from "hono";
import type { Db } from "../db";
import { emailReceivedRoutes } from "../email-connector/received";
import type { AppEnv } from "../lib/http";
import type { JobQueue } from "../queue/types";
import { Docket } from "./docket";
import { WorkflowEngine, type EngineHooks } from "./engine";
import { onWorkflowEvent } from "./events";
import { docketRoutes, workflowRoutes } from "./routes";
import { TemplatesStore, WorkflowsStore } from "./store";
import { EngineWorker } from "./worker";

export type WorkflowOptions = {
  db: Db;
  now: () => number;
  log: (msg: string) => void;
  jobs: JobQueue;
  requireAuth: MiddlewareHandler<AppEnv>;
  /** The most events one batch of the worker applies (one transaction); default 50. 0: no worker (tests, benches). */
  maxBatch?: number;
  hooks?: EngineHooks;
};

export function mountWorkflows(app: Hono<AppEnv>, o: WorkflowOptions) {
  const workflows = new WorkflowsStore(o.db, o.now);
  const templates = new TemplatesStore(o.db, o.now);
  const docket = new Docket(o.db, o.now, workflows, templates);
  const engine = new WorkflowEngine(o.db, o.now, workflows, templates, o.hooks);
  const deps = { db: o.db, now: o.now, workflows, templates, docket, requireAuth: o.requireAuth };
  app.route("/api/workflows/v2/workflows", workflowRoutes(deps));
  app.route("/api/workflows", docketRoutes(deps));
  app.route("/api/ms-graph-email-connector", emailReceivedRoutes({ db: o.db, now: o.now, requireAuth: o.requireAuth }));
  const maxBatch = o.maxBatch ?? 50;
  const worker = maxBatch > 0 ? new EngineWorker({ db: o.db, engine, jobs: o.jobs, maxBatch, log: o.log }) : null;
  if (worker) {
    onWorkflowEvent(o.db, () => worker.poke());
    worker.start();
  }
  return {
    engine,
    docket,
    workflows,
    templates,
    stop: () => {
      onWorkflowEvent(o.db, null);
      worker?.stop();
    },
  };
}
