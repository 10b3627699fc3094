import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { can, type Permission } from "../../contract/permissions";
import { validate, type AppEnv } from "../lib/http";

/** Where tags come from: each source is read only by those holding its permission. */
export type TagSource = { permission: Permission; suggest(q: string, limit: number): string[] };

const Query = z.object({ q: z.string().max(200).optional().default("") });
const LIMIT = 20;

/**
 * /api/suggest/* — `GET /tags?q=`: tags in use that contain `q` (case-insensitive), from every source the user may
 * read (specifications for now; other domains add theirs), those starting with `q` first, at most 20. Empty `q`: [].
 */
export function suggestRoutes(deps: { requireAuth: MiddlewareHandler<AppEnv>; tagSources: TagSource[] }): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/tags", deps.requireAuth, (c) => {
    const { q } = validate(Query, c.req.query());
    const needle = q.trim().toLowerCase();
    if (!needle) return c.json([]);
    const perms = c.get("actor").permissions;
    const seen = new Map<string, string>();
    for (const source of deps.tagSources) {
      if (!can(perms, source.permission)) continue;
      for (const tag of source.suggest(needle, LIMIT)) if (!seen.has(tag.toLowerCase())) seen.set(tag.toLowerCase(), tag);
    }
    const tags = [...seen.values()].sort((a, b) => {
      const pa = a.toLowerCase().startsWith(needle) ? 0 : 1;
      const pb = b.toLowerCase().startsWith(needle) ? 0 : 1;
      return pa - pb || a.localeCompare(b, "en", { sensitivity: "base" });
    });
    return c.json(tags.slice(0, LIMIT));
  });
  return app;
}
