/**
 * Workflows, milestone templates and the docket engine, mounted on the upstream: the stores, the routes, the e-mail
 * connector's intake and the engine's worker on the job queue (queue "workflows"). The worker runs in every process
 * that serves the API: it calls nothing outside the database, and the queue's leases keep two processes from taking
 * the same event.
 */
import type { Hono, MiddlewareHandler } from "hono";
import type { Db } from "../db";
import { emailReceivedRoutes } from "../email-connector/received";
import type { AppEnv } from "../lib/http";
import type { JobQueue } from "../queue/types";
import { QueueWorker } from "../queue/worker";
import { Docket } from "./docket";
import { WorkflowEngine, type EngineHooks } from "./engine";
import { WORKFLOW_QUEUE, onWorkflowEvent } from "./events";
import { docketRoutes, workflowRoutes } from "./routes";
import { TemplatesStore, WorkflowsStore } from "./store";

export type WorkflowOptions = {
  db: Db;
  now: () => number;
  log: (msg: string) => void;
  jobs: JobQueue;
  requireAuth: MiddlewareHandler<AppEnv>;
  /** Events taken per turn of the worker (each is its own transaction); default 25. 0: no worker (tests, benches). */
  concurrency?: number;
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
  const concurrency = o.concurrency ?? 25;
  const worker =
    concurrency > 0
      ? new QueueWorker({
          queue: WORKFLOW_QUEUE,
          jobs: o.jobs,
          concurrency,
          pollMs: 1_000,
          handler: async (job, signal) => {
            // One event per turn of the event loop: requests are served between the events of a burst.
            await new Promise((resolve) => setImmediate(resolve));
            // Stopped meanwhile (the database may be closing): the job's lease brings it back.
            if (signal.aborted) return;
            engine.process(job.id, () => o.jobs.complete(WORKFLOW_QUEUE, job.id, worker!.owner, { status: "completed" }));
          },
          log: o.log,
        })
      : null;
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
      void worker?.stop();
    },
  };
}
