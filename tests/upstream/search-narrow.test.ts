import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseFile } from "../../upstream/src/db";
import { SqliteSearchEngine } from "../../upstream/src/search/sqlite";
import { seededPortfolioDir } from "./portfolio-fixture";

/**
 * Three shortcuts of the embedded engine (upstream/src/search/sqlite.ts) that must not change an answer:
 * - a query whose text matches few documents tests its tag and portfolio filters on the joined rows instead of
 *   ANDing their index tokens into the MATCH (`narrowFrom`): bm25 would otherwise count every document of those
 *   tokens; and when the text matches many but the text and the tags' tokens few, only the portfolio is tested on
 *   the rows;
 * - highlights marked in one pass over the matches between the page's first and last rowid instead of one MATCH per
 *   hit (`highlightScanFactor`);
 * - otherwise, highlights marked on a copy of the page's text in a small FTS5 table instead of one MATCH per hit
 *   (`highlightCopy`);
 * - before any of those, highlights found in JavaScript in the page's text (`highlightInJs`; search/marks.ts, and
 *   search-marks.test.ts for random texts).
 * Each is compared with the engine that never takes it, on the same database, answer for answer.
 */
let fixture: ReturnType<typeof seededPortfolioDir>;
let log: string[] = [];
let db: Database.Database;
let tokens: SqliteSearchEngine;
let narrowed: SqliteSearchEngine;
let perHit: SqliteSearchEngine;
let copied: SqliteSearchEngine;
let onePassFts: SqliteSearchEngine;
let offThread: SqliteSearchEngine;

beforeAll(() => {
  fixture = seededPortfolioDir("search-narrow-");
  // Every statement this connection runs is logged: which plan a search took is visible in its SQL.
  db = new Database(databaseFile(fixture.dir), { verbose: (sql) => log.push(String(sql)) });
  tokens = new SqliteSearchEngine(db, { rankWorkers: 0, narrowFrom: 0 });
  // 3,000 applications: "system" is in most of them, the two words in a few hundred.
  narrowed = new SqliteSearchEngine(db, { rankWorkers: 0, narrowFrom: 1000 });
  perHit = new SqliteSearchEngine(db, { rankWorkers: 0, highlightScanFactor: 0, highlightCopy: false, highlightInJs: false });
  copied = new SqliteSearchEngine(db, { rankWorkers: 0, highlightScanFactor: 0, highlightInJs: false });
  onePassFts = new SqliteSearchEngine(db, { rankWorkers: 0, narrowFrom: 1000, highlightInJs: false });
  offThread = new SqliteSearchEngine(db, { rankWorkers: 2, facetSample: 500, facetFirst: 100 });
});

afterAll(async () => {
  await offThread?.close();
  db.close();
  fixture.remove();
});

const FEW = "lidar OR wellbore";
const highlight = { fields: { title: {}, abstract: { fragment_size: 80, number_of_fragments: 2 } } };
const bodies: Record<string, unknown> = {
  "few words": { query: { query_string: { query: FEW } }, size: 250, highlight, aggs: { tags: { terms: { field: "tags.name", size: 10 } } } },
  "few words and a tag": {
    query: { bool: { must: [{ query_string: { query: FEW } }], filter: [{ term: { "tags.name": "adas" } }] } },
    size: 100,
    highlight,
    aggs: { tags: { terms: { field: "tags.name", size: 5 } } },
  },
  "few words, two tags, one excluded": {
    query: {
      bool: {
        must: [{ query_string: { query: FEW } }],
        filter: [{ terms: { "tags.name": ["adas", "oil-gas", "automotive"] } }],
        must_not: [{ term: { "tags.name": "priority" } }],
      },
    },
    size: 50,
    highlight,
  },
  "a phrase, second page": { query: { match_phrase: { abstract: "battery pack" } }, size: 20, from: 20, highlight },
  "sorted by a field": { query: { query_string: { query: FEW } }, size: 20, sort: [{ broadScore: "desc" }], highlight },
  "a word in most applications (tokens kept)": { query: { match: { abstract: "system" } }, size: 30, highlight },
  "a word in most applications and a tag (its token in the MATCH)": {
    query: { bool: { must: [{ match: { abstract: "system" } }], filter: [{ term: { "tags.name": "wireless" } }] } },
    size: 30,
    highlight,
    aggs: { tags: { terms: { field: "tags.name", size: 5 } } },
  },
  "a word in most applications, a tag and a range (its token in the MATCH)": {
    query: {
      bool: {
        must: [{ match: { abstract: "system" } }],
        filter: [{ term: { "tags.name": "telecom" } }, { range: { broadScore: { gte: 30 } } }],
        must_not: [{ term: { "tags.name": "priority" } }],
      },
    },
    size: 20,
    highlight,
    aggs: { tags: { terms: { field: "tags.name", size: 5 } } },
  },
};

