import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApplicationsStore, normalizeProduct } from "../../upstream/src/applications/store";
import { databaseFile, openDatabase } from "../../upstream/src/db";
import { SqliteSearchEngine } from "../../upstream/src/search/sqlite";

/**
 * Highlights marked in JavaScript (search/marks.ts) against FTS5's own `highlight()`, answer for answer: random texts
 * of words that are prefixes of each other, repeated, in every case, between every kind of ASCII separator (and HTML
 * in the AI summary), some with non-ASCII words FTS5 folds (those hits FTS5 marks); random queries of words, phrases,
 * prefixes, fields, AND/OR/NOT, match and multi_match, and proximities (left to FTS5).
 */
const WORDS = ["a", "ab", "abc", "b", "ba", "x1", "1x", "10", "sensor", "sensors", "battery", "pack", "co2", "brien", "ab1"];
const CASED = (w: string, r: () => number) => (r() < 0.15 ? w.toUpperCase() : r() < 0.15 ? w[0]!.toUpperCase() + w.slice(1) : w);
const SEPARATORS = [" ", " ", " ", "  ", "-", "_", ".", ", ", "\n", "\t", "/", "(", ")", '"', "'", "&", "<", ">", " + ", "~", "|"];
const FOREIGN = ["café", "naïve", "sensör", "µm", "ﬁlm", "İstanbul", "straße", "Ångström", "ab\u0301c"];

