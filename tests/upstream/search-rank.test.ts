import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseFile } from "../../upstream/src/db";
import { attachRank, RANK_ENTRY, RANK_EXTENSION_DEFAULT, prefixFlags } from "../../upstream/src/search/rank";
import { SqliteSearchEngine } from "../../upstream/src/search/sqlite";
import { rankedHits, seededPortfolioDir } from "./portfolio-fixture";

/**
 * bm25v (upstream/native/rank.c, search/rank.ts): bm25 with each word's document count kept between statements.
 * It must score a query of single words exactly as bm25 does, a phrase by the sum of its words' IDFs, keep a count
 * until the index has grown or shrunk by more than 1%, and be what the engine ranks with (on the workers too), except
 * for prefixes. CI builds the library (`.ci/run`); elsewhere these tests need `npm run build:native` to have found a C
 * compiler.
 */
// Where npm install / npm run build put it, unless SEARCH_RANK_EXTENSION names another.
const file = path.resolve(process.env.SEARCH_RANK_EXTENSION || RANK_EXTENSION_DEFAULT);
const library = fs.existsSync(file) ? file : null;

it("the ranking library is built where CI runs the tests", () => {
  if (process.env.CI) expect(library).not.toBeNull();
});

// Loads the library under its own entry point (as search/rank.ts does).
const load = (db: Database.Database, file: string) =>
  (db as unknown as { loadExtension(file: string, entry: string): void }).loadExtension(file, RANK_ENTRY);

