/**
 * The query link of a prompt chain (spec 3 §3 "Query link", §4.3; docs/decisions/chain-query.md): one read-only SQL
 * SELECT over the chains' corpus, run in a sandbox. Zod-free: the chain editor, the chain's save validation and the
 * run engine all read the rule and the texts from here.
 *
 * The corpus is a database of its own (never the product's: no user, token or setting is reachable from a query):
 * - `inventions (reference, title, portfolio)`: the portfolio's applications as inventions; `reference` is the
 *   application's id.
 * - `paragraphs (id, reference, section, n, text)`: each invention's title, abstract, claims and specification cut into
 *   paragraphs (`section` one of CORPUS_SECTIONS, `n` the paragraph's place in it from 1).
 * - `paragraphs_fts`: the paragraphs' full-text index (FTS5; `rowid` = `paragraphs.id`, `bm25(paragraphs_fts)` ranks).
 * A query reads the run's variables as bound parameters (`:NAME`, e.g. `:PROMPT_1_OUTPUT`), never spliced into the
 * text; `:references` is the JSON array of the context's invention references (read it with `json_each`). The function
 * `match_any(text)` turns free text into a safe full-text query (its words, each quoted, joined by OR).
 */

export const CORPUS_SECTIONS = ["title", "abstract", "claims", "specification"] as const;
export type CorpusSection = (typeof CORPUS_SECTIONS)[number];

/** Bounds of one query: its text, the work it may do and what it may answer. */
export const CHAIN_QUERY_LIMITS = {
  /** Characters of SQL in a query link. */
  sqlChars: 20_000,
  /** Wall-clock time of one statement; the sandbox's process is killed past it. */
  statementMs: 5_000,
  /** Rows answered; the rest are not read. */
  rows: 1_000,
  /** Characters of one text value answered (longer ones are cut). */
  cellChars: 20_000,
  /** Characters of all the values answered together. */
  resultChars: 2_000_000,
  /** Memory SQLite may use for one statement in the sandbox (`hard_heap_limit`). */
  heapBytes: 256 * 1024 * 1024,
  /** Statements waiting for the sandbox beyond the one running; more are refused as busy. */
  queue: 8,
  /** Words `match_any` keeps from its text. */
  matchWords: 32,
  /** Characters of one paragraph in the corpus (a longer paragraph is cut into pieces of at most this). */
  paragraphChars: 4_000,
} as const;

export const CHAIN_QUERY_MESSAGES = {
  empty: "The query is empty.",
  tooLong: `The query is longer than ${CHAIN_QUERY_LIMITS.sqlChars.toLocaleString("en-US")} characters.`,
  oneStatement: "A query link runs one statement: remove the second one.",
  selectOnly: "A query link only reads: it must be one SELECT (or WITH … SELECT) statement.",
  forbidden: (word: string) => `A query link cannot use ${word}.`,
  tooSlow: (ms: number) => `The query ran longer than ${(ms / 1000).toLocaleString("en-US")} s and was stopped.`,
  tooBig: "The query used more memory than it may and was stopped.",
  busy: "Too many queries are running. Try again in a moment.",
  failed: (reason: string) => `The query failed: ${reason}`,
} as const;

/** Statements and functions a query may not name, wherever they appear (outside strings and comments). */
const FORBIDDEN = [
  "ATTACH",
  "DETACH",
  "PRAGMA",
  "INSERT",
  "UPDATE",
  "DELETE",
  "REPLACE",
  "UPSERT",
  "CREATE",
  "DROP",
  "ALTER",
  "VACUUM",
  "REINDEX",
  "ANALYZE",
  "BEGIN",
  "COMMIT",
  "ROLLBACK",
  "SAVEPOINT",
  "RELEASE",
  "LOAD_EXTENSION",
] as const;

/**
 * The SQL with its comments removed and its string literals and quoted names emptied (`'…'` → `''`), so that the
 * words left are the statement's own; null when a literal or a block comment is not closed.
 */
function words(sql: string): string | null {
  let out = "";
  for (let i = 0; i < sql.length; ) {
    const c = sql[i];
    if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end;
      out += " ";
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      if (end < 0) return null;
      i = end + 2;
      out += " ";
    } else if (c === "'" || c === '"' || c === "`" || c === "[") {
      const close = c === "[" ? "]" : c;
      let j = i + 1;
      for (;;) {
        const end = sql.indexOf(close, j);
        if (end < 0) return null;
        // A doubled quote is one quote inside the literal.
        if (close !== "]" && sql[end + 1] === close) {
          j = end + 2;
          continue;
        }
        j = end + 1;
        break;
      }
      out += c === "'" ? "''" : ' "" ';
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * What is wrong with a query link's SQL before it runs, or null: empty, too long, more than one statement, not a
 * SELECT, or naming a statement that changes or escapes the corpus (ATTACH, PRAGMA, writes, transactions). The
 * sandbox checks again what SQLite itself says of the statement (one statement, read-only, answering rows).
 */
export function querySqlProblem(sql: string): string | null {
  if (!sql.trim()) return CHAIN_QUERY_MESSAGES.empty;
  if (sql.length > CHAIN_QUERY_LIMITS.sqlChars) return CHAIN_QUERY_MESSAGES.tooLong;
  const bare = words(sql);
  if (bare === null) return CHAIN_QUERY_MESSAGES.failed("a quote or a comment is not closed.");
  const body = bare.trim().replace(/;\s*$/, "");
  if (body.includes(";")) return CHAIN_QUERY_MESSAGES.oneStatement;
  const upper = body.toUpperCase();
  for (const word of FORBIDDEN) {
    if (new RegExp(`\\b${word}\\b`).test(upper)) return CHAIN_QUERY_MESSAGES.forbidden(word);
  }
  // Table-valued pragma functions (pragma_table_info …) read the database's own configuration.
  if (/\bPRAGMA_\w+/.test(upper)) return CHAIN_QUERY_MESSAGES.forbidden("PRAGMA");
  if (!/^(SELECT|WITH|VALUES)\b/.test(upper)) return CHAIN_QUERY_MESSAGES.selectOnly;
  return null;
}

/** The query a new query link starts with (spec 3 §3: a sample similarity search over the context's inventions). */
export const DEFAULT_QUERY_SQL = `-- The paragraphs of the context's inventions closest to the question (full-text rank).
SELECT p.reference, p.section, p.n, p.text
FROM paragraphs_fts
JOIN paragraphs AS p ON p.id = paragraphs_fts.rowid
WHERE paragraphs_fts MATCH match_any(:question)
  AND p.reference IN (SELECT value FROM json_each(:references))
ORDER BY bm25(paragraphs_fts)
LIMIT 3`;

/** What a query answers: its columns and rows (values as SQLite gave them, text cut at `cellChars`). */
export type QueryResult = {
  columns: string[];
  rows: (string | number | null)[][];
  /** True when rows past `CHAIN_QUERY_LIMITS.rows` (or the result's size bound) were left unread. */
  truncated: boolean;
};
