import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEARCH_LIMITS, SEARCH_MESSAGES } from "@contract/portfolio";
import { openDatabase, type Db } from "../../upstream/src/db";
import { SearchTooCostly } from "../../upstream/src/search/ir";
import { SqliteSearchEngine } from "../../upstream/src/search/sqlite";
import { watchEventLoop } from "../helpers/event-loop";
import { harness, message } from "./helpers";
import { seededPortfolioDir } from "./portfolio-fixture";

/**
 * No search may stall the server: a query past SEARCH_LIMITS is refused while it is parsed (a 400 naming the bound),
 * one within them runs its costly statements on the rank workers under a time budget, and a large page is read and
 * highlighted a part at a time. The stall checks allow the event loop a whole second (a loaded machine), where before
 * these queries held it from 1 to 50 seconds on this fixture.
 */
let fixture: ReturnType<typeof seededPortfolioDir>;
let db: Db;
let engine: SqliteSearchEngine;

beforeAll(() => {
  fixture = seededPortfolioDir("search-bounds-");
  db = openDatabase(fixture.dir);
  engine = new SqliteSearchEngine(db, { rankWorkers: 2 });
});

afterAll(async () => {
  await engine.close();
  db.close();
  fixture.remove();
});

const COMMON = ["system", "method", "processor", "configured", "plurality", "signal", "memory", "controller", "device", "module"];
const words = (n: number, list: readonly string[] = COMMON) => Array.from({ length: n }, (_, i) => list[i % list.length]).join(" ");
const tags = (n: number) => Array.from({ length: n }, (_, i) => `tag-${i}`);
/** Nested bools of `width` match clauses each, `count` of them in a must. */
const nested = (count: number, width: number) => ({
  bool: { must: Array.from({ length: count }, () => ({ bool: { should: Array.from({ length: width }, () => ({ range: { broadScore: { gte: 1 } } })) } })) },
});

/** Runs `body` on the engine, watching the event loop: the error it throws (or null) and the longest blockage. */
async function watched(body: unknown, on: SqliteSearchEngine = engine) {
  const { result, longest } = await watchEventLoop(() =>
    on.search(body, {}).then(
      () => null,
      (error: unknown) => error,
    ),
  );
  return { error: result, longest };
}

