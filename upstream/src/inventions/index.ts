/**
 * GET /api/inventions/search?qs=&size=&from= (spec 3 §7; upstream/contract/inventions.ts): the portfolio's applications
 * as inventions, searched in the chains' corpus. prompts.read: the chain page's Context tab asks it.
 *
 * The corpus is the process's one (chain-runs/corpus.ts, shared with the query links' runs); a search first takes in
 * what changed since the last sync, so an application added a moment ago is found.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { InventionSearchQuery } from "../../contract/inventions";
import type { SharedCorpus } from "../chain-runs/corpus";
import { requirePermission, validate, type AppEnv } from "../lib/http";
import { searchInventions } from "./search";

export function mountInventions(app: Hono<AppEnv>, o: { corpus: SharedCorpus; requireAuth: MiddlewareHandler<AppEnv> }) {
  const routes = new Hono<AppEnv>();
  routes.get("/search", o.requireAuth, requirePermission("prompts.read"), async (c) => {
    const query = validate(InventionSearchQuery, c.req.query());
    const open = o.corpus.get();
    await open.sync();
    return c.json(searchInventions(open.db, query.qs, query.size, query.from));
  });
  app.route("/api/inventions", routes);
}
