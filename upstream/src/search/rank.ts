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

/**
 * Loads bm25v into `db` and creates the table it reads. Which library: `named` when given (null: none), else
 * SEARCH_RANK_EXTENSION (`fromEnv`), else the one built at `built`. A library named that does not load is an error; the built one missing
 * or not loading (a copy from another machine, say) leaves bm25, and `problem` says why for the upstream's log.
 */
export function attachRank(
  db: Database,
  named?: string | null,
  fromEnv: string | undefined = process.env.SEARCH_RANK_EXTENSION,
  built: string = RANK_EXTENSION_DEFAULT,
): { file: string | null; problem: string | null } {
  if (named === null) return { file: null, problem: null };
  const asked = named ?? (fromEnv ? path.resolve(fromEnv) : null);
  const file = asked ?? path.resolve(built);
  if (!asked && !existsSync(file)) return { file: null, problem: `${built} is not built (npm run build:native; it needs a C compiler)` };
  try {
    // better-sqlite3 takes the entry point as a second argument; its type declarations omit it.
    (db as unknown as { loadExtension(file: string, entry: string): void }).loadExtension(file, RANK_ENTRY);
    db.exec(RANK_SETUP_SQL);
    return { file, problem: null };
  } catch (error) {
    if (asked) throw new Error(`The search's ranking library ${file} did not load: ${(error as Error).message}`);
    return { file: null, problem: `${file} did not load (${(error as Error).message})` };
  }
}

/**
 * Which phrases of an FTS5 expression end in a prefix (`"…"*`), in FTS5's order of its phrases (as they are written):
 * "1" for those, "0" for the others, "" when there is none. The engine writes every phrase as a quoted string
 * (search/tokens.ts `ftsString`, quotes doubled inside), and nothing else of its expressions is quoted.
 */
export function prefixFlags(match: string): string {
  let flags = "";
  for (let at = match.indexOf('"'); at >= 0; ) {
    // The phrase's closing quote: the next one that is not doubled.
    let end = match.indexOf('"', at + 1);
    while (end >= 0 && match[end + 1] === '"') end = match.indexOf('"', end + 2);
    if (end < 0) break;
    flags += match[end + 1] === "*" ? "1" : "0";
    at = match.indexOf('"', end + 1);
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
