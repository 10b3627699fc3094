/**
 * bm25v, the search's ranking function (upstream/native/rank.c, compiled by scripts/build-native.mjs): FTS5's bm25
 * with each word's document count kept between statements instead of counted in every one. At a million
 * applications bm25 spends ~70–140 ms of each statement (each rank worker's range too) counting the documents of a
 * broad query's phrases and of the portfolio's token; bm25v looks them up (docs/decisions/search-engine.md). It
 * is told which phrases end in a prefix (`prefixFlags`).
 *
 * Without the compiled library the engine ranks with FTS5's bm25, and the upstream says so at start.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { Database } from "better-sqlite3";

/** Where `npm install` and `npm run build` put the library; SEARCH_RANK_EXTENSION names another. */
export const RANK_EXTENSION_DEFAULT = path.join(".cache", "native", process.platform === "darwin" ? "rank.dylib" : "rank.so");

/** The full-text index bm25v ranks. */
const FTS_TABLE = "applications_fts";
/**
 * The connection's fts5vocab table bm25v reads a word's document count from (created in `temp`, per connection; the
 * library finds it as `<table>_words`).
 */
const WORDS_TABLE = `${FTS_TABLE}_words`;

/** What a connection runs once the library is loaded. */
export const RANK_SETUP_SQL = `create virtual table if not exists temp.${WORDS_TABLE} using fts5vocab(main, ${FTS_TABLE}, row)`;

/** The library's entry point. */
export const RANK_ENTRY = "sqlite3_rank_init";

/** The library to load: SEARCH_RANK_EXTENSION, else the built one when it exists (null: none). */
export function rankExtensionFile(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.SEARCH_RANK_EXTENSION) return path.resolve(env.SEARCH_RANK_EXTENSION);
  const built = path.resolve(RANK_EXTENSION_DEFAULT);
  return existsSync(built) ? built : null;
}

/** Loads bm25v into `db` and creates the table it reads. Throws what SQLite says when it cannot. */
export function loadRank(db: Database, file: string): void {
  // better-sqlite3 takes the entry point as a second argument; its type declarations omit it.
  (db as unknown as { loadExtension(file: string, entry: string): void }).loadExtension(file, RANK_ENTRY);
  db.exec(RANK_SETUP_SQL);
}

/**
 * Which phrases of an FTS5 expression end in a prefix (`"…"*`), in FTS5's order of its phrases (as they are written):
 * "1" for those, "0" for the others, "" when there is none. The engine writes every phrase as a quoted string
 * (search/tokens.ts `ftsString`, quotes doubled inside), and nothing else of its expressions is quoted.
 */
export function prefixFlags(match: string): string {
  let flags = "";
  for (let at = match.indexOf('"'); at >= 0; at = match.indexOf('"', at)) {
    let end = at + 1;
    for (;;) {
      end = match.indexOf('"', end);
      if (end < 0) return flags.includes("1") ? flags : "";
      if (match[end + 1] !== '"') break;
      end += 2;
    }
    flags += match[end + 1] === "*" ? "1" : "0";
    at = end + 1;
  }
  return flags.includes("1") ? flags : "";
}

/**
 * The score of a MATCH's row (lower is better, as bm25): bm25v when loaded, told which phrases are prefixes; bm25
 * otherwise.
 */
export function scoreSql(ranked: boolean, match: string, weights: readonly number[]): string {
  return ranked
    ? `bm25v(${FTS_TABLE}, '${FTS_TABLE}', '${prefixFlags(match)}', ${weights.join(", ")})`
    : `bm25(${FTS_TABLE}, ${weights.join(", ")})`;
}
