import { NO_VALUE } from "~/ui/no-value";

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      year: "numeric",
      month: "long",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      hour12: true,
      timeZone,
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** What the product shows for no value (an em dash): dates here, and a list's empty cells. */
export { NO_VALUE };

/**
 * The one date format of the product (spec 3 §9, US-English long format): "November 22, 2026, 10:30 AM" in the
 * user's time zone; NO_VALUE for nothing. Assembled from the parts, so the ICU version's joiner (" at ", ", ") and its
 * narrow no-break space before AM/PM never leak into the page or the tests.
 */
export function formatDateTime(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return NO_VALUE;
  const key = `${timeZone} ${iso}`;
  const known = formatted.get(key);
  if (known !== undefined) return known;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return NO_VALUE;
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const p of formatterFor(timeZone).formatToParts(date)) parts[p.type] = p.value;
  // A page shown before the browser told its zone (without JavaScript, and no zone saved in the user's settings)
  // is in UTC: it says so, since a docket's day can differ from the reader's.
  const zone = timeZone === DEFAULT_TIME_ZONE ? ` ${DEFAULT_TIME_ZONE}` : "";
  const text = `${parts.month} ${parts.day}, ${parts.year}, ${parts.hour}:${parts.minute} ${parts.dayPeriod}${zone}`;
  // Lists show the same records page after page, and formatToParts showed in a list page's CPU profile. Bounded.
  if (formatted.size >= FORMATTED_MAX) formatted.delete(formatted.keys().next().value as string);
  formatted.set(key, text);
  return text;
}

/** The zone of dates when the user's is not known. */
export const DEFAULT_TIME_ZONE = "UTC";

const dateOnly = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

/**
 * A calendar date ("2026-01-06", no time of day: an audit date, a due date) in the product's long format: "January 6,
 * 2026". It names a day, not an instant, so no time zone moves it. Anything else as it is; NO_VALUE for nothing.
 */
export function formatDate(day: string | null | undefined): string {
  if (!day) return NO_VALUE;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return Number.isNaN(date.getTime()) ? day : dateOnly.format(date);
}

const FORMATTED_MAX = 5_000;
const formatted = new Map<string, string>();

/**
 * A score as the product shows it (relevance, broad and detectable scores, tag and product scores): at most three
 * decimals; a score that would round to zero but is not zero keeps its first significant digit ("0.000002", not
 * "0") — a word in most applications gets a relevance of ~0.000002 (bm25's smallest IDF), which is a match, not
 * none. `empty` for no score.
 */
export function formatScore(n: number | null | undefined, empty: string = NO_VALUE): string {
  if (n === null || n === undefined || Number.isNaN(n)) return empty;
  const rounded = Math.round(n * 1000) / 1000;
  if (rounded !== 0 || n === 0) return String(rounded === 0 ? 0 : rounded);
  const digits = Math.min(20, -Math.floor(Math.log10(Math.abs(n))));
  const small = n.toFixed(digits);
  return Number(small) === 0 ? "0" : small;
}

/** "1 user", "3 users". */
function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

/** A file size for people: "812 bytes", "14.2 KB", "48.7 MB" (1 KB = 1024 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return plural(bytes, "byte");
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toLocaleString("en-US", { maximumFractionDigits: 1 })} ${units[unit]}`;
}
