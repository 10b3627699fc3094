/**
 * A chain's context per user (upstream/contract/chain-context.ts; docs/decisions/chain-context.md): one row per user and
 * chain in `chain_contexts` (migration 108), the context as JSON, gone with the chain.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { CHAIN_CONTEXT_LIMITS, CHAIN_CONTEXT_MESSAGES, ChainContext, EMPTY_CHAIN_CONTEXT } from "../../contract/chain-context";
import { CHAIN_MESSAGES } from "../../contract/chains-constants";
import type { Db } from "../db";
import { HttpError, isoNow, jsonBody, notFound, requirePermission, type AppContext, type AppEnv } from "../lib/http";

export class ChainContexts {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  /** The user's context of the chain (empty when none was kept); null when the chain does not exist. */
  get(chainId: string, userId: string): ChainContext | null {
    if (!this.db.prepare("select 1 from chains where id = ?").get(chainId)) return null;
    const row = this.db.prepare("select context from chain_contexts where chain_id = ? and user_id = ?").get(chainId, userId) as
      | { context: string }
      | undefined;
    return row ? ChainContext.parse(JSON.parse(row.context)) : EMPTY_CHAIN_CONTEXT;
  }

  /** Replaces the user's context of the chain; null when the chain does not exist. */
  put(chainId: string, userId: string, context: ChainContext): ChainContext | null {
    const updatedAt = isoNow(this.now);
    const stored: ChainContext = { ...context, updatedAt };
    const text = JSON.stringify(stored);
    if (text.length > CHAIN_CONTEXT_LIMITS.chars) throw new HttpError(413, CHAIN_CONTEXT_MESSAGES.tooLarge);
    const changed = this.db
      .prepare(
        `insert into chain_contexts (chain_id, user_id, context, updated_at) select id, ?, ?, ? from chains where id = ?
         on conflict (chain_id, user_id) do update set context = excluded.context, updated_at = excluded.updated_at`,
      )
      .run(userId, text, updatedAt, chainId).changes;
    return changed ? stored : null;
  }

  clear(chainId: string, userId: string): void {
    this.db.prepare("delete from chain_contexts where chain_id = ? and user_id = ?").run(chainId, userId);
  }
}

/** /api/v2/nlp/chains/{id}/context: prompts.read; a user's own context only. */
export function chainContextRoutes(deps: { contexts: ChainContexts; requireAuth: MiddlewareHandler<AppEnv> }) {
  const { contexts } = deps;
  const app = new Hono<AppEnv>();
  app.use("/:id/context", deps.requireAuth, requirePermission("prompts.read"));
  const found = <T>(value: T | null): T => {
    if (value === null) throw notFound(CHAIN_MESSAGES.notFound);
    return value;
  };
  const user = (c: AppContext) => c.get("actor").id;
  app.get("/:id/context", (c) => c.json(found(contexts.get(c.req.param("id"), user(c)))));
  app.put("/:id/context", async (c) => {
    const context = await jsonBody(c, ChainContext);
    return c.json(found(contexts.put(c.req.param("id"), user(c), context)));
  });
  app.delete("/:id/context", (c) => {
    found(contexts.get(c.req.param("id"), user(c)));
    contexts.clear(c.req.param("id"), user(c));
    return c.body(null, 204);
  });
  return app;
}

export function mountChainContexts(app: Hono<AppEnv>, o: { db: Db; now: () => number; requireAuth: MiddlewareHandler<AppEnv> }) {
  const contexts = new ChainContexts(o.db, o.now);
  app.route("/api/v2/nlp/chains", chainContextRoutes({ contexts, requireAuth: o.requireAuth }));
  return { contexts };
}
