import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApplicationCreate } from "@contract/portfolio";
import { ApplicationsStore } from "../../upstream/src/applications/store";
import { openDatabase, type Db } from "../../upstream/src/db";
import type { SearchScope } from "../../upstream/src/search/engine";
import { SqliteSearchEngine } from "../../upstream/src/search/sqlite";
import { seededPortfolioDir } from "./portfolio-fixture";

/**
 * The HTTP API's answer is the engine's JSON text (`searchJson`: each hit written from its row as read, products and
 * tags as stored), the in-process answer its value (`search`). They must be the same text — JSON.stringify's of the
 * value — whatever the query, the scope and the stored strings (quotes, backslashes, control characters, non-ASCII,
 * a lone surrogate, null scores, no products).
 */
let fixture: ReturnType<typeof seededPortfolioDir>;
let db: Db;
let engine: SqliteSearchEngine;
let pooled: SqliteSearchEngine;

const ODD = [
  {
    id: "ODD-1",
    title: 'Quoted "zyphar" probe \\ with a backslash',
    abstract: "Tabs\tand\nnew lines, <b>markup</b> & ampersands around zyphar; a control \u0007 character.",
    aiSummary: "<p>Zyphar <em>summary</em></p>",
    products: [{ name: 'Zy "One"', company: "Ünïcode GmbH", summary: "Emoji 🚀 and \u2028 separators", score: 0.5 }],
    tags: [{ name: "odd", score: 0.25 }, { name: "ünï", score: 1 }],
    broadScore: 12.5,
  },
  { id: "ODD-2", title: "Zyphar with no products, no scores", abstract: "Lone \ud800 surrogate zyphar.", tags: [] },
  { id: "ODD-3", title: "Zyphäre non-ASCII title", abstract: "Ähnlich zyphar, 日本語のテキスト.", detectableScore: 0, tags: [{ name: "odd", score: 0 }] },
  // Texts that read like the marks the writer puts where the stored products and tags go (store.ts withStoredJson).
  { id: "ODD-4", title: 'Zyphar "products":"\u0000" and "tags":"\u0000"', abstract: "\u0000", products: [{ name: '"tags":"\\u0000"' }], tags: [{ name: "odd", score: 0 }] },
  { id: "ODD-5", title: "\u0000", abstract: 'zyphar ,"products":"\\u0000","tags":"\\u0000"}', tags: [] },
];

beforeAll(() => {
  fixture = seededPortfolioDir("search-json-", 1500);
  db = openDatabase(fixture.dir);
  const store = new ApplicationsStore(db, () => Date.UTC(2026, 0, 2));
  // Past the API's own checks (which refuse control characters and lone surrogates): the writer must not rely on them.
  for (const app of ODD) store.create({ ...ApplicationCreate.parse({ ...app, title: "", abstract: "" }), title: app.title, abstract: app.abstract }, null);
  engine = new SqliteSearchEngine(db, { rankWorkers: 0 });
  pooled = new SqliteSearchEngine(db, { rankWorkers: 2, facetSample: 200, facetFirst: 50 });
});

afterAll(async () => {
  await pooled?.close();
  db?.close();
  fixture?.remove();
});

const highlight = {
  fields: { title: { number_of_fragments: 0 }, abstract: { fragment_size: 60, number_of_fragments: 2 }, aiSummary: { no_match_size: 40 }, products: {} },
};
const aggs = { tags: { terms: { field: "tags.name", size: 5 } } };
const BODIES: Record<string, unknown> = {
  "odd strings, highlighted": { query: { query_string: { query: "zyphar OR zyphäre" } }, size: 10, highlight, aggs },
  "few words, every match on the page": { query: { query_string: { query: "lidar OR wellbore" } }, size: 250, highlight, aggs },
  "broad, a partial facet": { query: { query_string: { query: "system" } }, size: 40, from: 5, highlight, aggs },
  "a prefix": { query: { query_string: { query: "sens*" } }, size: 20, highlight, aggs },
  "match_all by a field": { query: { match_all: {} }, size: 15, sort: [{ broadScore: "desc" }], aggs },
  "a tag only (maintained counts)": { query: { bool: { filter: [{ term: { "tags.name": "odd" } }] } }, size: 5, aggs },
  _source: { query: { query_string: { query: "zyphar" } }, _source: ["id", "title", "tags"], highlight, size: 5 },
  "nothing matches": { query: { query_string: { query: "qqqqnotaword" } }, size: 10, highlight, aggs },
  "no hits asked": { query: { query_string: { query: "system" } }, size: 0, aggs, track_total_hits: true },
};
const SCOPES: Record<string, SearchScope> = {
  "every field, every portfolio": {},
  "a list, the public portfolio": { portfolioId: "public", hitFields: "list", maxSize: 500 },
};

const withoutTook = (text: string) => text.replace(/"took":\d+\}$/, '"took":0}');

describe("searchJson writes what JSON.stringify writes of search's answer", () => {
  for (const [scopeName, scope] of Object.entries(SCOPES)) {
    for (const [name, body] of Object.entries(BODIES)) {
      it(`${name} (${scopeName})`, async () => {
        for (const e of [engine, pooled]) {
          const value = await e.search(body, scope);
          const text = await e.searchJson(body, scope);
          expect(withoutTook(text)).toBe(withoutTook(JSON.stringify(value)));
        }
      });
    }
  }

  it("covers hits from the stored odd strings, with and without products and scores", async () => {
    const text = await engine.searchJson(BODIES["odd strings, highlighted"], {});
    const parsed = JSON.parse(text) as { data: { id: string; products: unknown[]; broadScore: number | null; abstract: string }[] };
    expect(parsed.data.map((h) => h.id).sort()).toEqual(["ODD-1", "ODD-2", "ODD-3", "ODD-4", "ODD-5"]);
    const one = parsed.data.find((h) => h.id === "ODD-1")!;
    expect(one.products).toHaveLength(1);
    expect(one.broadScore).toBe(12.5);
    // SQLite keeps a lone surrogate as U+FFFD (its text is UTF-8).
    expect(parsed.data.find((h) => h.id === "ODD-2")!.abstract).toContain("\ufffd");
    // Texts like the writer's marks come out as stored; the stored products and tags where the marks were.
    const four = parsed.data.find((h) => h.id === "ODD-4")!;
    expect(four).toMatchObject({ title: 'Zyphar "products":"\u0000" and "tags":"\u0000"', abstract: "\u0000", products: [{ name: '"tags":"\\u0000"' }], tags: [{ name: "odd", score: 0 }] });
    expect(parsed.data.find((h) => h.id === "ODD-5")).toMatchObject({ title: "\u0000", products: [], tags: [] });
  });
});
