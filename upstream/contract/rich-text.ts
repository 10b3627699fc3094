import sanitizeHtml from "sanitize-html";

/**
 * The rich-text rule, the one the upstream stores by and the back office renders by. Rich text that users write (a
 * milestone template's notes, a step's instructions) is HTML from the browser's editor, or text typed into a plain
 * textarea without JavaScript; either way it is untrusted. The upstream sanitizes it before it is stored (whoever
 * sent it: the wizard or another API client), and the back office sanitizes again what it renders, since UPSTREAM_URL
 * may name another implementation. What the editor (TipTap's starter kit) can make is kept: paragraphs, headings,
 * lists, quotes, code, inline marks and links (http, https and mailto only, opened without the opener); scripts,
 * styles, event handlers, images, frames and forms are dropped.
 *
 * Server only: sanitize-html needs Node (postcss, htmlparser2) and would weigh ~100 KB in a browser bundle. The
 * back office reads this module only through app/lib/rich-text.server.ts, which the browser build leaves out; the
 * contract's index does not re-export it.
 */
const RICH_TEXT: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre", "code", "strong", "b", "em", "i", "u", "s", "hr", "a"],
  allowedAttributes: { a: ["href", "title", "rel", "target"], ol: ["start"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer nofollow", target: "_blank" }) },
};

/** Text as HTML text: sanitize-html with no tag allowed escapes `&`, `<` and `>`. */
const escapeText = (text: string) => sanitizeHtml(text, { allowedTags: [], allowedAttributes: {} });

/**
 * Untrusted rich text as safe HTML. Text without any tag (a plain textarea) becomes paragraphs, one per blank line,
 * a `<br />` per line; HTML left with no tag at all once sanitized is one paragraph. Sanitizing the result again
 * changes nothing, so what the upstream stored is what a page renders.
 */
export function sanitizeRichText(input: string): string {
  const text = input.replace(/\r\n?/g, "\n").trim();
  if (!/<[a-z!/]/i.test(text)) {
    return text
      .split(/\n{2,}/)
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => `<p>${escapeText(p).replace(/\n/g, "<br />")}</p>`)
      .join("");
  }
  const html = sanitizeHtml(text, RICH_TEXT).trim();
  return html === "" || /<[a-z]/i.test(html) ? html : `<p>${html}</p>`;
}

/** True when the HTML says nothing: no text once tags are removed (TipTap's empty document is `<p></p>`). */
export function isBlankRichText(html: string): boolean {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).replace(/&nbsp;|\s/g, "") === "";
}

/** Rich text to store: sanitized, and empty ('<p></p>', spaces) as "" (spec 3 §5: an empty paragraph is stored empty). */
export function richTextToStore(input: string): string {
  const html = sanitizeRichText(input);
  return isBlankRichText(html) ? "" : html;
}
