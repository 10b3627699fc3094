/**
 * Prompt chains on the upstream (docs/decisions/chains.md): the store and its routes at /api/prompts and /api/v2/nlp.
 */
import type { Hono, MiddlewareHandler } from "hono";
import type { AiAdmin } from "../ai-admin/service";
import type { Db } from "../db";
import type { AppEnv } from "../lib/http";
import { CHAINS_PATH } from "../../contract/chains-constants";
import { deploymentsOf } from "./legacy-models";
import { chainEdits, chainNlpRoutes, chainRoutes } from "./routes";
import { ChainsStore } from "./store";

export { listChainsForLibrary } from "./store";
export type { ChainEdits } from "./routes";

export function mountChains(app: Hono<AppEnv>, o: { db: Db; now: () => number; ai: AiAdmin; requireAuth: MiddlewareHandler<AppEnv> }) {
  const chains = new ChainsStore(o.db, o.now);
  // One way to change a chain, shared by its own routes and the library's settings form.
  const edits = chainEdits({ chains, ai: o.ai });
  app.route(CHAINS_PATH, chainRoutes({ edits, ai: o.ai, requireAuth: o.requireAuth, deployments: () => deploymentsOf(o.db) }));
  app.route("/api/v2/nlp", chainNlpRoutes({ chains, requireAuth: o.requireAuth }));
  return { chains, edits };
}
