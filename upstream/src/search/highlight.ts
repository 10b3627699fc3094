/**
 * Highlight fragments from FTS5's `highlight()` output: the whole column with MARK_START/MARK_END around each match
 * (FTS5's own matching: phrases, NEAR, prefixes, column filters). Cut into `fragments` windows of about
 * `fragmentSize` characters around the matches (the windows with most matches, in text order), HTML-escaped, the
 * pre/post tags around each match. `fragments` 0: the whole field. No match: the field's first `noMatchSize`
 * characters (cut at a word), or nothing when 0.
 */
import type { Span } from "./marks";
import { escapeHtml } from "./tokens";

export const MARK_START = "\u0001";
export const MARK_END = "\u0002";

export type FragmentOptions = { fragmentSize: number; fragments: number; noMatchSize: number; pre: string; post: string };

const MARKS = new RegExp(`[${MARK_START}${MARK_END}]`, "g");

/** The text without its marks, and the marked spans (a stray or empty mark is dropped). */
function parseMarks(marked: string): { text: string; spans: Span[] } {
  let text = "";
  const spans: Span[] = [];
  let at = 0;
  let open = -1;
  MARKS.lastIndex = 0;
  for (let m = MARKS.exec(marked); m; m = MARKS.exec(marked)) {
    text += marked.slice(at, m.index);
    at = m.index + 1;
    if (m[0] === MARK_START) open = text.length;
    else {
      if (open >= 0 && text.length > open) spans.push({ start: open, end: text.length });
      open = -1;
    }
  }
  return { text: text + marked.slice(at), spans };
}

function render(text: string, from: number, to: number, spans: readonly Span[], o: FragmentOptions): string {
  let out = "";
  let at = from;
  for (const s of spans) {
    if (s.end <= from || s.start >= to) continue;
    const start = Math.max(s.start, from);
    const end = Math.min(s.end, to);
    out += escapeHtml(text.slice(at, start)) + o.pre + escapeHtml(text.slice(start, end)) + o.post;
    at = end;
  }
  return out + escapeHtml(text.slice(at, to));
}

/** Whether this UTF-16 unit is white space as `\s` says (ASCII and Unicode spaces, line terminators, BOM). */
function isSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Moves `i` back to the start of its word (at most 20 characters). */
function wordStart(text: string, i: number): number {
  let j = i;
  while (j > 0 && i - j < 20 && !isSpace(text.charCodeAt(j - 1))) j--;
  return j > 0 && i - j >= 20 ? i : j;
}
/** Moves `i` forward to the end of its word (at most 20 characters). */
function wordEnd(text: string, i: number): number {
  let j = i;
  while (j < text.length && j - i < 20 && !isSpace(text.charCodeAt(j))) j++;
  return j < text.length && j - i >= 20 ? i : j;
}

/** The fragments of one field from `highlight()`'s marked text (or `plain` when null), or null when there is nothing to show. */
export function fragmentsOf(marked: string | null, plain: string, o: FragmentOptions): string[] | null {
  const { text, spans } = marked ? parseMarks(marked) : { text: plain, spans: [] as Span[] };
  return fragmentsFrom(text, spans, o);
}

/** The fragments of one field from its text and marked spans (in order, disjoint, none empty), or null. */
export function fragmentsFrom(text: string, spans: readonly Span[], o: FragmentOptions): string[] | null {
  if (!spans.length) {
    if (o.noMatchSize <= 0 || !text) return null;
    const end = text.length <= o.noMatchSize ? text.length : wordStart(text, o.noMatchSize);
    return [escapeHtml(text.slice(0, end > 0 ? end : o.noMatchSize).trim())];
  }
  if (o.fragments === 0) return [render(text, 0, text.length, spans, o)];
  const windows: { from: number; to: number; score: number; index: number }[] = [];
  let i = 0;
  while (i < spans.length) {
    const first = spans[i]!;
    const lead = Math.max(0, Math.floor((o.fragmentSize - (first.end - first.start)) / 3));
    const from = wordStart(text, Math.max(0, first.start - lead));
    let to = Math.min(text.length, from + o.fragmentSize);
    let score = 0;
    while (i < spans.length && spans[i]!.start < to) {
      to = Math.max(to, Math.min(text.length, spans[i]!.end));
      score++;
      i++;
    }
    windows.push({ from, to: wordEnd(text, to), score, index: windows.length });
  }
  // The windows with most matches (the first of equals), in text order: all of them when there are not more.
  const chosen =
    windows.length <= o.fragments
      ? windows
      : windows
          .sort((a, b) => b.score - a.score || a.index - b.index)
          .slice(0, o.fragments)
          .sort((a, b) => a.index - b.index);
  return chosen.map((w) => render(text, w.from, w.to, spans, o).trim());
}
