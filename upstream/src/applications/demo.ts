import type { Db } from "../db";
import { demoOrganizations, seedBatch } from "./seed";
import { ApplicationsStore } from "./store";

export type SeedOptions = { count: number; batch?: number; optimize?: boolean; now?: () => number; onProgress?: (done: number) => void };

/** Seeds demo applications 0 … count-1 synchronously, one transaction per batch (the seed script, the bench). */
export function seedPortfolio(db: Db, options: SeedOptions): number {
  const now = options.now ?? Date.now;
  const batch = options.batch ?? 5000;
  const store = new ApplicationsStore(db, now);
  const organizations = demoOrganizations(db, now);
  const t = now();
  let inserted = 0;
  for (let from = 0; from < options.count; from += batch) {
    inserted += seedBatch(db, store, organizations, from, Math.min(options.count, from + batch), t);
    options.onProgress?.(Math.min(options.count, from + batch));
  }
  if (options.optimize) db.exec("insert into applications_fts (applications_fts) values ('optimize')");
  return inserted;
}

/**
 * The first start's demo: on a database that never had it, `count` applications are added in the
 * background, `batch` per turn of the event loop (each turn a few milliseconds), so the start is not slowed. Marked
 * done in `portfolio_meta` first, so it happens once even if the applications are deleted later. Returns a function
 * that stops it (close).
 */
export function seedDemoInBackground(db: Db, options: { count: number; batch?: number; now: () => number; log: (m: string) => void }): () => void {
  const marked = db.prepare("insert or ignore into portfolio_meta (key, value) values ('demo-seeded', ?)").run(new Date(options.now()).toISOString());
  if (marked.changes === 0 || options.count <= 0) return () => {};
  const store = new ApplicationsStore(db, options.now);
  const organizations = demoOrganizations(db, options.now);
  const batch = options.batch ?? 250;
  const t = options.now();
  let from = 0;
  let stopped = false;
  const step = () => {
    if (stopped) return;
    try {
      seedBatch(db, store, organizations, from, Math.min(options.count, from + batch), t);
    } catch (error) {
      options.log(`portfolio demo: ${(error as Error).message}`);
      return;
    }
    from += batch;
    if (from < options.count) timer = setTimeout(step, 0);
  };
  let timer: NodeJS.Timeout | undefined = setTimeout(step, 0);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
