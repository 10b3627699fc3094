import { describe, expect, it } from "vitest";
import type { SearchResponse } from "@contract/portfolio";
import { TEXT_COLUMNS, type TextColumn } from "../../upstream/src/search/ir";
import { textLeaf } from "../../upstream/src/search/query-string";
import { harness, message, type Harness } from "./helpers";

/**
 * POST /api/search/advanced: every clause of the documented DSL subset (docs/decisions/search-engine.md) on a small
 * known corpus, and a 400 naming the clause and its path for anything outside it.
 */

const CORPUS = [
  {
    id: "A1",
    title: "Wireless charging coil for phones",
    abstract: "A charging coil transfers power wirelessly to a battery.",
    claims: "1. A coil comprising copper windings.",
    tags: [
      { name: "wireless", score: 0.9 },
      { name: "battery", score: 0.5 },
    ],
    broadScore: 80,
    detectableScore: 10,
  },
  {
    id: "A2",
    title: "Battery thermal management",
    abstract: "Cooling plates keep the battery cells at a safe temperature.",
    tags: [{ name: "battery", score: 0.7 }],
    broadScore: 40,
    detectableScore: 60,
  },
  {
    id: "A3",
    title: "Hinge for folding displays",
    abstract: "A folding hinge supports a flexible display panel.",
    claims: "1. A hinge comprising a spring.",
    tags: [{ name: "hinge", score: 1 }],
    broadScore: 20,
    detectableScore: 90,
  },
  {
    id: "A4",
    title: "Antenna array for base stations",
    abstract: "A phased antenna array steers beams for wireless coverage.",
    tags: [
      { name: "wireless", score: 0.4 },
      { name: "telecom", score: 0.8 },
    ],
    broadScore: 60,
  },
  // Boost probes: "zeta" in B1's title only, in B2's abstract (three times) only.
  { id: "B1", title: "Zeta mount", abstract: "A bracket." },
  { id: "B2", title: "Bracket", abstract: "zeta zeta zeta" },
];

async function corpus(): Promise<Harness> {
  const h = await harness();
  for (const app of CORPUS) {
    const res = await h.call("POST", "/api/applications", { token: h.adminToken, body: app });
    expect(res.status, await res.clone().text()).toBe(201);
  }
  return h;
}

/**
 * Over HTTP (the engine's JSON text, written from the rows: `searchJson`), and checked against the in-process answer:
 * the same text, but for `took`.
 */