describe("a query past the bounds is refused before it runs", () => {
  const refused: [string, unknown, string, string][] = [
    ["query_string of 1,000 common words", { query: { query_string: { query: words(1000) } } }, SEARCH_MESSAGES.tooManyTerms(SEARCH_LIMITS.terms), "query.query_string.query"],
    [
      "query_string of 3,333 short words (10 KB)",
      { query: { query_string: { query: words(3333, ["of", "to", "in", "is", "on", "at", "by", "as", "be", "it"]) } } },
      SEARCH_MESSAGES.tooManyTerms(SEARCH_LIMITS.terms),
      "query.query_string.query",
    ],
    [
      "a bool of 1,000 should clauses",
      { query: { bool: { should: Array.from({ length: 1000 }, (_, i) => ({ match: { abstract: COMMON[i % COMMON.length] } })) } } },
      SEARCH_MESSAGES.tooManyTerms(SEARCH_LIMITS.terms),
      `query.bool.should[${SEARCH_LIMITS.terms}].match.abstract.query`,
    ],
    [
      "a bool of 20,000 match clauses",
      { query: { bool: { should: Array.from({ length: 20_000 }, (_, i) => ({ match: { abstract: `w${i}` } })) } } },
      SEARCH_MESSAGES.tooManyBoolClauses(SEARCH_LIMITS.boolClauses),
      "query.bool",
    ],
    ["more clauses in all than allowed", { query: nested(3, 400) }, SEARCH_MESSAGES.tooManyClauses(SEARCH_LIMITS.clauses), "query.bool.must[2].bool.should[220]"],
    [
      "more prefixes than allowed",
      { query: { query_string: { query: Array.from({ length: SEARCH_LIMITS.prefixes + 1 }, (_, i) => `${COMMON[i % COMMON.length]!.slice(0, 4)}*`).join(" ") } } },
      SEARCH_MESSAGES.tooManyPrefixes(SEARCH_LIMITS.prefixes),
      "query.query_string.query",
    ],
    ["a match of more words than allowed", { query: { match: { abstract: words(SEARCH_LIMITS.terms + 1, tags(200)) } } }, SEARCH_MESSAGES.tooManyTerms(SEARCH_LIMITS.terms), "query.match.abstract.query"],
  ];
  for (const [name, body, reason, path] of refused) {
    it(`${name}: a SearchTooCostly naming the bound and the clause, the event loop never held a second`, async () => {
      const { error, longest } = await watched(body);
      expect(error).toBeInstanceOf(SearchTooCostly);
      expect((error as Error).message).toBe(`${reason} at ${path}`);
      expect(longest).toBeLessThan(1000);
    }, 60_000);
  }

  it("over HTTP: a 400 with the reason, from POST /api/search/advanced and GET /api/search (300 typed words)", async () => {
    const h = await harness();
    const advanced = await h.call("POST", "/api/search/advanced", { token: h.adminToken, body: { query: { query_string: { query: words(1000) } } } });
    expect(advanced.status).toBe(400);
    expect(await message(advanced)).toBe(`${SEARCH_MESSAGES.tooManyTerms(SEARCH_LIMITS.terms)} at query.query_string.query`);
    const typed = await h.call("GET", `/api/search?${new URLSearchParams({ query: words(300, ["cell", "gate", "lens", "wire", "coil"]), portfolioId: "public" })}`, { token: h.adminToken });
    expect(typed.status).toBe(400);
    expect(await message(typed)).toMatch(new RegExp(`^${SEARCH_MESSAGES.tooManyTerms(SEARCH_LIMITS.terms).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    // The categorization's whole-match-set calls parse the same way.
    await expect(engine.countMatches({ query: { query_string: { query: words(1000) } } }, {})).rejects.toBeInstanceOf(SearchTooCostly);
  });
});

describe("a query within the bounds answers without holding the event loop", () => {
  const answered: [string, unknown][] = [
    ["as many words as allowed", { query: { query_string: { query: words(SEARCH_LIMITS.terms) } }, size: 250, highlight: { fields: { title: {}, abstract: {} } }, aggs: { tags: { terms: { field: "tags.name" } } } }],
    ["terms on 1,000 tags (no text)", { query: { terms: { "tags.name": tags(1000) } } }],
    ["a must of 1,000 ranges", { query: { bool: { must: Array.from({ length: 1000 }, (_, i) => ({ range: { broadScore: { gte: -i } } })) } } }],
    ["a word and a must_not of 1,000 tags", { query: { bool: { must: [{ match: { abstract: "system" } }], must_not: tags(1000).map((t) => ({ term: { "tags.name": t } })) } } }],
    ["1,000 ids in one should", { query: { bool: { should: Array.from({ length: 1000 }, (_, i) => ({ ids: { values: [`X-${i}`] } })) } } }],
  ];
  for (const [name, body] of answered) {
    it(`${name}: answers (no database error), the event loop never held a second`, async () => {
      const { error, longest } = await watched(body);
      expect(error).toBeNull();
      expect(longest).toBeLessThan(1000);
    }, 60_000);
  }

  it("a should of tags answers as the same tags one by one (gathered into one condition)", async () => {
    const few = (values: string[]) => ({ query: { bool: { should: values.map((t) => ({ term: { "tags.name": t } })), must_not: [{ match: { title: "zzzz" } }] } }, size: 50 });
    const gathered = await engine.search(few(["wireless", "battery", "no-such-tag"]), {});
    const one = async (t: string) => (await engine.search(few([t]), {})).total;
    expect(gathered.total).toBeGreaterThan(0);
    expect(gathered.total).toBeLessThanOrEqual((await one("wireless")) + (await one("battery")));
    expect(gathered.data.every((hit) => hit.tags.some((t) => t.name === "wireless" || t.name === "battery"))).toBe(true);
  });

  it("a page of 1,000 highlighted hits is read a part at a time: the event loop turns in between", async () => {
    const inline = new SqliteSearchEngine(db, { rankWorkers: 0 });
    const body = { query: { query_string: { query: "system OR method" } }, size: 1000, highlight: { fields: { "*": {} } } };
    const { result, ticks, longest } = await watchEventLoop(() => inline.search(body, {}));
    expect(result.data).toHaveLength(1000);
    expect(ticks).toBeGreaterThanOrEqual(2);
    expect(longest).toBeLessThan(1000);
    // The same hits and fragments as pages of 250 read one at a time.
    const parts = [];
    for (let from = 0; from < 1000; from += 250) parts.push(...(await inline.search({ ...body, size: 250, from }, {})).data);
    expect(result.data.map((h) => [h.id, h.highlight])).toEqual(parts.map((h) => [h.id, h.highlight]));
  }, 60_000);
});

describe("the time budget", () => {
  it("a statement past it is stopped on its worker: a SearchTooCostly saying so, never run again on this thread; the pool goes on", async () => {
    const tight = new SqliteSearchEngine(db, { rankWorkers: 2, statementMs: 1 });
    try {
      const large = { query: { query_string: { query: words(SEARCH_LIMITS.terms) } }, size: 250 };
      const { error, longest } = await watched(large, tight);
      expect(error).toBeInstanceOf(SearchTooCostly);
      expect((error as Error).message).toBe(SEARCH_MESSAGES.tooSlow(1));
      expect(longest).toBeLessThan(1000);
      // A query of a few words runs on this thread, as before; the large one again: a new worker, stopped again.
      expect((await tight.search({ query: { match: { abstract: "system" } } }, {})).total).toBeGreaterThan(0);
      await expect(tight.search(large, {})).rejects.toThrow(SEARCH_MESSAGES.tooSlow(1));
    } finally {
      await tight.close();
    }
    // Within the budget the large query answers as on one thread.
    const body = { query: { query_string: { query: words(SEARCH_LIMITS.terms) } }, size: 50 };
    const inline = new SqliteSearchEngine(db, { rankWorkers: 0 });
    expect((await engine.search(body, {})).data.map((h) => h.id)).toEqual((await inline.search(body, {})).data.map((h) => h.id));
  }, 60_000);
});
