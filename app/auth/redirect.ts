/** A safe place to go back to after signing in: a path on this site, never another origin. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  if (to.startsWith("/login") || to.startsWith("/logout")) return fallback;
  return to;
}
