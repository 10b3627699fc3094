/**
 * Chain runs on the upstream (docs/decisions/chain-runs.md): the query sandbox over the chains' corpus, the run
 * engine, and their routes at /api/v2/nlp.
 */
import path from "node:path";
import type { Hono, MiddlewareHandler } from "hono";
import type { RunLimits } from "../../contract/chain-runs";
import type { AiAdmin } from "../ai-admin/service";
import { ChainCorpus } from "../chain-query/corpus";
import { QuerySandbox } from "../chain-query/sandbox";
import type { Db } from "../db";
import type { AppEnv } from "../lib/http";
import { chainRunRoutes } from "./routes";
import { ChainRuns } from "./service";

/** How often the corpus follows the portfolio when no query asks first. */
const CORPUS_SYNC_MS = 5 * 60_000;

export function mountChainRuns(
  app: Hono<AppEnv>,
  o: { db: Db; now: () => number; ai: AiAdmin; dataDir: string; requireAuth: MiddlewareHandler<AppEnv>; log: (message: string) => void; limits?: RunLimits },
) {
  // Opened on the first query link: a server whose chains never query keeps neither the corpus nor its process.
  let query: { sandbox: QuerySandbox; corpus: ChainCorpus } | null = null;
  const queryParts = () => {
    if (!query) {
      const corpus = new ChainCorpus(path.join(o.dataDir, "chain-corpus.db"), o.db);
      corpus.start(CORPUS_SYNC_MS);
      query = { corpus, sandbox: new QuerySandbox(corpus.file) };
    }
    return query;
  };
  const runs = new ChainRuns({ db: o.db, now: o.now, ai: o.ai, query: queryParts, log: o.log, limits: o.limits });
  app.route("/api/v2/nlp", chainRunRoutes({ runs, requireAuth: o.requireAuth }));
  return {
    runs,
    stop: async () => {
      runs.close();
      if (query) {
        await query.sandbox.close();
        await query.corpus.close();
      }
    },
  };
}
