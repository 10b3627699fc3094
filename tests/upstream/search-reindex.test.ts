import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedPortfolio } from "../../upstream/src/applications/demo";
import { openDatabase, type Db } from "../../upstream/src/db";
import { SqliteSearchEngine } from "../../upstream/src/search/sqlite";

/**
 * A rebuild of the index (reindex) empties it, then fills it again a batch per turn of the event loop. The
 * categorization's whole-match-set calls must not read it half-built: a cleanup would take tags off the applications
 * not yet indexed again. They wait for the rebuild; a second reindex call joins the first.
 */
let dir: string;
let db: Db;
let engine: SqliteSearchEngine;
const body = { query: { query_string: { query: "system OR sensor" } } };
const scope = { portfolioId: "public" };

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-reindex-"));
  db = openDatabase(dir);
  seedPortfolio(db, { count: 3000, now: () => Date.UTC(2026, 0, 1) });
  // 30 steps of 100 rows: the calls below start while most of the index is still missing.
  engine = new SqliteSearchEngine(db, { rankWorkers: 0, reindexBatch: 100 });
});

afterAll(async () => {
  await engine.close();
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function collect(gen: AsyncGenerator<{ id: string; score: number | null }[]>) {
  const out = new Map<string, number | null>();
  for await (const batch of gen) for (const m of batch) out.set(m.id, m.score);
  return out;
}

describe("reindex and the whole-match-set calls", () => {
  it("countMatches, scanMatches and matchAmong started during a rebuild answer as on the whole index", async () => {
    const count = await engine.countMatches(body, scope);
    const matches = await collect(engine.scanMatches(body, scope, 250));
    const some = [...matches.keys()].slice(0, 40);
    const among = await engine.matchAmong(body, scope, some);
    expect(count).toBeGreaterThan(500);
    expect(matches.size).toBe(count);

    const steps: number[] = [];
    const rebuild = engine.reindex((processed) => steps.push(processed));
    // A second call while it runs is the same rebuild.
    expect(engine.reindex(() => {})).toBe(rebuild);
    const during = Promise.all([engine.countMatches(body, scope), collect(engine.scanMatches(body, scope, 250)), engine.matchAmong(body, scope, some)]);
    // The index is really half-built meanwhile: a search sees fewer matches.
    await new Promise((resolve) => setImmediate(resolve));
    const partial = await engine.search({ ...body, size: 0, track_total_hits: true }, scope);
    expect(partial.total).toBeLessThan(count);

    const [countDuring, matchesDuring, amongDuring] = await during;
    await rebuild;
    expect(steps.length).toBeGreaterThan(10);
    expect(countDuring).toBe(count);
    expect(matchesDuring).toEqual(matches);
    expect(amongDuring).toEqual(among);
    expect((await engine.search({ ...body, size: 0, track_total_hits: true }, scope)).total).toBe(count);
  });
});
