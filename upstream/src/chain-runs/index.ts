/**
 * Chain runs on the upstream (docs/decisions/chain-runs.md): the query sandbox over the chains' corpus, the run
 * engine, and their routes at /api/v2/nlp.
 */
import type { Hono, MiddlewareHandler } from "hono";
import type { RunLimits } from "../../contract/chain-runs";
import type { AiAdmin } from "../ai-admin/service";
import type { ChainCorpus } from "../chain-query/corpus";
import { QuerySandbox } from "../chain-query/sandbox";
import type { Converters } from "../converters";
import type { Db } from "../db";
import type { AppEnv } from "../lib/http";
import type { SharedCorpus } from "./corpus";
import { chainRunRoutes } from "./routes";
import { ChainRuns } from "./service";

export function mountChainRuns(
  app: Hono<AppEnv>,
  o: {
    db: Db;
    now: () => number;
    ai: AiAdmin;
    corpus: SharedCorpus;
    requireAuth: MiddlewareHandler<AppEnv>;
    log: (message: string) => void;
    limits?: RunLimits;
    converters?: () => Converters;
  },
) {
  // Started on the first query link: a server whose chains never query keeps no sandbox process. The corpus is the
  // process's one (its owner closes it).
  let query: { sandbox: QuerySandbox; corpus: ChainCorpus } | null = null;
  const queryParts = () => {
    if (!query) {
      const corpus = o.corpus.get();
      query = { corpus, sandbox: new QuerySandbox(corpus.file) };
    }
    return query;
  };
  const runs = new ChainRuns({ db: o.db, now: o.now, ai: o.ai, query: queryParts, log: o.log, limits: o.limits, converters: o.converters });
  runs.startRetention();
  app.route("/api/v2/nlp", chainRunRoutes({ runs, requireAuth: o.requireAuth }));
  return {
    runs,
    stop: async () => {
      runs.close();
      await query?.sandbox.close();
    },
  };
}
