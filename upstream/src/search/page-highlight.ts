/**
 * The highlights of a page of hits: marked in JavaScript where that is exact (marks.ts), else by FTS5 — in one pass
 * over the matches between the page's first and last rowid, on a copy of the page's text, or one MATCH per hit — and
 * cut into fragments (highlight.ts).
 */
import type { Highlight } from "../../contract/portfolio";
import { FTS_COLUMNS, FTS_TOKENIZE } from "../applications/schema";
import type { ApplicationRow } from "../applications/store";
import type { Db } from "../db";
import { prepared } from "../lib/collection";
import type { Plan } from "./compile";
import type { HighlightField } from "./dsl";
import { MARK_END, MARK_START, fragmentsFrom, fragmentsOf } from "./highlight";
import { TEXT_COLUMNS, type TextColumn } from "./ir";
import { markerOf, type Span } from "./marks";

/** Its switches are the engine's options of the same names (sqlite.ts SqliteEngineOptions). */
export class PageHighlighter {
  /** Whether the connection's table for the page's copy (`temp.page_text`) was created. */
  private pageTable = false;

  constructor(
    private readonly db: Db,
    private readonly highlightScanFactor: number,
    private readonly highlightCopy: boolean,
    private readonly highlightInJs: boolean,
  ) {}

  /** `hits`: the query's match count (or a lower bound); `rows`: the hits' rows as read (their texts are marked). */
  highlight(plan: Plan, seqs: readonly number[], fields: readonly HighlightField[], hits: number, rows: ReadonlyMap<number, ApplicationRow>): Map<number, Highlight> {
    const out = new Map<number, Highlight>();
    if (!seqs.length) return out;
    const cols = fields.map((f) => TEXT_COLUMNS.indexOf(f.column));
    // The page's highlighted texts, marked here where that is exact (marks.ts); FTS5 marks the other hits.
    const marker = this.highlightInJs && plan.highlight ? markerOf(plan.leaves) : null;
    const found = new Map<number, { texts: string[]; spans: Span[][] }>();
    let toFts = seqs;
    if (marker) {
      // The columns the hits were read without (the products' text; claims and specification in a list) read now.
      const first = rows.get(seqs[0]!) as Record<string, unknown> | undefined;
      const missing = [...new Set(fields.map((f) => f.column))].filter((c) => typeof first?.[c] !== "string");
      const more = new Map<number, Record<string, unknown>>();
      if (missing.length) {
        const stmt = prepared(this.db, `select seq, ${missing.join(", ")} from applications where seq in (select value from json_each(?))`);
        for (const row of stmt.all(JSON.stringify(seqs)) as (Record<string, unknown> & { seq: number })[]) more.set(row.seq, row);
      }
      const textOf = (seq: number, column: TextColumn) => {
        const value = (missing.includes(column) ? more.get(seq) : (rows.get(seq) as Record<string, unknown> | undefined))?.[column];
        return typeof value === "string" ? value : null;
      };
      for (const seq of seqs) {
        const texts = fields.map((f) => textOf(seq, f.column));
        if (texts.some((t) => t === null)) continue;
        const spans = fields.map((f, i) => marker(f.column, texts[i]!));
        if (spans.every((s) => s !== null)) found.set(seq, { texts: texts as string[], spans: spans as Span[][] });
      }
      toFts = seqs.filter((seq) => !found.has(seq));
    }
    const marked = plan.highlight && toFts.length ? this.ftsMarks(plan, toFts, cols, hits) : new Map<number, (string | null)[]>();
    const needPlain = fields.some((f) => f.noMatchSize > 0);
    const plainStmt = needPlain ? prepared(this.db, `select ${TEXT_COLUMNS.join(", ")} from applications where seq = ?`) : null;
    for (const seq of seqs) {
      const h: Highlight = {};
      const js = found.get(seq);
      const m = marked.get(seq);
      let plain: Record<TextColumn, string> | null = null;
      fields.forEach((f, i) => {
        let fragments: string[] | null;
        if (js) fragments = fragmentsFrom(js.texts[i]!, js.spans[i]!, f);
        else {
          const text = m?.[i] ?? null;
          const hasMark = text !== null && text.includes(MARK_START);
          if (!hasMark && f.noMatchSize > 0 && plainStmt) plain ??= plainStmt.get(seq) as Record<TextColumn, string>;
          fragments = fragmentsOf(hasMark ? text : null, plain?.[f.column] ?? "", f);
        }
        if (fragments) (h as Record<string, string[]>)[f.field] = fragments;
      });
      out.set(seq, h);
    }
    return out;
  }

