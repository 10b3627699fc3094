import { Hono, type MiddlewareHandler } from "hono";
import { SUGGEST_LIMIT, TEXT_LIMITS } from "../../contract";
import { requirePermission, type AppEnv } from "../lib/http";
import type { UsersStore } from "./store";

/** /api/auth/suggest/* — GET /users?q= answers up to 10 user emails containing q (case-insensitive); [] for no q. */
export function suggestRoutes(deps: { users: UsersStore; requireAuth: MiddlewareHandler<AppEnv> }) {
  const app = new Hono<AppEnv>({ strict: false });
  app.get("/users", deps.requireAuth, requirePermission("users.read"), (c) => {
    const q = (c.req.query("q") ?? "").trim().slice(0, TEXT_LIMITS.search);
    return c.json(q ? deps.users.suggestEmails(q, SUGGEST_LIMIT) : []);
  });
  return app;
}
