/** /api/dispatcher/* (processing, portfolio.read / portfolio) and /api/uspto/* (uspto.read / uspto) — spec 2 §6, §7. */
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import {
  CronBody,
  DelayBody,
  IntervalBody,
  PROCESSING_SORTS,
  PROCESSING_STATUSES,
  PriorityBody,
  QueueSearch,
  ScheduleBody,
  SortedBody,
  TimeoutBody,
  cronError,
  type QueueCollection,
  type QueueItem,
  type UsptoConfig,
} from "../../contract/queues";
import { HttpError, badRequest, conflict, jsonBody, notFound, requirePermission, validate, type AppEnv } from "../lib/http";
import { projectRelativeStack } from "../queue/stack";
import type { Job, JobQueue } from "../queue/types";
import type { PatentOffice } from "../patent-office/adapter";
import { PROCESSING_QUEUE, USPTO_QUEUE, type QueueRuntime } from "./services";
import { USPTO_DEFAULTS, type QueueSettings } from "./settings";

/** How long the sync call waits for the sync to end before answering that it goes on. */
const SYNC_ANSWER_MS = 5_000;

const QUEUE_MESSAGES = {
  notFound: "Job not found.",
  inProgress: "A job in progress cannot be deleted.",
  notWaiting: "Priority can be changed only while a job is queued or requeued.",
  syncInProgress: "A sync with the patent office is already in progress.",
} as const;

const iso = (ms: number) => new Date(ms).toISOString();

export function toItem(j: Job): QueueItem {
  return {
    id: j.id,
    status: j.status,
    priority: j.priority,
    attempts: j.attempts,
    createdAt: iso(j.createdAt),
    updatedAt: iso(j.updatedAt),
    message: j.message,
    // Stacks recorded before they were made relative on failure still carry the server's paths.
    stack: j.stack ? projectRelativeStack(j.stack) : null,
    customerNumber: j.customerNumber,
    applicationChangedAt: j.applicationChangedAt,
    isUnmatched: j.isUnmatched,
  };
}

type Deps = {
  jobs: JobQueue;
  runtime: QueueRuntime;
  settings: QueueSettings;
  office: PatentOffice;
  requireAuth: MiddlewareHandler<AppEnv>;
};

function collection(d: Deps, queue: string, q: z.infer<typeof SortedBody>): QueueCollection {
  const page = d.jobs.page(queue, { statuses: q.status, isUnmatched: q.isUnmatched, id: q.q, sort: q.sort, skip: q.skip, limit: q.limit });
  const aggs = d.jobs.counts(queue);
  return {
    data: page.data.map(toItem),
    total: page.total,
    size: q.limit,
    from: q.skip,
    aggs,
    aggsCustomers: queue === USPTO_QUEUE ? d.jobs.countsByCustomer(queue) : [],
    active: !d.jobs.isPaused(queue),
    toDelete: queue === USPTO_QUEUE ? d.jobs.unmatchedCount(queue) : 0,
    syncInProgress: queue === USPTO_QUEUE && d.runtime.syncInProgress,
    jobs: Object.values(aggs).reduce((a, b) => a + b, 0),
    missing: d.office.missing(),
  };
}

/**
 * Schedules (and requeues: spec 2 §7 has no other call for it). A USPTO download in progress is restarted (its
 * Requeue is offered for every status but queued and requeued, spec 2 §4); a processing job in progress is left running.
 */
function schedule(d: Deps, queue: string, ids: readonly string[]) {
  const data = d.jobs.enqueue(queue, ids.map((id) => ({ id: id.toUpperCase() })), { restartRunning: queue === USPTO_QUEUE }).map(toItem);
  (queue === PROCESSING_QUEUE ? d.runtime.processing : d.runtime.downloads).poke();
  return { data };
}

/** Every failed job back in line at once (the dashboards' "Requeue all failed"): one statement, any number of jobs. */
function requeueFailed(d: Deps, queue: string) {
  const requeued = d.jobs.requeueStatus(queue, "failed");
  (queue === PROCESSING_QUEUE ? d.runtime.processing : d.runtime.downloads).poke();
  return { requeued };
}

