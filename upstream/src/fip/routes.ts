/** /api/fip/* (docketing_tasks.read; Sync matter and Delete need docketing_tasks) — spec 2 §7. */
import { Hono, type MiddlewareHandler } from "hono";
import { FipSortedBody, type FipCollection, type FipRecord } from "../../contract/queues";
import { badRequest, jsonBody, notFound, requirePermission, type AppEnv } from "../lib/http";
import { externalMatterId, FIP_MESSAGES, type DocketSystem } from "./adapter";
import type { FipSync } from "./service";
import type { FipRow, FipStore } from "./store";

export function fipRoutes(d: { store: FipStore; sync: FipSync; docket: DocketSystem; requireAuth: MiddlewareHandler<AppEnv> }) {
  const app = new Hono<AppEnv>({ strict: false });
  const read = requirePermission("docketing_tasks.read");
  const write = requirePermission("docketing_tasks");
  const toRecord = (r: FipRow): FipRecord => ({
    id: r.id,
    matterNumber: r.matterNumber,
    fipId: r.fipId,
    fipAuditDate: r.fipAuditDate,
    synchronized: r.synchronized,
    error: r.error,
    createdAt: new Date(r.createdAt).toISOString(),
    updatedAt: new Date(r.updatedAt).toISOString(),
    matterUrl: d.docket.matterUrl(r.fipId),
  });

  app.post("/matters/sorted", d.requireAuth, read, async (c) => {
    const q = await jsonBody(c, FipSortedBody);
    const page = d.store.page(q);
    const body: FipCollection = { data: page.data.map(toRecord), total: page.total, aggs: d.store.aggs(), missing: d.docket.missing() };
    return c.json(body);
  });
  // The sync action: always re-fetches from the docket system (never answered from a cache).
  app.get("/matters/byFipId/:id", d.requireAuth, write, async (c) => {
    const fipId = c.req.param("id");
    if (fipId.length > 120 || !externalMatterId(fipId)) throw badRequest(FIP_MESSAGES.badFipId(fipId.slice(0, 120)));
    c.header("cache-control", "no-store");
    return c.json(toRecord(await d.sync.syncMatter(fipId)));
  });
  app.delete("/matters/:id", d.requireAuth, write, (c) => {
    if (!d.store.remove(c.req.param("id"))) throw notFound("Matter not found.");
    return c.body(null, 204);
  });
  return app;
}
