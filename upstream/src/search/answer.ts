/**
 * A search's answer written out: as the contract's SearchResponse, or straight as its JSON text from the rows as read.
 */
import type { Highlight, SearchHit, SearchResponse, TermsAggregation } from "../../contract/portfolio";
import { markedFields, rowToApplication, withStoredJson, type ApplicationRow } from "../applications/store";

/** The engine's relevance of a bm25 value (as the search answers it). */
export const scoreOf = (s: number | null) => (s === null ? null : Math.round(-s * 1e6) / 1e6);

function pickFields(hit: SearchHit, fields: Set<string>): SearchHit {
  const out: Record<string, unknown> = { score: hit.score, highlight: hit.highlight };
  for (const [key, value] of Object.entries(hit)) if (fields.has(key)) out[key] = value;
  return out as SearchHit;
}

/** A search's answer before it is written out: the page's rows as read, for `valueOf` or `jsonOf`. */
export type Answer = {
  hits: { row: ApplicationRow; score: number | null; highlight: Highlight }[];
  /** Hits without claims and specification (SearchScope `hitFields: "list"`). */
  list: boolean;
  /** The `_source` fields asked, if any. */
  source: Set<string> | null;
  total: number;
  totalRelation: SearchResponse["totalRelation"];
  aggs: Record<string, TermsAggregation>;
  took: number;
};

export function valueOf(a: Answer): SearchResponse {
  const data = a.hits.map(({ row, score, highlight }) => {
    const app = rowToApplication(row);
    // Left out by a rest, not `delete`: JSON.stringify writes objects that never lost a property ~20% quicker.
    const { claims: _claims, specification: _specification, ...listed } = app;
    const hit = { ...(a.list ? listed : app), score, highlight } as SearchHit;
    return a.source ? pickFields(hit, a.source) : hit;
  });
  return { data, total: a.total, totalRelation: a.totalRelation, aggs: a.aggs, took: a.took };
}

/**
 * `JSON.stringify(valueOf(a))`: unless `_source` picks fields, one JSON.stringify of the hits' fields as read, their
 * stored products and tags put in after (store.ts `markedFields`, `withStoredJson`).
 */
export function jsonOf(a: Answer): string {
  if (a.source) return JSON.stringify(valueOf(a));
  const data = a.hits.map(({ row, score, highlight }) => {
    const hit = markedFields(row, a.list);
    hit.score = score;
    hit.highlight = highlight;
    return hit;
  });
  const rows = a.hits.map((h) => h.row);
  return withStoredJson(JSON.stringify({ data, total: a.total, totalRelation: a.totalRelation, aggs: a.aggs, took: a.took }), rows);
}