/** Edges of the one statement that ranks few matches (no highlight: the pass above has nothing to mark). */
const edges: Record<string, unknown> = {
  "few words, the facet alone": { query: { query_string: { query: FEW } }, size: 0, aggs: { tags: { terms: { field: "tags.name", size: 3 } } } },
  "few words, a page past the last hit": { query: { query_string: { query: FEW } }, size: 50, from: 9_000 },
  "few words, the total capped": { query: { query_string: { query: FEW } }, size: 5, track_total_hits: 10 },
  // The facet of the page's rows and of the matches before and after it.
  "few words, a middle page and the facet": { query: { query_string: { query: FEW } }, size: 40, from: 30, aggs: { tags: { terms: { field: "tags.name", size: 50 } } } },
};

const without = (answer: { took?: number }) => ({ ...answer, took: 0 });

/** Every kind of highlighted leaf, over one or more columns, with the options a highlight takes. */
const every = {
  fields: {
    title: { number_of_fragments: 0 },
    abstract: { fragment_size: 60, number_of_fragments: 3, pre_tags: ["<b>"], post_tags: ["</b>"] },
    aiSummary: { fragment_size: 80, number_of_fragments: 1, no_match_size: 40 },
    claims: { fragment_size: 50, number_of_fragments: 1 },
  },
};
const leaves: Record<string, unknown> = {
  "a prefix in most applications": { query: { query_string: { query: "sys*" } }, size: 250, highlight: every },
  "a proximity and a word": { query: { query_string: { query: '"battery pack"~3 OR lidar' } }, size: 100, highlight: every },
  "a phrase in one field, a word in two": {
    query: { bool: { should: [{ match_phrase: { abstract: "battery pack" } }, { multi_match: { query: "system", fields: ["title", "claims"] } }] } },
    size: 200,
    highlight: every,
  },
  "AND and NOT: the highlight marks either word": { query: { query_string: { query: "system AND lidar NOT wellbore" } }, size: 100, highlight: every },
  "a tag filter, second page": {
    query: { bool: { must: [{ query_string: { query: "method OR catheter*" } }], filter: [{ term: { "tags.name": "wireless" } }] } },
    size: 50,
    from: 50,
    highlight: every,
  },
};