describe.skipIf(!library)("bm25v on a small table", () => {
  let db: Database.Database;
  const W = "1.0, 0.0";
  // Column a is weighted 1, column b 0 (as the tag and portfolio token columns are).
  const scores = (fn: "bm25" | "bm25v", match: string) =>
    db
      .prepare(
        `select rowid as id, ${fn === "bm25" ? `bm25(t, ${W})` : `bm25v(t, 't', '', ${W})`} as s from t where t match ? order by rowid`,
      )
      .all(match) as { id: number; s: number }[];
  const add = (n: number, text: (i: number) => string) => {
    const insert = db.prepare("insert into t (a, b) values (?, 'token')");
    for (let i = 0; i < n; i++) insert.run(text(i));
  };

  beforeAll(() => {
    db = new Database(":memory:");
    load(db, library!);
    db.exec("create virtual table t using fts5(a, b)");
    db.exec("create virtual table temp.t_words using fts5vocab(main, t, row)");
    // 200 rows: "x" in 20 of them (twice in some), "y" in 50, the phrase "x y" in 10.
    add(200, (i) => [i < 20 ? "x" : "", i < 10 ? "y" : "", i % 4 === 0 ? "y filler" : "filler", i % 7 === 0 ? "x" : "", "words"].join(" "));
  });

  afterAll(() => db.close());

  it("a query of single words (AND, OR, NOT) gets bm25's very scores", () => {
    for (const match of ["x", "y", "x AND y", "x OR filler", "filler NOT y", "x AND b : token"]) {
      expect(scores("bm25v", match), match).toEqual(scores("bm25", match));
    }
  });

  it("a phrase scores the sum of its words' IDFs times bm25's frequency term", () => {
    const count = (match: string) => (db.prepare("select count(*) as n from t where t match ?").get(match) as { n: number }).n;
    const n = count("words");
    const idf = (docs: number) => Math.max(Math.log((n - docs + 0.5) / (docs + 0.5)), 1e-6);
    const ratio = (idf(count("x")) + idf(count("y"))) / idf(count('"x y"'));
    const ours = scores("bm25v", '"x y"');
    const theirs = scores("bm25", '"x y"');
    expect(ours.map((r) => r.id)).toEqual(theirs.map((r) => r.id));
    expect(ours.length).toBeGreaterThan(0);
    for (const [i, row] of ours.entries()) expect(row.s / theirs[i]!.s).toBeCloseTo(ratio, 9);
  });

  it("keeps a word's count until the table has grown by more than 1%, then counts again", () => {
    // Counted now (200 rows, "x" in 20 + 9 = 29... as the table says).
    expect(scores("bm25v", "x")).toEqual(scores("bm25", "x"));
    // One more row with "x": 0.5% more rows. bm25 counts it; bm25v keeps its count.
    add(1, () => "x");
    const n = 201;
    const docs = (db.prepare("select count(*) as n from t where t match 'x'").get() as { n: number }).n;
    const idf = (d: number) => Math.log((n - d + 0.5) / (d + 0.5));
    const kept = scores("bm25v", "x");
    const counted = scores("bm25", "x");
    for (const [i, row] of kept.entries()) expect(row.s / counted[i]!.s).toBeCloseTo(idf(docs - 1) / idf(docs), 9);
    // Three more rows: 1.5% more than when counted. Counted again: bm25's scores.
    add(3, () => "filler");
    expect(scores("bm25v", "x")).toEqual(scores("bm25", "x"));
  });

  it.skipIf(!fs.existsSync("/proc/self/fd"))("leaves no statement open: a connection that ranked closes", () => {
    // sqlite3_close refuses a connection with an unfinalized statement (better-sqlite3 then leaves it open).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rank-close-"));
    const file = path.join(dir, "t.sqlite");
    const other = new Database(file);
    load(other, library!);
    other.exec("create virtual table t using fts5(a, b); create virtual table temp.t_words using fts5vocab(main, t, row)");
    other.exec("insert into t (a, b) values ('x y', 'token'), ('x', 'token')");
    expect(other.prepare(`select bm25v(t, 't', '', ${W}) as s from t where t match 'x'`).all()).toHaveLength(2);
    other.close();
    const held = fs.readdirSync("/proc/self/fd").filter((fd) => {
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(file);
      } catch {
        return false;
      }
    });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(held).toEqual([]);
  });

  it("a prefix counts the documents of the words it covers: bm25's scores when no document holds two of them", () => {
    db.exec("create virtual table u using fts5(a, b); create virtual table temp.u_words using fts5vocab(main, u, row)");
    const insert = db.prepare("insert into u (a, b) values (?, 'token')");
    // 100 rows: "alpha" in 10, "alps" in 5 others (al*: 15 documents); "beta" in 30, "betamax" in 7 others (beta*: 37).
    for (let i = 0; i < 100; i++) {
      insert.run([i < 10 ? "alpha" : i < 15 ? "alps" : "", i >= 50 && i < 80 ? "beta" : i >= 80 && i < 87 ? "betamax" : "", "rest"].join(" "));
    }
    const ranked = (fn: string, match: string) =>
      db.prepare(`select rowid as id, ${fn} as s from u where u match ? order by rowid`).all(match) as { id: number; s: number }[];
    expect(ranked(`bm25v(u, 'u', '1', ${W})`, "al*")).toEqual(ranked(`bm25(u, ${W})`, "al*"));
    // The flags follow the phrases in the order written: "beta" a word (30 documents), "al" a prefix (15).
    expect(ranked(`bm25v(u, 'u', '01', ${W})`, "beta OR al*")).toEqual(ranked(`bm25(u, ${W})`, "beta OR al*"));
    // Read the other way round, "beta" would count as beta* (37 documents): other scores.
    expect(ranked(`bm25v(u, 'u', '11', ${W})`, "beta OR al*")).not.toEqual(ranked(`bm25(u, ${W})`, "beta OR al*"));
  });

  it("refuses a call without the table's name and the prefix flags", () => {
    expect(() => db.prepare("select bm25v(t) from t where t match 'x'").all()).toThrow(/prefix flags/);
    expect(() => db.prepare("select bm25v(t, 't') from t where t match 'x'").all()).toThrow(/prefix flags/);
  });
});