/** mulberry32: the same texts and queries on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(r: () => number, xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;

function text(r: () => number, words: number, foreign: boolean): string {
  let out = r() < 0.3 ? pick(r, SEPARATORS) : "";
  for (let i = 0; i < words; i++) {
    out += foreign && r() < 0.1 ? pick(r, FOREIGN) : CASED(pick(r, WORDS), r);
    if (i < words - 1 || r() < 0.3) out += pick(r, SEPARATORS);
  }
  return out;
}

function query(r: () => number): unknown {
  const word = () => pick(r, WORDS);
  const term = (): string => {
    const k = r();
    if (k < 0.45) return word();
    if (k < 0.65) return `"${word()} ${word()}${r() < 0.3 ? ` ${word()}` : ""}"`;
    if (k < 0.75) return `${pick(r, ["abc", "sen", "bat", "co2", "ab1"])}*`;
    if (k < 0.8) return `"${word()} ${word()}"~${Math.floor(r() * 4)}`;
    return `${pick(r, ["title", "abstract", "aiSummary", "claims", "products"])}:${r() < 0.7 ? word() : `"${word()} ${word()}"`}`;
  };
  const k = r();
  if (k < 0.7) {
    const n = 1 + Math.floor(r() * 3);
    let q = term();
    for (let i = 1; i < n; i++) q += ` ${pick(r, ["OR", "OR", "AND", "NOT"])} ${term()}`;
    return { query_string: { query: q } };
  }
  if (k < 0.8) return { match: { [pick(r, ["title", "abstract", "aiSummary"])]: { query: `${word()} ${word()}`, operator: pick(r, ["or", "and"]) } } };
  if (k < 0.9) return { multi_match: { query: `${word()} ${word()}`, fields: ["title", "aiSummary"] } };
  return { match_phrase: { abstract: `${word()} ${word()}` } };
}

const HIGHLIGHT = {
  fields: {
    title: { number_of_fragments: 0 },
    abstract: { fragment_size: 40, number_of_fragments: 3, pre_tags: ["<b>"], post_tags: ["</b>"] },
    aiSummary: { fragment_size: 30, number_of_fragments: 1, no_match_size: 20 },
    claims: { fragment_size: 50, number_of_fragments: 2 },
    products: { number_of_fragments: 0 },
  },
};

let dir: string;
let db: Database.Database;
let log: string[] = [];
let inJs: SqliteSearchEngine;
let byFts: SqliteSearchEngine;
const foreignIds = new Set<string>();

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-marks-"));
  const setup = openDatabase(dir);
  const store = new ApplicationsStore(setup, () => Date.UTC(2026, 0, 1));
  const r = random(11);
  const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
  setup.transaction(() => {
    for (let i = 0; i < 400; i++) {
      const foreign = i % 5 === 0;
      const id = `M${i}`;
      const fields = {
        title: text(r, 2 + Math.floor(r() * 5), foreign),
        abstract: text(r, 10 + Math.floor(r() * 60), foreign),
        claims: text(r, 5 + Math.floor(r() * 30), foreign),
        summary: `<p>${text(r, 3 + Math.floor(r() * 10), foreign)}</p><p><b>${text(r, 1 + Math.floor(r() * 4), false)}</b> ${text(r, 3, false)}</p>`,
      };
      if (foreign && /[\u0080-\uffff]/.test(Object.values(fields).join(""))) foreignIds.add(id);
      store.insert(
        {
          id,
          source: { id: "" },
          title: fields.title,
          abstract: fields.abstract,
          claims: fields.claims,
          specification: "",
          aiSummary: fields.summary,
          // (the products' text is not read with the hits: marking it reads it)
          products: i % 3 ? [] : [normalizeProduct({ name: text(r, 2, foreign), summary: text(r, 6, false) })],
          broadScore: null,
          detectableScore: null,
          tags: [],
          portfolioId: "public",
        },
        { createdAt: at, updatedAt: at, createdBy: null, updatedBy: null },
      );
    }
  })();
  setup.close();
  // Every statement this connection runs is logged: whether FTS5 marked a page shows in its SQL.
  db = new Database(databaseFile(dir), { verbose: (sql) => log.push(String(sql)) });
  inJs = new SqliteSearchEngine(db, { rankWorkers: 0 });
  byFts = new SqliteSearchEngine(db, { rankWorkers: 0, highlightInJs: false });
});

afterAll(() => {
  db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const without = (answer: { took?: number }) => ({ ...answer, took: 0 });

describe("highlights marked in JavaScript", () => {
  it("mark what FTS5's highlight() marks, for 400 random queries over ASCII and non-ASCII texts", async () => {
    expect(foreignIds.size).toBeGreaterThan(40);
    const r = random(7);
    let marked = 0;
    let inJsOnly = 0;
    let withFts = 0;
    for (let i = 0; i < 400; i++) {
      const body = { query: query(r), size: 60, highlight: HIGHLIGHT };
      const expected = await byFts.search(body, {});
      log = [];
      const answer = await inJs.search(body, {});
      expect(without(answer), JSON.stringify(body)).toEqual(without(expected));
      marked += answer.data.filter((h) => Object.values(h.highlight ?? {}).some((f) => f.some((x: string) => x.includes("<em>") || x.includes("<b>")))).length;
      // FTS5 marked the page only for a proximity, or for the hits with non-ASCII text.
      const ftsMarked = log.some((sql) => sql.includes("highlight("));
      const near = JSON.stringify(body).includes("~");
      const foreignHit = answer.data.some((h) => foreignIds.has(h.id));
      if (!answer.data.length) expect(ftsMarked).toBe(false);
      else if (near) expect(ftsMarked, JSON.stringify(body)).toBe(true);
      else expect(ftsMarked, JSON.stringify(body)).toBe(foreignHit);
      if (answer.data.length && !ftsMarked) inJsOnly++;
      if (ftsMarked) withFts++;
    }
    // The comparison had marks to compare, and both ways were taken.
    expect(marked).toBeGreaterThan(2000);
    expect(inJsOnly).toBeGreaterThan(20);
    expect(withFts).toBeGreaterThan(50);
  });

  it("overlapping phrase instances merge as FTS5 merges them; a prefix marks its whole token", async () => {
    const bodies = [
      { query: { query_string: { query: '"a a" OR "a ab"' } }, size: 100, highlight: HIGHLIGHT },
      { query: { query_string: { query: '"sensor sensors" OR sensors OR "sensors battery"' } }, size: 100, highlight: HIGHLIGHT },
      { query: { query_string: { query: "sens* OR abc*" } }, size: 100, highlight: HIGHLIGHT },
    ];
    for (const body of bodies) {
      const expected = await byFts.search(body, {});
      expect(expected.data.length).toBeGreaterThan(0);
      expect(without(await inJs.search(body, {}))).toEqual(without(expected));
    }
  });
});
