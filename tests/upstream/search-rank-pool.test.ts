import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "../../upstream/src/db";
import { SqliteSearchEngine } from "../../upstream/src/search/sqlite";
import { rankedHits as ranked, seededPortfolioDir } from "./portfolio-fixture";

/**
 * Ranking on worker threads (upstream/src/search/rank-pool.ts): a relevance-sorted full-text search ranks disjoint
 * rowid ranges on the pool's workers and merges them. The answer must be the one the calling thread alone gives: the
 * same hits, in the same order, with the same scores, on every page.
 */
let fixture: ReturnType<typeof seededPortfolioDir>;
let db: Db;
let pooled: SqliteSearchEngine;
let inline: SqliteSearchEngine;

beforeAll(() => {
  fixture = seededPortfolioDir("rank-pool-");
  db = openDatabase(fixture.dir);
  // Every full-text query through the workers (in use, only those of 20,000 matches and more).
  pooled = new SqliteSearchEngine(db, { rankWorkers: 3, parallelFrom: 0 });
  inline = new SqliteSearchEngine(db, { rankWorkers: 0 });
});

afterAll(async () => {
  await pooled.close();
  db.close();
  fixture.remove();
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
      const expected = await inline.search(body, { portfolioId: "public" });
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
    expect(ranked(await engine.search(body, {}))).toEqual(ranked(await inline.search(body, {})));
    expect((engine as unknown as { pool: { slots: unknown[] } }).pool.slots).toHaveLength(0);
    await engine.close();
  });

  it("with a threshold, the matches are counted up to it; past it, the workers rank and the total is still exact", async () => {
    const engine = new SqliteSearchEngine(db, { rankWorkers: 2, parallelFrom: 500 });
    for (const query of ["system", "thermoluminide OR biofilide", "lidar"]) {
      const body = { query: { query_string: { query } }, size: 40, aggs: { tags: { terms: { field: "tags.name" } } } };
      const answer = await engine.search(body, { portfolioId: "public" });
      const expected = await inline.search(body, { portfolioId: "public" });
      expect(ranked(answer)).toEqual(ranked(expected));
      expect(answer.aggs).toEqual(expected.aggs);
    }
    // "system" is in more than 500 of them: it went to the workers.
    expect((engine as unknown as { pool: { slots: unknown[] } }).pool.slots.length).toBeGreaterThan(0);
    await engine.close();
  });

  it("track_total_hits: counted up to it, then 'more than'; exact when asked or known for free; the facet says when it sampled", async () => {
    const engine = new SqliteSearchEngine(db, { rankWorkers: 2, parallelFrom: 500, facetSample: 200 });
    const one = new SqliteSearchEngine(db, { rankWorkers: 0, facetSample: 200 });
    const scope = { portfolioId: "public" };
    const facet = { aggs: { tags: { terms: { field: "tags.name" } } } };
    const exact = (await one.search({ query: { query_string: { query: "system" } }, size: 0, track_total_hits: true }, scope)).total;
    expect(exact).toBeGreaterThan(500);
    const total = async (e: SqliteSearchEngine, body: Record<string, unknown>) => {
      const a = await e.search({ ...facet, ...body }, scope);
      return { total: a.total, relation: a.totalRelation, partial: a.aggs.tags!.partial ?? false, sampled: a.aggs.tags!.sampled ?? null };
    };
    for (const e of [engine, one]) {
      const system = { query: { query_string: { query: "system" } }, size: 10 };
      // A broad query on the workers is known to pass 100 without counting; on one thread it is counted to 101.
      expect(await total(e, { ...system, track_total_hits: 100 })).toEqual({ total: 100, relation: "gte", partial: true, sampled: 200 });
      expect(await total(e, { ...system, track_total_hits: true })).toEqual({ total: exact, relation: "eq", partial: true, sampled: 200 });
      expect(await total(e, { ...system, track_total_hits: exact })).toEqual({ total: exact, relation: "eq", partial: true, sampled: 200 });
      expect(await total(e, { ...system, track_total_hits: exact - 1 })).toEqual({ total: exact - 1, relation: "gte", partial: true, sampled: 200 });
      expect(await total(e, { ...system, track_total_hits: false })).toMatchObject({ total: 0, relation: "gte" });
      // The default: 10,000, past this corpus.
      expect(await total(e, system)).toMatchObject({ total: exact, relation: "eq" });
      // Few matches, a smaller tracked count: the facet counts them to know it saw them all.
      const rare = { query: { query_string: { query: "lidar" } }, size: 10 };
      const rareTotal = (await one.search({ ...rare, track_total_hits: true }, scope)).total;
      expect(rareTotal).toBeGreaterThan(1);
      expect(rareTotal).toBeLessThanOrEqual(200);
      expect(await total(e, { ...rare, track_total_hits: 1 })).toEqual({ total: 1, relation: "gte", partial: false, sampled: null });
      expect(await total(e, { ...rare, track_total_hits: 0 })).toMatchObject({ total: 0, relation: "gte" });
      expect(await total(e, { query: { query_string: { query: "nosuchwordanywhere" } }, size: 10, track_total_hits: 0 })).toMatchObject({ total: 0, relation: "eq" });
      // The whole portfolio: the maintained counts answer exactly, however small the tracked count.
      const all = await e.search({ size: 1, track_total_hits: 10 }, scope);
      expect(all).toMatchObject({ total: 1800, totalRelation: "eq" });
    }
    await engine.close();
  });

  it("past the facet's sample, the facet counts the query's first hits in its order, on the workers or not", async () => {
    const engine = new SqliteSearchEngine(db, { rankWorkers: 2, parallelFrom: 0, facetSample: 300, facetFirst: 100 });
    const one = new SqliteSearchEngine(db, { rankWorkers: 0, facetSample: 300, facetFirst: 100 });
    const scope = { portfolioId: "public" };
    const facet = { aggs: { tags: { terms: { field: "tags.name", size: 100 } } } };
    /** The tags of the first 100 hits, counted here from the hits themselves. */
    const tally = async (query: Record<string, unknown>) => {
      const hits = (await one.search({ ...query, size: 100 }, scope)).data;
      expect(hits).toHaveLength(100);
      const counts = new Map<string, number>();
      for (const hit of hits) for (const tag of hit.tags) counts.set(tag.name, (counts.get(tag.name) ?? 0) + 1);
      return [...counts].map(([key, doc_count]) => ({ key, doc_count })).sort((a, b) => b.doc_count - a.doc_count || (a.key < b.key ? -1 : 1));
    };
    const queries: Record<string, Record<string, unknown>> = {
      relevance: { query: { query_string: { query: "system OR method" } } },
      "a field's order": { query: { query_string: { query: "system" } }, sort: [{ broadScore: "desc" }] },
      "no text, newest first": { query: { range: { broadScore: { gte: 0 } } } },
    };
    for (const [name, query] of Object.entries(queries)) {
      const expected = await tally(query);
      for (const e of [engine, one]) {
        for (const page of [{ size: 10 }, { size: 0 }, { size: 50, from: 150 }]) {
          const answer = await e.search({ ...query, ...facet, ...page }, scope);
          expect(answer.aggs.tags, `${name} ${JSON.stringify(page)}`).toEqual({ buckets: expected, sum_other_doc_count: 0, partial: true, sampled: 100 });
        }
      }
    }
    // The pooled page past the first hits is the one thread's.
    const deep = { query: { query_string: { query: "system OR method" } }, ...facet, size: 50, from: 150 };
    expect(ranked(await engine.search(deep, scope))).toEqual(ranked(await one.search(deep, scope)));
    // Up to the sample, every match is counted (the facet is whole).
    const few = await engine.search({ query: { query_string: { query: "lidar" } }, ...facet, size: 5 }, scope);
    expect(few.total).toBeLessThanOrEqual(300);
    expect(few.aggs.tags!.partial).toBeUndefined();
    await engine.close();
  });

  it("a closed pool falls back to the calling thread with the same answer", async () => {
    const engine = new SqliteSearchEngine(db, { rankWorkers: 2, parallelFrom: 0 });
    const body = { query: { query_string: { query: "controller" } }, size: 30 };
    const before = ranked(await engine.search(body, {}));
    await engine.close();
    expect(ranked(await engine.search(body, {}))).toEqual(before);
    expect(before).toEqual(ranked(await inline.search(body, {})));
  });
});