const search = async (h: Harness, body: unknown, query = "") => {
  const path = `/api/search/advanced${query}`;
  const res = await h.call("POST", path, { token: h.adminToken, body });
  const text = await res.text();
  const direct = await h.up.direct({ method: "POST", path, headers: { authorization: `Bearer ${h.adminToken}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(direct.status).toBe(res.status);
  const took = (t: string) => t.replace(/"took":\d+\}$/, '"took":0}');
  expect(took(text)).toBe(took(await direct.text()));
  return { status: res.status, body: JSON.parse(text) as SearchResponse & { message?: string } };
};
const ids = async (h: Harness, body: unknown) => {
  const r = await search(h, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.map((d) => d.id).sort();
};
const qs = (h: Harness, query: string, extra: Record<string, unknown> = {}) => ids(h, { query: { query_string: { query, ...extra } }, size: 100 });

describe("POST /api/search/advanced: the DSL subset", () => {
  it("query_string: terms, AND/OR/NOT, && || !, +/-, fields, phrases, proximity, prefix, grouping, default_operator", async () => {
    const h = await corpus();
    expect(await qs(h, "battery")).toEqual(["A1", "A2"]);
    expect(await qs(h, "battery AND coil")).toEqual(["A1"]);
    expect(await qs(h, "battery && coil")).toEqual(["A1"]);
    expect(await qs(h, "hinge OR antenna")).toEqual(["A3", "A4"]);
    expect(await qs(h, "hinge || antenna")).toEqual(["A3", "A4"]);
    expect(await qs(h, "battery NOT coil")).toEqual(["A2"]);
    expect(await qs(h, "battery AND !coil")).toEqual(["A2"]);
    expect(await qs(h, "+battery -thermal")).toEqual(["A1"]);
    expect(await qs(h, "title:battery")).toEqual(["A2"]);
    expect(await qs(h, "claims:spring")).toEqual(["A3"]);
    expect(await qs(h, '"charging coil"')).toEqual(["A1"]);
    expect(await qs(h, '"coil power"')).toEqual([]);
    expect(await qs(h, '"coil power"~3')).toEqual(["A1"]);
    expect(await qs(h, "therm*")).toEqual(["A2"]);
    expect(await qs(h, "(hinge OR antenna) AND wireless")).toEqual(["A4"]);
    expect(await qs(h, "battery coil", { default_operator: "AND" })).toEqual(["A1"]);
    expect(await qs(h, "battery coil")).toEqual(["A1", "A2"]);
    expect(await qs(h, "battery", { fields: ["title"] })).toEqual(["A2"]);
    expect(await qs(h, "broadScore:[50 TO 100]")).toEqual(["A1", "A4"]);
  });

  it("query_string boosts are column weights: they decide which field's match ranks first", async () => {
    const h = await corpus();
    const top = async (query: string) => (await search(h, { query: { query_string: { query } } })).body.data.map((d) => d.id);
    expect(await top("title:zeta^20 OR abstract:zeta")).toEqual(["B1", "B2"]);
    expect(await top("title:zeta OR abstract:zeta^20")).toEqual(["B2", "B1"]);
    const fieldBoost = await search(h, { query: { query_string: { query: "zeta", fields: ["title^20", "abstract"] } } });
    expect(fieldBoost.body.data.map((d) => d.id)).toEqual(["B1", "B2"]);
  });

  it("match (or/and, minimum_should_match), match_phrase (slop), multi_match (fields, types)", async () => {
    const h = await corpus();
    expect(await ids(h, { query: { match: { abstract: "battery coil" } } })).toEqual(["A1", "A2"]);
    expect(await ids(h, { query: { match: { abstract: { query: "battery coil", operator: "and" } } } })).toEqual(["A1"]);
    expect(await ids(h, { query: { match: { abstract: { query: "battery coil cooling", minimum_should_match: 2 } } } })).toEqual(["A1", "A2"]);
    expect(await ids(h, { query: { match: { abstract: { query: "battery coil cooling plates", minimum_should_match: "75%" } } } })).toEqual(["A2"]);
    expect(await ids(h, { query: { match_phrase: { abstract: "folding hinge" } } })).toEqual(["A3"]);
    expect(await ids(h, { query: { match_phrase: { abstract: "hinge folding" } } })).toEqual([]);
    expect(await ids(h, { query: { match_phrase: { abstract: { query: "coil power", slop: 2 } } } })).toEqual(["A1"]);
    expect(await ids(h, { query: { multi_match: { query: "hinge spring", fields: ["claims"] } } })).toEqual(["A1", "A3"].filter((id) => id === "A3"));
    expect(await ids(h, { query: { multi_match: { query: "battery", fields: ["title", "claims"] } } })).toEqual(["A2"]);
    expect(await ids(h, { query: { multi_match: { query: "battery", fields: ["title^3", "abstract"], type: "most_fields" } } })).toEqual(["A1", "A2"]);
    expect(await ids(h, { query: { multi_match: { query: "flexible display", type: "phrase", fields: ["abstract"] } } })).toEqual(["A3"]);
  });

  it("bool must/should/must_not/filter and minimum_should_match", async () => {
    const h = await corpus();
    const m = (text: string) => ({ match: { abstract: text } });
    expect(await ids(h, { query: { bool: { must: [m("battery")], must_not: [m("coil")] } } })).toEqual(["A2"]);
    expect(await ids(h, { query: { bool: { should: [m("hinge"), m("antenna")] } } })).toEqual(["A3", "A4"]);
    expect(await ids(h, { query: { bool: { filter: [{ term: { "tags.name": "wireless" } }] } } })).toEqual(["A1", "A4"]);
    expect(await ids(h, { query: { bool: { must: m("battery"), filter: { term: { "tags.name": "wireless" } } } } })).toEqual(["A1"]);
    // With a must, should only scores unless minimum_should_match asks for it.
    expect(await ids(h, { query: { bool: { must: [m("battery")], should: [m("coil")] } } })).toEqual(["A1", "A2"]);
    expect(await ids(h, { query: { bool: { must: [m("battery")], should: [m("coil")], minimum_should_match: 1 } } })).toEqual(["A1"]);
    expect(await ids(h, { query: { bool: { should: [m("battery"), m("coil"), m("cooling")], minimum_should_match: 2 } } })).toEqual(["A1", "A2"]);
    // A filter does not score: the same hits, scores from the must only.
    const scored = await search(h, { query: { bool: { must: [m("battery")], filter: [{ range: { broadScore: { gte: 0 } } }] } } });
    expect(scored.body.data.every((d) => typeof d.score === "number")).toBe(true);
  });

  it("term/terms on tags and ids, range on scores and dates, ids, match_all", async () => {
    const h = await corpus();
    expect(await ids(h, { query: { term: { "tags.name": "battery" } } })).toEqual(["A1", "A2"]);
    expect(await ids(h, { query: { term: { "tags.name": { value: "Battery" } } } })).toEqual([]);
    expect(await ids(h, { query: { terms: { "tags.name": ["hinge", "telecom"] } } })).toEqual(["A3", "A4"]);
    expect(await ids(h, { query: { term: { id: "A2" } } })).toEqual(["A2"]);
    expect(await ids(h, { query: { terms: { _id: ["A1", "A3", "nope"] } } })).toEqual(["A1", "A3"]);
    expect(await ids(h, { query: { ids: { values: ["A4", "B1"] } } })).toEqual(["A4", "B1"]);
    expect(await ids(h, { query: { range: { broadScore: { gt: 40, lte: 80 } } } })).toEqual(["A1", "A4"]);
    expect(await ids(h, { query: { range: { detectableScore: { lt: 60 } } } })).toEqual(["A1"]);
    expect(await ids(h, { query: { range: { createdAt: { gte: "2024-12-31" } } } })).toHaveLength(CORPUS.length);
    expect(await ids(h, { query: { range: { updatedAt: { lt: "2024-12-31T00:00:00Z" } } } })).toEqual([]);
    const all = await search(h, { query: { match_all: {} } });
    expect(all.body.total).toBe(CORPUS.length);
    expect(all.body.data).toHaveLength(10 < CORPUS.length ? 10 : CORPUS.length);
    expect(all.body.data[0]!.score).toBeNull();
  });

  it("text never matches the index's tag and portfolio tokens, filtered or not", async () => {
    const h = await corpus();
    const hex = (s: string) => Buffer.from(s, "utf8").toString("hex");
    // A1 and A2 carry the tag "battery" (token "t" + hex) and sit in the public portfolio ("p" + hex).
    for (const word of [`t${hex("battery")}`, `t${hex("bat")}*`, `p${hex("public")}`, "p70*", `"t${hex("wireless")} t${hex("battery")}"`]) {
      expect(await qs(h, word), word).toEqual([]);
      expect(await ids(h, { query: { match: { title: word.replace(/[*"]/g, "") } } }), word).toEqual([]);
      expect(await ids(h, { query: { multi_match: { query: word.replace(/[*"]/g, "") } } }), word).toEqual([]);
    }
    // Words that cannot be tokens go without the column filter (FTS5 applies it to every position of every match).
    expect(await qs(h, "battery")).toEqual(["A1", "A2"]);
    const leaf = (columns: readonly TextColumn[], tokens: string[], prefix = false, near: number | null = null) => textLeaf(columns, { tokens, prefix, near }).expr;
    expect(leaf(TEXT_COLUMNS, ["battery"], true)).toBe('"battery"*');
    expect(leaf(TEXT_COLUMNS, ["battery", "cells"], false, 3)).toBe('NEAR("battery" "cells", 3)');
    expect(leaf(TEXT_COLUMNS, ["battery", "t62"])).toBe(`{${TEXT_COLUMNS.join(" ")}} : "battery t62"`);
    expect(leaf(["title"], ["battery"])).toBe('{title} : "battery"');
  });

  it("highlight: fields, fragment_size, number_of_fragments, no_match_size, pre/post tags", async () => {
    const h = await corpus();
    const q = { match: { abstract: "battery" } };
    const plain = await search(h, { query: { ids: { values: ["A1"] } }, highlight: { fields: { abstract: {} } } });
    expect(plain.body.data[0]!.highlight).toEqual({});
    const em = await search(h, { query: q, highlight: { fields: { abstract: {}, title: {} } } });
    const a2 = em.body.data.find((d) => d.id === "A2")!;
    expect(a2.highlight.abstract![0]).toContain("<em>battery</em>");
    const tags = await search(h, { query: q, highlight: { pre_tags: ["<mark>"], post_tags: ["</mark>"], fields: ["abstract"] } });
    expect(tags.body.data[0]!.highlight.abstract![0]).toMatch(/<mark>battery<\/mark>/);
    const whole = await search(h, { query: q, highlight: { fields: { abstract: { number_of_fragments: 0 } } } });
    const wholeA2 = whole.body.data.find((d) => d.id === "A2")!.highlight.abstract!;
    expect(wholeA2).toEqual(["Cooling plates keep the <em>battery</em> cells at a safe temperature."]);
    const short = await search(h, { query: q, highlight: { fields: { abstract: { fragment_size: 20, number_of_fragments: 1 } } } });
    const frag = short.body.data.find((d) => d.id === "A2")!.highlight.abstract!;
    expect(frag).toHaveLength(1);
    expect(frag[0]!.replace(/<\/?em>/g, "").length).toBeLessThan(60);
    const noMatch = await search(h, { query: q, highlight: { fields: { title: { no_match_size: 8 } } } });
    expect(noMatch.body.data.find((d) => d.id === "A1")!.highlight.title).toEqual([expect.stringMatching(/^Wireless/)]);
    const none = await search(h, { query: q, highlight: { fields: { title: {} } } });
    expect(none.body.data.find((d) => d.id === "A1")!.highlight.title).toBeUndefined();
  });

  it("aggs terms on tags (counts over the matches, size), size/from, sort", async () => {
    const h = await corpus();
    const aggs = await search(h, { query: { match_all: {} }, size: 0, aggs: { t: { terms: { field: "tags.name", size: 2 } } } });
    expect(aggs.body.data).toEqual([]);
    expect(aggs.body.aggs.t!.buckets).toEqual([
      { key: "battery", doc_count: 2 },
      { key: "wireless", doc_count: 2 },
    ]);
    expect(aggs.body.aggs.t!.sum_other_doc_count).toBe(2);
    const narrowed = await search(h, { query: { match: { abstract: "battery" } }, aggs: { tags: { terms: { field: "tags.name" } } } });
    expect(narrowed.body.aggs.tags!.buckets).toEqual([
      { key: "battery", doc_count: 2 },
      { key: "wireless", doc_count: 1 },
    ]);
    const byScore = await search(h, { query: { range: { broadScore: { gte: 0 } } }, sort: [{ broadScore: "desc" }], size: 2, from: 1 });
    expect(byScore.body.data.map((d) => d.id)).toEqual(["A4", "A2"]);
    expect(byScore.body.total).toBe(4);
    const byId = await search(h, { sort: "id", size: 3 });
    expect(byId.body.data.map((d) => d.id)).toEqual(["A1", "A2", "A3"]);
    const asc = await search(h, { query: { range: { broadScore: { gte: 0 } } }, sort: { broadScore: { order: "asc" } } });
    expect(asc.body.data.map((d) => d.id)).toEqual(["A3", "A2", "A4", "A1"]);
    const relevance = await search(h, { query: { query_string: { query: "zeta" } }, sort: ["_score"] });
    const scores = relevance.body.data.map((d) => d.score!);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("track_total_hits: counts up to it (default 10,000), then answers 'gte'; true counts all", async () => {
    const h = await corpus();
    const zeta = { query: { multi_match: { query: "zeta bracket" } } };
    expect((await search(h, zeta)).body).toMatchObject({ total: 2, totalRelation: "eq" });
    expect((await search(h, { ...zeta, track_total_hits: 1 })).body).toMatchObject({ total: 1, totalRelation: "gte" });
    expect((await search(h, { ...zeta, track_total_hits: 2 })).body).toMatchObject({ total: 2, totalRelation: "eq" });
    expect((await search(h, { ...zeta, track_total_hits: true })).body).toMatchObject({ total: 2, totalRelation: "eq" });
    expect((await search(h, { ...zeta, track_total_hits: false })).body).toMatchObject({ total: 0, totalRelation: "gte" });
    // The hits are the same whatever is counted.
    expect((await search(h, { ...zeta, track_total_hits: 1 })).body.data).toHaveLength(2);
    // GET /api/search: trackTotalHits=true is the only value it takes.
    const get = async (q: string) => {
      const res = await h.call("GET", `/api/search?${q}`, { token: h.adminToken });
      return { status: res.status, body: (await res.json()) as SearchResponse };
    };
    expect((await get("query=battery&trackTotalHits=true")).body).toMatchObject({ total: 2, totalRelation: "eq" });
    expect((await get("query=battery&trackTotalHits=yes")).status).toBe(400);
  });

  it("answers 400 naming the clause and its path for anything outside the subset", async () => {
    const h = await corpus();
    const bad = async (body: unknown) => {
      const r = await search(h, body);
      expect(r.status).toBe(400);
      return r.body.message!;
    };
    expect(await bad({ query: { fuzzy: { title: "x" } } })).toBe('Unsupported query clause "fuzzy" at query.fuzzy');
    expect(await bad({ query: { bool: { must: [{ match_all: {} }, { wildcard: { title: "a*" } }] } } })).toBe(
      'Unsupported query clause "wildcard" at query.bool.must[1].wildcard',
    );
    expect(await bad({ query: { match: { title: { query: "a", fuzziness: 2 } } } })).toContain("query.match.title.fuzziness");
    expect(await bad({ query: { match_all: {} }, suggest: {} })).toContain('Unsupported search option "suggest"');
    expect(await bad({ aggs: { x: { avg: { field: "broadScore" } } } })).toContain("aggs.x.avg");
    expect(await bad({ query: { range: { title: { gte: "a" } } } })).toContain("query.range.title");
    expect(await bad({ query: { term: { title: "a" } } })).toContain("query.term.title");
    expect(await bad({ query: { query_string: { query: "title:batt~2" } } })).toContain("query.query_string.query");
    // A short prefix covers too many words to merge at each MATCH start (PREFIX_MIN_CHARS).
    for (const query of ["s*", "co*", "battery AND (th* OR coil)", "é*", "*"]) {
      expect(await bad({ query: { query_string: { query } } })).toMatch(/^A prefix needs at least 3 letters or digits before the \* \(".*\*"\) at query\.query_string\.query$/);
    }
    expect(await bad({ sort: [{ claims: "asc" }] })).toContain("sort[0].claims");
    expect(await bad({ highlight: { fields: { portfolioId: {} } } })).toContain("highlight.fields.portfolioId");
    expect(await bad({ size: 5000 })).toContain("size");
    for (const track of ["all", -1, 1.5]) expect(await bad({ track_total_hits: track })).toContain("track_total_hits");
    expect(await message(await h.call("POST", "/api/search/advanced", { token: h.adminToken, rawBody: "{", headers: { "content-type": "application/json" } }))).toMatch(/JSON/);
  });

  it("is scoped by portfolioId (404 for an unknown one) and needs portfolio.read", async () => {
    const h = await corpus();
    expect((await search(h, { query: { match_all: {} } }, "?portfolioId=public")).body.total).toBe(CORPUS.length);
    expect((await search(h, { query: { match_all: {} } }, "?portfolioId=nope")).status).toBe(404);
    expect((await h.call("POST", "/api/search/advanced", { body: {} })).status).toBe(401);
  });
});
