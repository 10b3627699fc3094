/**
 * A query's counts: its total (counted up to track_total_hits, or the maintained counts' when the query is only a
 * portfolio and a tag) and its tag facet (the maintained counts, every match up to `facetSample`, past it the query's
 * first `facetFirst` hits, flagged `partial`).
 */
import type { ApplicationTag, TermsAggregation } from "../../contract/portfolio";
import type { ApplicationRow } from "../applications/store";
import { prepared } from "../lib/collection";
import type { Plan } from "./compile";
import type { ParsedSearch } from "./dsl";
import type { PlanStatements } from "./statements";

/**
 * What is known of a query's match count: exactly `n`, or (not `exact`) at least `n`. `free`: the maintained counts
 * gave it (answered whatever track_total_hits says).
 */
export type Known = { n: number; exact: boolean; free?: boolean };

/** A tag facet before its cut to the size asked. */
export type Facet = { buckets: { key: string; doc_count: number }[]; partial: boolean; sampled: number };

/**
 * The facet of a query whose every match is known: its page's tags counted from the hits' rows as they are read
 * (sqlite.ts `answer`), the other matches' (`rest`, none when the page holds them all) by `tagCounts`.
 */
export type FacetOfMatches = { rest: readonly { seq: number }[] };

/**
 * The tag counts of these rows and `more` (counts of other rows), most first, then by name in SQLite's BINARY order
 * (UTF-8 bytes, which is code point order), as `tagCounts` answers them.
 */
export function tagBuckets(rows: Iterable<ApplicationRow>, more: Facet["buckets"] = []): Facet["buckets"] {
  const counts = new Map<string, number>();
  for (const row of rows) for (const tag of JSON.parse(row.tags) as ApplicationTag[]) counts.set(tag.name, (counts.get(tag.name) ?? 0) + 1);
  for (const b of more) counts.set(b.key, (counts.get(b.key) ?? 0) + b.doc_count);
  return [...counts]
    .map(([key, doc_count]) => ({ key, doc_count }))
    .sort((a, b) => b.doc_count - a.doc_count || byCodePoint(a.key, b.key));
}

/** Code point order: JavaScript's `<` compares UTF-16 units, which puts U+10000 and above before U+E000–U+FFFF. */
function byCodePoint(a: string, b: string): number {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** The facet as a terms aggregation of `size` buckets, the others summed in `sum_other_doc_count`. */
export function cut(facet: Facet, size: number): TermsAggregation {
  const buckets = facet.buckets.slice(0, size);
  const other = facet.buckets.slice(size).reduce((sum, b) => sum + b.doc_count, 0);
  return { buckets, sum_other_doc_count: other, ...(facet.partial ? { partial: true, sampled: facet.sampled } : {}) };
}

export class Counts {
  constructor(
    private readonly statements: PlanStatements,
    private readonly facetSample: number,
    private readonly facetFirst: number,
  ) {}

  /**
   * How many first hits the facet counts: `facetFirst` when the query has more than `facetSample` matches, else 0
   * (it counts them all, or the maintained counts answer).
   */
  async facetDepth(parsed: ParsedSearch, plan: Plan, known: Known | null): Promise<number> {
    if (!parsed.aggs.length) return 0;
    const counts = this.countsOnly(plan);
    if (counts && counts.tag === null) return 0;
    const n = known && (known.exact || known.n > this.facetSample) ? known.n : await this.statements.countUpTo(plan, this.facetSample + 1);
    return n > this.facetSample ? this.facetFirst : 0;
  }

  /** Only a portfolio (or every portfolio), and at most one tag, no text: the maintained counts answer. */
  private countsOnly(plan: Plan): { portfolio: string | null; tag: string | null } | null {
    if (plan.negatives.length || plan.match) return null;
    let portfolio: string | null = null;
    let tag: string | null = null;
    for (const n of plan.positives) {
      if (n.kind === "portfolio" && portfolio === null) portfolio = n.id;
      else if (n.kind === "tag" && tag === null) tag = n.name;
      else return null;
    }
    return { portfolio, tag };
  }

  /**
   * What the query's match count is known to be: counted up to one past `track` (track_total_hits), unless a count
   * already taken or the maintained counts tell.
   */
  async matches(plan: Plan, known: Known | null, track: number): Promise<Known> {
    if (known && (known.exact || known.n > track)) return known;
    const free = this.maintainedTotal(plan);
    if (free !== null) return { n: free, exact: true, free: true };
    if (track === Infinity) return { n: await this.statements.countUpTo(plan, -1), exact: true };
    const n = await this.statements.countUpTo(plan, track + 1);
    return { n, exact: n <= track };
  }

  /** The total the maintained counts answer (a portfolio, or every one, and at most one tag, no text), else null. */
  private maintainedTotal(plan: Plan): number | null {
    const counts = this.countsOnly(plan);
    if (counts && counts.tag === null) {
      const row = counts.portfolio === null
        ? prepared(this.statements.db, "select coalesce(sum(count), 0) as n from portfolio_counts").get()
        : prepared(this.statements.db, "select coalesce(sum(count), 0) as n from portfolio_counts where portfolio_id = ?").get(counts.portfolio);
      return (row as { n: number }).n;
    }
    if (counts && counts.tag !== null) {
      const row = counts.portfolio === null
        ? prepared(this.statements.db, "select coalesce(sum(count), 0) as n from tag_counts where name = ?").get(counts.tag)
        : prepared(this.statements.db, "select coalesce(sum(count), 0) as n from tag_counts where portfolio_id = ? and name = ?").get(counts.portfolio, counts.tag);
      return (row as { n: number }).n;
    }
    return null;
  }

  /**
   * The tag facet: the maintained counts when they answer; else `first` (the query's first hits, when it has more
   * matches than `facetSample`: see `facetDepth`) or every match.
   */
  async facet(plan: Plan, matches: Known, first: readonly { seq: number }[] | null): Promise<Facet> {
    const counts = this.countsOnly(plan);
    if (counts && counts.tag === null) {
      const rows = counts.portfolio === null
        ? prepared(this.statements.db, "select name as key, sum(count) as doc_count from tag_counts group by name order by doc_count desc, name").all()
        : prepared(this.statements.db, "select name as key, count as doc_count from tag_counts where portfolio_id = ? order by count desc, name").all(counts.portfolio);
      return { buckets: rows as { key: string; doc_count: number }[], partial: false, sampled: matches.n };
    }
    if (first) return { buckets: this.tagCounts(first), partial: true, sampled: first.length };
    // At most `facetSample` matches (facetDepth counted them when nothing else did): all of them.
    const src = this.statements.source(plan, plan.match ? "applications_fts.rowid as seq" : "a.seq as seq", false, false);
    const rows = await this.statements.all<{ key: string; doc_count: number }>(
      plan,
      `select t.name as key, count(*) as doc_count from (${src.sql} limit ?) m join application_tags t on t.app_seq = m.seq
       group by t.name order by doc_count desc, t.name`,
      [...src.params, this.facetSample],
    );
    return { buckets: rows, partial: false, sampled: matches.n };
  }

  /** The tag counts of these rows, most first. */
  tagCounts(rows: readonly { seq: number }[]): Facet["buckets"] {
    return prepared(
      this.statements.db,
      `select name as key, count(*) as doc_count from application_tags where app_seq in (select value from json_each(?))
       group by name order by doc_count desc, name`,
    ).all(JSON.stringify(rows.map((r) => r.seq))) as Facet["buckets"];
  }
}