describe("the engine's shortcuts give the same answers", () => {
  for (const [name, body] of Object.entries({ ...bodies, ...edges })) {
    it(`${name}: filters on the rows, as with the tokens`, async () => {
      const expected = await tokens.search(body, { portfolioId: "public" });
      log = [];
      const answer = await narrowed.search(body, { portfolioId: "public" });
      expect(without(answer)).toEqual(without(expected));
      // The shortcut was taken (or, for the broad word, not): no portfolio token in the ranking query.
      const ranking = log.filter((sql) => /bm25v?\(/.test(sql) || sql.includes("order by"));
      expect(ranking.length).toBeGreaterThan(0);
      // (the log cuts long literals, the MATCH among them: the narrowed plan shows in its SQL condition)
      const onRows = ranking.some((sql) => sql.includes("a.portfolio_id = 'public'"));
      const tagged = name.includes("its token in the MATCH");
      expect(onRows).toBe(!name.includes("tokens kept") && !tagged);
      // Few matches by relevance: one statement scores them all, with no count and no facet of their own.
      const joined = log.filter((sql) => sql.includes("join applications a"));
      if (name.includes("sorted")) expect(joined.length, name).toBeGreaterThan(1);
      else if (tagged) {
        // The text and the tag's token walked once, scored; the portfolio tested on those rows alone.
        expect(joined, name).toEqual([]);
        expect(ranking.filter((sql) => /bm25v?\(/.test(sql)), name).toHaveLength(1);
        expect(log.filter((sql) => sql.includes("from applications a where a.seq in (select value from json_each(") && sql.includes("a.portfolio_id = 'public'"))).toHaveLength(1);
      } else if (!name.includes("tokens kept")) expect(joined, name).toHaveLength(1);
      // A page that holds every match counts the tags its hits are read with; another page has a statement for it.
      const facetStatement = log.some((sql) => sql.includes("from application_tags where app_seq in"));
      if ((body as { aggs?: unknown }).aggs && !name.includes("tokens kept") && !name.includes("sorted")) {
        expect(facetStatement, name).toBe(answer.data.length < answer.total);
      }
    });
  }

  for (const [name, body] of Object.entries(bodies)) {

    it(`${name}: highlights in one pass, as one per hit`, async () => {
      const expected = await perHit.search(body, { portfolioId: "public" });
      log = [];
      const answer = await onePassFts.search(body, { portfolioId: "public" });
      expect(without(answer)).toEqual(without(expected));
      const onePass = log.some((sql) => sql.includes("highlight(") && sql.includes("+rowid in"));
      // (a word in most applications has too many matches between the page's first and last rowid)
      expect(onePass).toBe(!name.includes("in most applications"));
    });
  }

  for (const [name, body] of Object.entries({ ...bodies, ...leaves })) {
    it(`${name}: highlights on the page's copy, as one per hit`, async () => {
      const expected = await perHit.search(body, { portfolioId: "public" });
      log = [];
      const answer = await copied.search(body, { portfolioId: "public" });
      expect(without(answer)).toEqual(without(expected));
      expect(log.some((sql) => sql.includes("from temp.page_text where page_text match"))).toBe(true);
    });
  }

  for (const [name, body] of Object.entries({ ...bodies, ...leaves })) {
    it(`${name}: highlights found in JavaScript, as FTS5 marks them`, async () => {
      const expected = await perHit.search(body, { portfolioId: "public" });
      log = [];
      const answer = await narrowed.search(body, { portfolioId: "public" });
      expect(without(answer)).toEqual(without(expected));
      // The demo's texts are ASCII: FTS5 marks nothing, but for a proximity (its NEAR keeps some instances only).
      expect(log.some((sql) => sql.includes("highlight(")), name).toBe(name.includes("proximity"));
    });
  }

  it("a query with a prefix starts no MATCH on the index from this thread: the workers run them, same answers", async () => {
    const one = new SqliteSearchEngine(db, { rankWorkers: 0, facetSample: 500, facetFirst: 100 });
    const facet = { aggs: { tags: { terms: { field: "tags.name", size: 20 } } } };
    const cases: Record<string, unknown> = {
      "a broad prefix": { query: { query_string: { query: "sys*" } }, size: 50, highlight: every, ...facet },
      "a prefix and a tag: few matches": {
        query: { bool: { must: [{ query_string: { query: "lida* OR wellbo*" } }], filter: [{ term: { "tags.name": "adas" } }] } },
        size: 20,
        highlight: every,
        ...facet,
      },
      "a prefix in a nested clause, sorted by a field": {
        query: { bool: { must: [{ range: { broadScore: { gte: 10 } } }], must_not: [{ query_string: { query: "catheter*" } }] } },
        size: 30,
        sort: [{ broadScore: "desc" }],
        ...facet,
      },
      "every match counted": { query: { query_string: { query: "meth*" } }, size: 10, track_total_hits: true, ...facet },
    };
    const onIndex = () => log.filter((sql) => sql.includes("applications_fts match"));
    for (const [name, body] of Object.entries(cases)) {
      const expected = await one.search(body, { portfolioId: "public" });
      log = [];
      const answer = await offThread.search(body, { portfolioId: "public" });
      expect(without(answer), name).toEqual(without(expected));
      expect(answer.data.length, name).toBeGreaterThan(0);
      expect(onIndex(), name).toEqual([]);
    }
    // The categorization's whole match sets too.
    const body = { query: { query_string: { query: "lida* OR sys*" } } };
    const scan = async (e: SqliteSearchEngine) => {
      const out: { id: string; score: number | null }[] = [];
      for await (const batch of e.scanMatches(body, { portfolioId: "public" }, 400)) out.push(...batch);
      return out;
    };
    const expectedScan = await scan(one);
    const expectedCount = await one.countMatches(body, { portfolioId: "public" });
    const ids = expectedScan.slice(0, 30).map((m) => m.id);
    const expectedAmong = await one.matchAmong(body, { portfolioId: "public" }, ids);
    log = [];
    expect(await scan(offThread)).toEqual(expectedScan);
    expect(await offThread.countMatches(body, { portfolioId: "public" })).toBe(expectedCount);
    expect(await offThread.matchAmong(body, { portfolioId: "public" }, ids)).toEqual(expectedAmong);
    expect(expectedScan.length).toBe(expectedCount);
    expect(expectedAmong.size).toBe(30);
    expect(onIndex()).toEqual([]);
    // Without a prefix this thread does start them (the check above can see them).
    log = [];
    await offThread.search({ query: { query_string: { query: "lidar" } }, size: 10, ...facet }, { portfolioId: "public" });
    expect(onIndex().length).toBeGreaterThan(0);
  });

  it("a tag's token in the MATCH with more matches than narrowFrom: the tokens kept, the same answers", async () => {
    const small = new SqliteSearchEngine(db, { rankWorkers: 0, narrowFrom: 100 });
    const body = {
      query: { bool: { must: [{ match: { abstract: "system" } }], filter: [{ term: { "tags.name": "priority" } }] } },
      size: 40,
      highlight,
      aggs: { tags: { terms: { field: "tags.name", size: 5 } } },
    };
    const expected = await tokens.search(body, { portfolioId: "public" });
    log = [];
    const answer = await small.search(body, { portfolioId: "public" });
    expect(without(answer)).toEqual(without(expected));
    expect(answer.total).toBeGreaterThan(100);
    // Walked with the tag's token up to one past 100, then ranked with every token in the MATCH.
    expect(log.some((sql) => /bm25v?\(/.test(sql) && sql.includes("order by"))).toBe(true);
    expect(log.some((sql) => sql.includes("a.portfolio_id = 'public'"))).toBe(false);
  });

  it("the page's copy is emptied after each search", async () => {
    await copied.search(leaves["a prefix in most applications"], { portfolioId: "public" });
    expect(db.prepare("select count(*) as n from temp.page_text").get()).toEqual({ n: 0 });
  });

  it("the highlight cases mark words in every field they ask for", async () => {
    for (const [name, body] of Object.entries(leaves)) {
      const answer = await copied.search(body, { portfolioId: "public" });
      expect(answer.data.length, name).toBeGreaterThan(0);
      for (const field of ["title", "abstract", "claims"]) {
        expect(answer.data.some((h) => JSON.stringify(h.highlight[field as keyof typeof h.highlight] ?? []).includes(field === "abstract" ? "<b>" : "<em>")), `${name}: ${field}`).toBe(true);
      }
    }
  });

  it("the cases have hits, highlights and tag buckets to compare", async () => {
    const answer = await narrowed.search(bodies["few words"], { portfolioId: "public" });
    expect(answer.data.length).toBeGreaterThan(3);
    expect(answer.data.filter((h) => Object.keys(h.highlight).length > 0).length).toBeGreaterThan(3);
    expect(answer.aggs.tags!.buckets.length).toBeGreaterThan(0);
    const tagged = await narrowed.search(bodies["few words and a tag"], { portfolioId: "public" });
    expect(tagged.total).toBeGreaterThan(0);
    expect(tagged.total).toBeLessThan(answer.total);
    for (const name of Object.keys(bodies)) expect((await narrowed.search(bodies[name], { portfolioId: "public" })).data.length, name).toBeGreaterThan(0);
  });
});
