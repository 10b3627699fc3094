/**
 * What FTS5's `highlight()` marks, found in JavaScript for the texts where that can be exact: ASCII text and phrases of
 * ASCII tokens. The `unicode61 remove_diacritics 2` tokenizer makes of ASCII text the runs of letters and digits,
 * lower-cased, and nothing else (every other ASCII character separates); a phrase instance is its tokens at
 * consecutive positions of one column (the last one a prefix of its token for `"…"*`), in the columns its leaf names.
 * `highlight()` marks every instance of every phrase of the expression (an OR of the query's positive leaves: each
 * one's instances stand on their own), merging instances that overlap. A NEAR group keeps only the instances that
 * are near enough: those leaves (rare) and non-ASCII texts are left to FTS5 — `markerOf` answers null for the query,
 * the marker null for the text.
 *
 * Why: FTS5 reads each hit's row and tokenizes the column again, ~1.5 ms for a page of 250 hits of three columns; the
 * page's text is at hand here already, and finding a few words in it is ~0.4 ms.
 */
import type { TextColumn, TextNode } from "./ir";

export type Span = { start: number; end: number };
/** The marked spans of `text` (column `column`), in order and disjoint, or null when FTS5 must mark it. */
export type Marker = (column: TextColumn, text: string) => Span[] | null;

const ASCII_TOKEN = /^[a-z0-9]+$/;
const NON_ASCII = /[\u0080-\uffff]/;

/** A letter or a digit (the only ASCII token characters). */
function isTokenChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}

/**
 * From `at` in lower-cased ASCII text, the end of the token there when it is `token` (or, for a prefix, starts with
 * it), else -1.
 */
function tokenAt(low: string, at: number, token: string, isPrefix: boolean): number {
  if (!low.startsWith(token, at)) return -1;
  let end = at + token.length;
  if (isPrefix) while (end < low.length && isTokenChar(low.charCodeAt(end))) end++;
  else if (end < low.length && isTokenChar(low.charCodeAt(end))) return -1;
  return end;
}

/** The instances of one phrase in lower-cased ASCII text, as spans from its first token's start to its last's end. */
function instances(low: string, tokens: readonly string[], prefix: boolean, out: Span[]): void {
  const first = tokens[0]!;
  const last = tokens.length - 1;
  for (let at = low.indexOf(first); at >= 0; at = low.indexOf(first, at + 1)) {
    if (at > 0 && isTokenChar(low.charCodeAt(at - 1))) continue;
    let end = tokenAt(low, at, first, prefix && last === 0);
    for (let i = 1; end >= 0 && i <= last; i++) {
      let next = end;
      while (next < low.length && !isTokenChar(low.charCodeAt(next))) next++;
      end = next < low.length ? tokenAt(low, next, tokens[i]!, prefix && i === last) : -1;
    }
    if (end >= 0) out.push({ start: at, end });
  }
}

/** Spans that overlap become one (as FTS5's highlight() iterates its instances). */
function merged(spans: Span[]): Span[] {
  if (spans.length < 2) return spans;
  spans.sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Span[] = [spans[0]!];
  for (let i = 1; i < spans.length; i++) {
    const s = spans[i]!;
    const top = out[out.length - 1]!;
    if (s.start < top.end) top.end = Math.max(top.end, s.end);
    else out.push(s);
  }
  return out;
}

/** The marker of a query's highlighted leaves, or null when one of them is not for JavaScript to mark (see above). */
export function markerOf(leaves: readonly TextNode[]): Marker | null {
  if (!leaves.length) return null;
  if (leaves.some((l) => l.phrase.near !== null || !l.phrase.tokens.every((t) => ASCII_TOKEN.test(t)))) return null;
  return (column, text) => {
    if (NON_ASCII.test(text)) return null;
    const low = text.toLowerCase();
    const spans: Span[] = [];
    for (const leaf of leaves) if (leaf.columns.includes(column)) instances(low, leaf.phrase.tokens, leaf.phrase.prefix, spans);
    return merged(spans);
  };
}
