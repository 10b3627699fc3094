import { Hono, type MiddlewareHandler } from "hono";
import { MaintenanceSettingsUpdate, type MaintenanceSettings } from "../../contract/email-connector";
import type { AppSettingsStore } from "../app-settings/store";
import { jsonBody, requirePermission, type AppEnv } from "../lib/http";

const KEY = "msGraphEmailConnector";
type Stored = { fastLaneCheckUpdates: boolean; fastLaneEmails: string[] };
const DEFAULTS: Stored = { fastLaneCheckUpdates: false, fastLaneEmails: [] };

/**
 * /api/ms-graph-email-connector/* (spec 2 §7): `GET /settings` (administration.read) and `POST /settings`
 * (administration) with `{ fastLaneCheckUpdates, fastLaneEmails }`; the addresses are checked, lower-cased and
 * deduplicated. Before any save: off, no addresses.
 */
export function emailConnectorRoutes(deps: { settings: AppSettingsStore; requireAuth: MiddlewareHandler<AppEnv> }) {
  const { settings, requireAuth } = deps;
  const answer = (): MaintenanceSettings => {
    const stored = settings.get<Stored>(KEY);
    const value = { ...DEFAULTS, ...(stored?.value ?? {}) };
    return { ...value, updatedAt: stored?.updatedAt ?? null, updatedBy: stored?.updatedBy ?? null };
  };
  const app = new Hono<AppEnv>({ strict: false });
  app.get("/settings", requireAuth, requirePermission("administration.read"), (c) => c.json(answer()));
  app.post("/settings", requireAuth, requirePermission("administration"), async (c) => {
    const input = await jsonBody(c, MaintenanceSettingsUpdate);
    settings.put<Stored>(KEY, input, c.get("actor").email);
    return c.json(answer());
  });
  return app;
}
