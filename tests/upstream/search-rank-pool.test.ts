import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedPortfolio } from "../../upstream/src/applications/demo";
import { openDatabase, type Db } from "../../upstream/src/db";
import { SqliteSearchEngine } from "../../upstream/src/search/sqlite";

/**
 * Ranking on worker threads (upstream/src/search/rank-pool.ts): a relevance-sorted full-text search ranks disjoint
 * rowid ranges on the pool's workers and merges them. The answer must be the one the calling thread alone gives: the
 * same hits, in the same order, with the same scores, on every page.
 */
let dir: string;
let db: Db;
let pooled: SqliteSearchEngine;
let inline: SqliteSearchEngine;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "rank-pool-"));
  db = openDatabase(dir);
  seedPortfolio(db, { count: 3000, now: () => Date.UTC(2026, 0, 1) });
  // Every full-text query through the workers (in use, only those of 20,000 matches and more).
  pooled = new SqliteSearchEngine(db, { rankWorkers: 3, parallelFrom: 0 });
  inline = new SqliteSearchEngine(db, { rankWorkers: 0 });
});

afterAll(async () => {
  await pooled.close();
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ranked = (answer: { data: { id: string; score: number | null }[]; total: number }) => ({
  total: answer.total,
  hits: answer.data.map((h) => `${h.id} ${h.score}`),
});

describe("ranking on worker threads", () => {
  const bodies: Record<string, unknown> = {
    "a word in most applications": { query: { query_string: { query: "system" } }, size: 250 },
    "two words, and": { query: { query_string: { query: "system AND method" } }, size: 100 },
    "a phrase, second page": { query: { match_phrase: { claims: "plurality of" } }, size: 50, from: 50 },
    "a word and a tag filter": {
      query: { bool: { must: [{ match: { abstract: "signal" } }], filter: [{ term: { "tags.name": "wireless" } }] } },
      size: 250,
    },
    "boosted fields, a range": {
      query: {
        bool: {
          must: [{ multi_match: { query: "processor memory", fields: ["title^3", "abstract"] } }],
          filter: [{ range: { broadScore: { gte: 20 } } }],
        },
      },
      size: 80,
    },
    "past the last hit": { query: { query_string: { query: "thermoluminide" } }, size: 10, from: 9000 },
  };
  for (const [name, body] of Object.entries(bodies)) {
    it(`${name}: the same page as one thread`, async () => {
      const expected = inline.searchSync(body, { portfolioId: "public" });
      const answer = await pooled.search(body, { portfolioId: "public" });
      expect(ranked(answer)).toEqual(ranked(expected));
      expect(answer.aggs).toEqual(expected.aggs);
      if (name !== "past the last hit") expect(answer.data.length).toBeGreaterThan(0);
    });
  }

  it("the CSV scan gives the same rows in the same order", async () => {
    const body = { query: { query_string: { query: "system OR device" } } };
    const rows = async (engine: SqliteSearchEngine) => {
      const ids: string[] = [];
      for await (const chunk of engine.scan(body, {}, 1200)) ids.push(...chunk.map((a) => a.id));
      return ids;
    };
    const [a, b] = await Promise.all([rows(pooled), rows(inline)]);
    expect(a.length).toBe(1200);
    expect(a).toEqual(b);
  });

  it("below the threshold the calling thread ranks: no worker is started", async () => {
    const engine = new SqliteSearchEngine(db, { rankWorkers: 2 });
    const body = { query: { query_string: { query: "system" } }, size: 20 };
    expect(ranked(await engine.search(body, {}))).toEqual(ranked(inline.searchSync(body, {})));
    expect((engine as unknown as { pool: { slots: unknown[] } }).pool.slots).toHaveLength(0);
    await engine.close();
  });

  it("with a threshold, the matches are counted up to it; past it, the workers rank and the total is still exact", async () => {
    const engine = new SqliteSearchEngine(db, { rankWorkers: 2, parallelFrom: 500 });
    for (const query of ["system", "thermoluminide OR biofilide", "lidar"]) {
      const body = { query: { query_string: { query } }, size: 40, aggs: { tags: { terms: { field: "tags.name" } } } };
      const answer = await engine.search(body, { portfolioId: "public" });
      const expected = inline.searchSync(body, { portfolioId: "public" });
      expect(ranked(answer)).toEqual(ranked(expected));
      expect(answer.aggs).toEqual(expected.aggs);
    }
    // "system" is in more than 500 of them: it went to the workers.
    expect((engine as unknown as { pool: { slots: unknown[] } }).pool.slots.length).toBeGreaterThan(0);
    await engine.close();
  });

  it("a closed pool falls back to the calling thread with the same answer", async () => {
    const engine = new SqliteSearchEngine(db, { rankWorkers: 2, parallelFrom: 0 });
    const body = { query: { query_string: { query: "controller" } }, size: 30 };
    const before = ranked(await engine.search(body, {}));
    await engine.close();
    expect(ranked(await engine.search(body, {}))).toEqual(before);
    expect(before).toEqual(ranked(inline.searchSync(body, {})));
  });
});
