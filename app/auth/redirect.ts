const PROBE_ORIGIN = "http://x.invalid";
/** Control characters, DEL, backslash, and anything outside Latin-1 (a `Location` header cannot carry it). */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f\\]|[^\u0000-\u00ff]/;

/**
 * A safe place to go back to after signing in: a path on this site, never another origin (an open redirect would send a
 * signed-in user anywhere).
 *
 * Accepted only when the raw text starts with "/", contains no control character, DEL, backslash or non-Latin-1
 * character (browsers strip tabs and newlines and read "\" as "/": `/\t/evil.example` is `//evil.example`; a
 * header cannot carry CR/LF/NUL or non-Latin-1), and, resolved against this origin, stays on it. Else `fallback`.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || UNSAFE.test(to)) return fallback;
  let resolved: URL;
  try {
    resolved = new URL(to, PROBE_ORIGIN);
  } catch {
    return fallback;
  }
  if (resolved.origin !== PROBE_ORIGIN) return fallback;
  if (to.startsWith("/login") || to.startsWith("/logout")) return fallback;
  return to;
}
