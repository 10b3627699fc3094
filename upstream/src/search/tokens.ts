import sanitizeHtml from "sanitize-html";

/**
 * The index's analysis, in one place. FTS5's `unicode61 remove_diacritics 2` tokenizer splits on everything that is
 * not a letter or a number, folds case and removes diacritics; `analyze` does the same in JavaScript so that `match`
 * queries can be turned into FTS5 terms (each term is then quoted, so FTS5 re-tokenizes it the same way).
 */
export function analyze(text: string): string[] {
  return (
    text
      .normalize("NFKD")
      .replace(/\p{M}+/gu, "")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** An FTS5 string literal: `"..."` with inner quotes doubled. Inside it FTS5 tokenizes (a phrase when several). */
export const ftsString = (text: string) => `"${text.replace(/"/g, '""')}"`;

const hex = (text: string) => Buffer.from(text, "utf8").toString("hex");

/** A tag name as one index token of the `tag_tokens` column ("t" + hex of its UTF-8): exact, case-sensitive. */
export const tagToken = (name: string) => `t${hex(name)}`;
/** A portfolio id as one index token of the `portfolio_token` column. */
export const portfolioToken = (id: string) => `p${hex(id)}`;

/**
 * Whether an analyzed token could be a tag or portfolio token, or the start of one (a prefix query): "t" or "p" then
 * hex digits only. Other tokens cannot match the token columns, so a text term made of them needs no column filter.
 */
export const mayMatchToken = (token: string) => /^[pt][0-9a-f]*$/.test(token);

/** aiSummary's sanitizer (spec 2: sanitized on write and on render): sanitize-html's safe defaults, http(s)/mailto links. */
export function sanitizeSummary(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, "span"],
    allowedAttributes: { a: ["href", "title"] },
    allowedSchemes: ["http", "https", "mailto"],
    transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer" }) },
  });
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", nbsp: " " };

/**
 * The text of SANITIZED HTML (sanitize-html's output: every tag well formed, every "<" in text escaped), what the
 * index holds for aiSummary: tags become spaces, entities decoded.
 */
export function htmlText(sanitized: string): string {
  return sanitized
    .replace(/<[^>]*>/g, " ")
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, name: string) => ENTITIES[name] ?? "")
    .replace(/\s+/g, " ")
    .trim();
}

const HTML_SPECIAL = /[&<>"']/;

/** Escapes text for HTML (highlight fragments). */
export function escapeHtml(text: string): string {
  return HTML_SPECIAL.test(text) ? text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`) : text;
}
