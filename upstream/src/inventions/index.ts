/**
 * GET /api/inventions/search?qs=&size=&from= (spec 3 §7; upstream/contract/inventions.ts): the portfolio's applications
 * as inventions, searched in the chains' corpus. prompts.read: the chain page's Context tab asks it.
 *
 * The corpus is opened on first use (most processes never search or run a query) and then follows the portfolio on its
 * own timer; a search first takes in what changed since the last sync, so an application added a moment ago is found.
 */
import path from "node:path";
import { Hono, type MiddlewareHandler } from "hono";
import { InventionSearchQuery } from "../../contract/inventions";
import { ChainCorpus } from "../chain-query/corpus";
import type { Db } from "../db";
import { requirePermission, validate, type AppEnv } from "../lib/http";
import { searchInventions } from "./search";

/** How often an open corpus follows the portfolio between searches and runs. */
const CORPUS_SYNC_MS = 60_000;

export function mountInventions(app: Hono<AppEnv>, o: { db: Db; dataDir: string; requireAuth: MiddlewareHandler<AppEnv> }) {
  let opened: ChainCorpus | null = null;
  /** The chains' corpus, shared by the invention search and the query links' runs. */
  const corpus = (): ChainCorpus => {
    if (!opened) {
      opened = new ChainCorpus(path.join(o.dataDir, "chain-corpus.db"), o.db);
      opened.start(CORPUS_SYNC_MS);
    }
    return opened;
  };
  const routes = new Hono<AppEnv>();
  routes.get("/search", o.requireAuth, requirePermission("prompts.read"), async (c) => {
    const query = validate(InventionSearchQuery, c.req.query());
    const open = corpus();
    await open.sync();
    return c.json(searchInventions(open.db, query.qs, query.size, query.from));
  });
  app.route("/api/inventions", routes);
  return { corpus, stop: () => void opened?.close() };
}
