/**
 * The invention search over the chains' corpus (upstream/contract/inventions.ts): the words of the text, each as a
 * prefix, all in an invention's title (the corpus's full-text index, ranked by bm25), or the text as an invention's
 * reference exactly. The corpus is the one the query links read, so an invention found here is one a run can query.
 */
import type Database from "better-sqlite3";
import { INVENTION_SEARCH, type Invention, type InventionSearchAnswer } from "../../contract/inventions";

/** The text's words as an FTS5 query: each quoted (no operator or syntax can pass) and a prefix, all required. */
export function titleQuery(text: string): string | null {
  const words = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, INVENTION_SEARCH.maxWords);
  return words.length ? words.map((w) => `"${w}"*`).join(" ") : null;
}

const MATCHES = `
  with hits as (select rowid as id, bm25(paragraphs_fts) as rank from paragraphs_fts where paragraphs_fts match :fts),
  matched as (
    select p.reference as reference, hits.rank as rank from hits join paragraphs p on p.id = hits.id where p.section = 'title'
    union all
    select reference, -1e9 from inventions where reference = :text
  ),
  best as (select reference, min(rank) as rank from matched group by reference)`;

export function searchInventions(corpus: Database.Database, qs: string, size: number, from: number): InventionSearchAnswer {
  const text = qs.trim();
  // An empty text answers nothing: the page searches only for a non-empty text (spec 3 §5).
  const fts = titleQuery(text) ?? '""';
  if (!text) return { data: [], total: 0, size, from };
  const params = { fts, text };
  const { total } = corpus.prepare(`${MATCHES} select count(*) as total from best`).get(params) as { total: number };
  const rows = corpus
    .prepare(
      `${MATCHES} select i.reference as id, i.title as title from best join inventions i on i.reference = best.reference
        order by best.rank, i.title, i.reference limit :size offset :from`,
    )
    .all({ ...params, size, from }) as { id: string; title: string }[];
  const data: Invention[] = rows.map((r) => ({ id: r.id, title: r.title, references: [r.id] }));
  return { data, total, size, from };
}
