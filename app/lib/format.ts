const formatters = new Map<string, Intl.DateTimeFormat>();

/** "21 Nov 2026, 19:22" in the user's time zone; "—" for nothing. */
export function formatDateTime(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "—";
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone });
    formatters.set(timeZone, f);
  }
  return f.format(date);
}

/** "1 user", "3 users". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}