  /** FTS5's marked text of these hits' columns `cols` (by seq; a hit that does not match has none). */
  private ftsMarks(plan: Plan, seqs: readonly number[], cols: readonly number[], hits: number): Map<number, (string | null)[]> {
    const marksOf = (table: string) => cols.map((c, i) => `highlight(${table}, ${c}, '${MARK_START}', '${MARK_END}') as h${i}`).join(", ");
    const marks = marksOf("applications_fts");
    // The casts matter: better-sqlite3 binds a number as REAL, and FTS5 then ignores a rowid constraint (every call
    // would scan every match).
    const range = "applications_fts match ? and rowid >= cast(? as integer) and rowid <= cast(? as integer)";
    const lo = Math.min(...seqs);
    const hi = Math.max(...seqs);
    // With few matches between the page's first and last rowid, one pass over them keeps the page's rows (the unary
    // + keeps SQLite from making the IN one lookup per value). Not counted when the query has more hits than the
    // pass may take, nor for a prefix (its MATCH would merge every word it covers on this thread): the copy then.
    const scanUpTo = seqs.length * this.highlightScanFactor;
    const onePass =
      scanUpTo > 0 &&
      hits <= scanUpTo &&
      !plan.offThread &&
      (prepared(this.db, `select count(*) as n from (select 1 from applications_fts where ${range} limit ?)`).get(plan.highlight, lo, hi, scanUpTo + 1) as { n: number }).n <=
        scanUpTo;
    type Marked = Record<string, string | null> & { seq: number };
    let rows: Marked[];
    if (onePass) {
      const stmt = prepared(this.db, `select rowid as seq, ${marks} from applications_fts where ${range} and +rowid in (select value from json_each(?))`);
      rows = stmt.all(plan.highlight, lo, hi, JSON.stringify(seqs)) as Marked[];
    } else if (this.highlightCopy) {
      rows = this.markCopy(plan.highlight!, seqs, cols, marksOf("page_text")) as Marked[];
    } else {
      const stmt = prepared(this.db, `select rowid as seq, ${marks} from applications_fts where ${range}`);
      rows = seqs.flatMap((seq) => stmt.all(plan.highlight, seq, seq) as Marked[]);
    }
    return new Map(rows.map((row) => [row.seq, cols.map((_, i) => row[`h${i}`] ?? null)]));
  }

  /**
   * The page's marks, from a copy: one MATCH per hit on the index pays, per hit, the start of the whole expression
   * (each term's segments; every term of a prefix merged), ~45 µs for a broad word and ~80 ms for a prefix in most of
   * a million applications. So the page's highlighted columns are copied into `temp.page_text` (the index's columns
   * and tokenizer, this connection's alone, emptied after) and marked by one MATCH there: ~4 ms for 250 hits.
   * The marks are the index's: every highlighted leaf is one phrase, prefix or NEAR group (query-string.ts), whose
   * instances in a column depend on that column's text alone; a hit whose copy does not match has no instance to mark.
   */
  private markCopy(expr: string, seqs: readonly number[], cols: readonly number[], marks: string): unknown[] {
    if (!this.pageTable) {
      this.db.exec(`create virtual table if not exists temp.page_text using fts5(${FTS_COLUMNS}, tokenize = '${FTS_TOKENIZE}')`);
      this.pageTable = true;
    }
    const columns = [...new Set(cols)].map((c) => TEXT_COLUMNS[c]!).join(", ");
    // One transaction: should the MATCH throw, the copy is rolled back with it.
    return this.db.transaction(() => {
      prepared(this.db, `insert into temp.page_text (rowid, ${columns}) select seq, ${columns} from applications where seq in (select value from json_each(?))`).run(
        JSON.stringify(seqs),
      );
      const rows = prepared(this.db, `select rowid as seq, ${marks} from temp.page_text where page_text match ?`).all(expr);
      prepared(this.db, "delete from temp.page_text").run();
      return rows;
    })();
  }
}
