import type { Hono, MiddlewareHandler } from "hono";
import type { FileStore } from "../lib/files";
import type { AppEnv } from "../lib/http";
import type { JobQueue } from "../queue/types";
import { converterRoutes } from "./routes";
import { Converters, type ConverterOptions } from "./service";

export type { ConverterOptions } from "./service";
export { Converters } from "./service";
export { PoolBusy } from "./pool";

/**
 * Mounts /api/converters and /api/hub-pdf on `app` and starts the OCR worker (docs/decisions/converters.md).
 * Returns what stops it (running converter processes are killed and the job goes back to the queue) and the service, whose
 * one pool the chain runs' conversions share.
 */
export function mountConverters(
  app: Hono<AppEnv>,
  deps: { jobs: JobQueue; files: FileStore; requireAuth: MiddlewareHandler<AppEnv>; log: (msg: string) => void; options?: ConverterOptions },
): { stop(): Promise<void>; service: Converters } {
  const converters = new Converters(deps.options);
  const routes = converterRoutes({ converters, jobs: deps.jobs, files: deps.files, requireAuth: deps.requireAuth, log: deps.log });
  app.route("/api/converters", routes.converters);
  app.route("/api/hub-pdf", routes.hubPdf);
  routes.worker.start();
  return { stop: () => routes.worker.stop(), service: converters };
}
