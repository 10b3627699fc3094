import { Hono, type MiddlewareHandler } from "hono";
import { SETTINGS_MESSAGES, SETTING_KEY, SettingPut } from "../../contract/settings";
import type { UsersStore } from "../people/store";
import { badRequest, fieldMessage, jsonBody, notFound, requirePermission, type AppEnv } from "../lib/http";
import type { SettingsStore } from "./store";

/** /api/settings/* — user settings, owned by a user's email. */
export function settingsRoutes(deps: { settings: SettingsStore; users: UsersStore; requireAuth: MiddlewareHandler<AppEnv> }) {
  const { settings, users, requireAuth } = deps;
  const app = new Hono<AppEnv>({ strict: false });

  const owner = (raw: string | undefined) => {
    const email = (raw ?? "").trim().toLowerCase();
    if (!email) throw badRequest(fieldMessage(["owner"], SETTINGS_MESSAGES.ownerRequired));
    if (!users.emailExists(email)) throw notFound(SETTINGS_MESSAGES.ownerUnknown);
    return email;
  };

  app.get("/users/:owner", requireAuth, requirePermission("users.read"), (c) =>
    c.json(settings.list(owner(c.req.param("owner")))),
  );

  app.put("/users/:key", requireAuth, requirePermission("users"), async (c) => {
    const body = await jsonBody(c, SettingPut);
    const key = body.key.trim();
    if (!key) throw badRequest(fieldMessage(["key"], SETTINGS_MESSAGES.keyRequired));
    if (key !== c.req.param("key")) throw badRequest(fieldMessage(["key"], SETTINGS_MESSAGES.keyMismatch));
    if (!SETTING_KEY.test(key) || key.length > 200) throw badRequest(fieldMessage(["key"], SETTINGS_MESSAGES.keyInvalid));
    if (typeof body.value === "string" && body.value.trim() === "") {
      throw badRequest(fieldMessage(["value"], SETTINGS_MESSAGES.valueRequired));
    }
    const saved = settings.put({ key, value: body.value, secured: body.secured, owner: owner(body.owner) }, c.get("actor").email);
    return c.json(saved);
  });

  app.delete("/:key", requireAuth, requirePermission("users"), (c) => {
    const email = owner(c.req.query("owner"));
    if (!settings.delete(email, c.req.param("key"))) throw notFound(SETTINGS_MESSAGES.notFound);
    return c.body(null, 204);
  });

  return app;
}