it("flags the phrases that end in a prefix, in the order written (quotes doubled inside a phrase)", () => {
  expect(prefixFlags('("sys"*) AND (portfolio_token : "p70")')).toBe("10");
  expect(prefixFlags('NEAR("a" "b"*, 3) NOT "c"')).toBe("010");
  expect(prefixFlags('"a ""b"" c"* OR "x"')).toBe("10");
  expect(prefixFlags('{title abstract} : ("lidar") AND "memory cell"')).toBe("");
});

describe.skipIf(!library)("the engine ranks with bm25v", () => {
  let fixture: ReturnType<typeof seededPortfolioDir>;
  let log: string[] = [];
  let db: Database.Database;
  let ranked: SqliteSearchEngine;
  let plain: SqliteSearchEngine;
  let pooled: SqliteSearchEngine;

  beforeAll(() => {
    fixture = seededPortfolioDir("search-rank-");
    db = new Database(databaseFile(fixture.dir), { verbose: (sql) => log.push(String(sql)) });
    ranked = new SqliteSearchEngine(db, { rankWorkers: 0 });
    plain = new SqliteSearchEngine(db, { rankWorkers: 0, rankExtension: null });
    pooled = new SqliteSearchEngine(db, { rankWorkers: 2, parallelFrom: 0 });
  });

  afterAll(async () => {
    await pooled.close();
    db.close();
    fixture.remove();
  });

  it("the same hits, order and scores as bm25 for words and prefixes; the prefixes flagged", async () => {
    expect(ranked.rankExtension).toBe(library);
    const facet = { aggs: { tags: { terms: { field: "tags.name" } } } };
    for (const query of ["system", "lidar OR wellbore", "system AND method", "controller NOT memory", "sys*"]) {
      const body = { query: { query_string: { query } }, size: 100, ...facet };
      log = [];
      const answer = await ranked.search(body, { portfolioId: "public" });
      const ranking = log.filter((sql) => /bm25v?\(/.test(sql));
      expect(ranking.length, query).toBeGreaterThan(0);
      // (the portfolio's token follows the text: "sys*" and it are flagged '10')
      const flags = query.endsWith("*") ? "'10'" : "''";
      expect(ranking.every((sql) => sql.includes(`bm25v(applications_fts, 'applications_fts', ${flags}`)), query).toBe(true);
      expect(rankedHits(answer), query).toEqual(rankedHits(await plain.search(body, { portfolioId: "public" })));
    }
    log = [];
    await plain.search({ query: { query_string: { query: "system" } } }, {});
    expect(log.some((sql) => sql.includes("bm25v("))).toBe(false);
  });

  it("the rank workers load it too: a broad query is ranked there with bm25v, with this thread's answer", async () => {
    const body = { query: { query_string: { query: "system OR method" } }, size: 60 };
    log = [];
    const answer = await pooled.search(body, {});
    // Nothing ranked on this thread: a worker that could not load the library would have failed back to it.
    expect(log.some((sql) => sql.includes("bm25v(") || sql.includes("bm25("))).toBe(false);
    expect(rankedHits(answer)).toEqual(rankedHits(await ranked.search(body, {})));
  });

  it("a library named that does not load is an error; the built one missing or broken leaves bm25, said why", () => {
    expect(() => new SqliteSearchEngine(db, { rankWorkers: 0, rankExtension: path.join(fixture.dir, "missing.so") })).toThrow(
      /ranking library .*missing\.so did not load/,
    );
    const other = new Database(":memory:");
    expect(attachRank(other, undefined, undefined, path.join(fixture.dir, "none.so"))).toEqual({
      file: null,
      problem: expect.stringMatching(/none\.so is not built \(npm run build:native; it needs a C compiler\)$/),
    });
    const broken = path.join(fixture.dir, "broken.so");
    fs.writeFileSync(broken, "not a library");
    expect(attachRank(other, undefined, undefined, broken)).toEqual({ file: null, problem: expect.stringMatching(/broken\.so did not load \(/) });
    other.close();
    expect(plain.rankProblem).toBeNull();
    expect(ranked.rankProblem).toBeNull();
  });
});
