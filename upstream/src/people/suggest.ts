import { Hono, type MiddlewareHandler } from "hono";
import { ASSIGNEE_SUGGEST_PERMISSIONS, SUGGEST_LIMIT, TEXT_LIMITS } from "../../contract";
import { requireAny, requirePermission, type AppContext, type AppEnv } from "../lib/http";
import type { UsersStore } from "./store";

/** The typed text of `?q=`: trimmed and bounded as every search box's text. */
const needleOf = (c: AppContext) => (c.req.query("q") ?? "").trim().slice(0, TEXT_LIMITS.search);

/** /api/auth/suggest/* — GET /users?q= answers up to 10 user emails containing q (case-insensitive); [] for no q. */
export function suggestRoutes(deps: { users: UsersStore; requireAuth: MiddlewareHandler<AppEnv> }) {
  const app = new Hono<AppEnv>({ strict: false });
  app.get("/users", deps.requireAuth, requirePermission("users.read"), (c) => {
    const q = needleOf(c);
    return c.json(q ? deps.users.suggestEmails(q, SUGGEST_LIMIT) : []);
  });
  return app;
}

/**
 * /api/user-suggest/* (spec 3 §7) — GET /assignees?q= answers up to 10 people ({ name, email }) whose e-mail or name
 * contains q; [] for no q. For whoever assigns docket work (ASSIGNEE_SUGGEST_PERMISSIONS), not only users.read.
 */
export function assigneeSuggestRoutes(deps: { users: UsersStore; requireAuth: MiddlewareHandler<AppEnv> }) {
  const app = new Hono<AppEnv>({ strict: false });
  app.get("/assignees", deps.requireAuth, requireAny(...ASSIGNEE_SUGGEST_PERMISSIONS), (c) => {
    const q = needleOf(c);
    return c.json(q ? deps.users.suggestAssignees(q, SUGGEST_LIMIT) : []);
  });
  return app;
}
