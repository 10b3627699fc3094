/**
 * The common message of a prompt — plain text with `{{NAME}}` or `{{a.b}}` references and nothing else — rendered
 * in place, as Handlebars (noEscape, not strict) renders it: a missing or null value is "", anything else its string.
 * This is linear in the text and the values, so it needs no worker thread; a round trip to one was most of a run's
 * own time to its first token (docs/decisions/chain-runs.md). Anything else (blocks, helpers, partials, `this`,
 * escapes) answers null and goes to the bounded renderer.
 */
const REFERENCE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\}\}/g;

export function substitute(template: string, values: Record<string, unknown>, maxChars: number): string | null {
  if (!template.includes("{{")) return template;
  if (template.includes("\\{{") || template.includes("{{{")) return null;
  // Every "{{" must open a plain reference: what remains once they are removed has none.
  if (template.replace(REFERENCE, "").includes("{{")) return null;
  let length = 0;
  let tooLong = false;
  let other = false;
  const out = template.replace(REFERENCE, (_, path: string) => {
    let value: unknown = values;
    // `this` is the context itself to Handlebars, not a name in it.
    if (path === "this" || path.startsWith("this.")) other = true;
    for (const key of path.split(".")) {
      if (value === null || value === undefined) break;
      // A property of a string or a number ("{{topic.length}}"): Handlebars' own lookup decides.
      if (typeof value !== "object") other = true;
      // Own properties only, as Handlebars' lookup (no prototype's `constructor` or `__proto__`).
      value = Object.prototype.hasOwnProperty.call(value, key) ? (value as Record<string, unknown>)[key] : undefined;
    }
    const text = value === null || value === undefined ? "" : String(value);
    length += text.length;
    if (length > maxChars) tooLong = true;
    return tooLong ? "" : text;
  });
  return tooLong || other || out.length > maxChars ? null : out;
}
