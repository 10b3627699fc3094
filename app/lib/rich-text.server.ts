import sanitizeHtml from "sanitize-html";

/**
 * Rich text that users write (a milestone's notes, a step's instructions) is HTML from the browser's editor, or text
 * typed into a plain textarea without JavaScript; either way it is untrusted. It is sanitized here, on the server,
 * before it is stored, and whatever renders it may sanitize again with the same function. What the editor (TipTap's
 * starter kit) can make is kept: paragraphs, headings, lists, quotes, code, inline marks and links (http, https and
 * mailto only, opened without the opener); scripts, styles, event handlers, images, frames and forms are dropped.
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

/** Untrusted rich text as safe HTML. Text without any tag (a plain textarea) becomes paragraphs, one per line. */
export function sanitizeRichText(input: string): string {
  const text = input.replace(/\r\n?/g, "\n").trim();
  if (!/<[a-z!/]/i.test(text)) {
    return text
      .split(/\n{2,}/)
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => `<p>${escapeText(p).replace(/\n/g, "<br>")}</p>`)
      .join("");
  }
  return sanitizeHtml(text, RICH_TEXT).trim();
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
