/**
 * The one owner of the chains' corpus (upstream/src/chain-query/corpus.ts) in a process: the invention search and the
 * query links' runs both read it, and two owners would each copy the portfolio on a timer of their own into the same
 * file. Opened on first use (most processes never search or run a query), then it follows the portfolio on its timer;
 * callers that need what changed a moment ago call `sync()` first.
 */
import path from "node:path";
import { ChainCorpus } from "../chain-query/corpus";
import type { Db } from "../db";

/** How often an open corpus follows the portfolio between searches and runs (a sync copies only what changed). */
const CORPUS_SYNC_MS = 60_000;

export type SharedCorpus = { get: () => ChainCorpus; close: () => Promise<void> };

export function sharedCorpus(o: { db: Db; dataDir: string }): SharedCorpus {
  let opened: ChainCorpus | null = null;
  return {
    get: () => {
      if (!opened) {
        opened = new ChainCorpus(path.join(o.dataDir, "chain-corpus.db"), o.db);
        opened.start(CORPUS_SYNC_MS);
      }
      return opened;
    },
    close: async () => {
      await opened?.close();
      opened = null;
    },
  };
}