function remove(d: Deps, queue: string, id: string) {
  const result = d.jobs.remove(queue, id);
  if (result === "not-found") throw notFound(QUEUE_MESSAGES.notFound);
  if (result === "in-progress") throw conflict(QUEUE_MESSAGES.inProgress);
}

/** GET query of the dispatcher list: ?skip&limit&status=a,b&sort. */
const DispatcherQuery = z.object({
  skip: z.coerce.number().int().min(0).max(10_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  status: z
    .string()
    .max(200)
    .default("")
    .transform((s) => s.split(",").filter(Boolean))
    .pipe(z.array(z.enum(PROCESSING_STATUSES))),
  sort: z.enum(PROCESSING_SORTS).default("status"),
  q: QueueSearch,
});

export function dispatcherRoutes(d: Deps) {
  const app = new Hono<AppEnv>({ strict: false });
  const read = requirePermission("portfolio.read");
  const write = requirePermission("portfolio");
  app.get("/status", d.requireAuth, read, (c) => c.json({ active: !d.jobs.isPaused(PROCESSING_QUEUE) }));
  app.get("/", d.requireAuth, read, (c) => {
    const q = validate(DispatcherQuery, c.req.query());
    return c.json(collection(d, PROCESSING_QUEUE, { ...q, isUnmatched: false }));
  });
  app.post("/schedule", d.requireAuth, write, async (c) => {
    const body = await jsonBody(c, ScheduleBody);
    return c.json(schedule(d, PROCESSING_QUEUE, body.applications));
  });
  app.post("/requeue-failed", d.requireAuth, write, (c) => c.json(requeueFailed(d, PROCESSING_QUEUE)));
  app.post("/pause", d.requireAuth, write, (c) => {
    d.jobs.pause(PROCESSING_QUEUE);
    return c.json({ active: false });
  });
  app.post("/resume", d.requireAuth, write, (c) => {
    d.jobs.resume(PROCESSING_QUEUE);
    d.runtime.processing.poke();
    return c.json({ active: true });
  });
  app.delete("/:id", d.requireAuth, write, (c) => {
    remove(d, PROCESSING_QUEUE, c.req.param("id"));
    return c.body(null, 204);
  });
  return app;
}

function config(d: Deps): UsptoConfig {
  const s = d.settings.uspto();
  return {
    schedule: { current: s.schedule, default: USPTO_DEFAULTS.schedule, nextRuns: d.runtime.nextRuns(5) },
    requestTimeout: { current: s.requestTimeoutMs, default: USPTO_DEFAULTS.requestTimeoutMs },
    downloadRepeat: { current: s.downloadRepeatMs, default: USPTO_DEFAULTS.downloadRepeatMs },
    tooManyRequestsDelay: { current: s.tooManyRequestsDelayMs, default: USPTO_DEFAULTS.tooManyRequestsDelayMs },
  };
}

export function usptoRoutes(d: Deps) {
  const app = new Hono<AppEnv>({ strict: false });
  const read = requirePermission("uspto.read");
  const write = requirePermission("uspto");

  app.get("/downloads/status", d.requireAuth, read, (c) => c.json({ active: !d.jobs.isPaused(USPTO_QUEUE) }));
  app.post("/downloads/sorted", d.requireAuth, read, async (c) => c.json(collection(d, USPTO_QUEUE, await jsonBody(c, SortedBody))));
  app.post("/downloads/pause", d.requireAuth, write, (c) => {
    d.jobs.pause(USPTO_QUEUE);
    return c.json({ active: false });
  });
  app.post("/downloads/resume", d.requireAuth, write, (c) => {
    d.jobs.resume(USPTO_QUEUE);
    d.runtime.downloads.poke();
    return c.json({ active: true });
  });
  app.post("/downloads", d.requireAuth, write, async (c) => {
    const body = await jsonBody(c, ScheduleBody);
    return c.json(schedule(d, USPTO_QUEUE, body.applications));
  });
  app.post("/downloads/requeue-failed", d.requireAuth, write, (c) => c.json(requeueFailed(d, USPTO_QUEUE)));
  app.put("/downloads/:id", d.requireAuth, write, async (c) => {
    const { priority } = await jsonBody(c, PriorityBody);
    const result = d.jobs.setPriority(USPTO_QUEUE, c.req.param("id"), priority);
    if (result === "not-found") throw notFound(QUEUE_MESSAGES.notFound);
    if (result === "not-waiting") throw conflict(QUEUE_MESSAGES.notWaiting);
    return c.json(toItem(d.jobs.get(USPTO_QUEUE, c.req.param("id"))!));
  });
  app.delete("/downloads/:id", d.requireAuth, write, (c) => {
    remove(d, USPTO_QUEUE, c.req.param("id"));
    return c.body(null, 204);
  });

  app.get("/sync/status", d.requireAuth, read, (c) =>
    c.json({ inProgress: d.runtime.syncInProgress, lastError: d.runtime.lastSyncError }),
  );
  // The sync call (spec 2 §7 GET /api/uspto/sync): starts a sync; answers its outcome when it ends within
  // SYNC_ANSWER_MS (200 { inProgress: false, queued }), else 202 { inProgress: true } while it goes on.
  app.get("/sync", d.requireAuth, write, async (c) => {
    const missing = d.office.missing();
    if (missing) throw new HttpError(409, missing);
    const run = d.runtime.startSync();
    if (!run) throw conflict(QUEUE_MESSAGES.syncInProgress);
    const outcome = await Promise.race([run, new Promise<null>((r) => setTimeout(() => r(null), SYNC_ANSWER_MS).unref())]);
    if (!outcome) return c.json({ inProgress: true }, 202);
    if ("error" in outcome) throw new HttpError(409, outcome.error);
    return c.json({ inProgress: false, queued: outcome.queued });
  });
  app.post("/sync/customer-numbers", d.requireAuth, write, async (c) => c.json(await d.runtime.syncCustomerNumbers()));
  app.post("/sync/mark", d.requireAuth, write, async (c) => c.json({ marked: await d.runtime.markUnmatched() }));
  app.post("/sync/delete", d.requireAuth, write, (c) => c.json({ deleted: d.jobs.removeUnmatched(USPTO_QUEUE) }));
  app.delete("/sync/cache", d.requireAuth, write, (c) => c.json({ deleted: d.runtime.deleteCache() }));

  app.get("/config", d.requireAuth, read, (c) => c.json(config(d)));
  app.get("/config/schedule", d.requireAuth, read, (c) => c.json(config(d).schedule));
  app.post("/config/schedule", d.requireAuth, write, async (c) => {
    const { newCron } = await jsonBody(c, CronBody);
    const error = cronError(newCron);
    if (error) throw badRequest(error);
    d.settings.updateUspto({ schedule: newCron.trim().split(/\s+/).join(" ") });
    d.runtime.reschedule();
    return c.json(config(d).schedule);
  });
  app.get("/config/request-timeout", d.requireAuth, read, (c) => c.json(config(d).requestTimeout));
  app.post("/config/request-timeout", d.requireAuth, write, async (c) => {
    const { timeoutMinutes } = await jsonBody(c, TimeoutBody);
    d.settings.updateUspto({ requestTimeoutMs: timeoutMinutes * 60_000 });
    return c.json(config(d).requestTimeout);
  });
  app.get("/config/download-repeat", d.requireAuth, read, (c) => c.json(config(d).downloadRepeat));
  app.post("/config/download-repeat", d.requireAuth, write, async (c) => {
    const { intervalMs } = await jsonBody(c, IntervalBody);
    d.settings.updateUspto({ downloadRepeatMs: intervalMs });
    return c.json(config(d).downloadRepeat);
  });
  app.get("/config/too-many-requests-delay", d.requireAuth, read, (c) => c.json(config(d).tooManyRequestsDelay));
  app.post("/config/too-many-requests-delay", d.requireAuth, write, async (c) => {
    const { delayMs } = await jsonBody(c, DelayBody);
    d.settings.updateUspto({ tooManyRequestsDelayMs: delayMs });
    return c.json(config(d).tooManyRequestsDelay);
  });
  return app;
}
