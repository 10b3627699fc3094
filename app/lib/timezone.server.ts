import { DEFAULT_TIME_ZONE } from "./format";

/** The browser's time zone, from the `tz` cookie that the client script sets; UTC without it. */
export const TZ_COOKIE = "tz";

const valid = new Map<string, boolean>();

function isTimeZone(name: string): boolean {
  let ok = valid.get(name);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat("en", { timeZone: name });
      ok = true;
    } catch {
      ok = false;
    }
    if (valid.size < 1000) valid.set(name, ok);
  }
  return ok;
}

export function timeZoneOf(request: Request): string {
  const cookie = request.headers.get("Cookie") ?? "";
  const match = /(?:^|;\s*)tz=([^;]+)/.exec(cookie);
  const name = match?.[1] ? decodeURIComponent(match[1]) : "";
  return name && name.length < 64 && isTimeZone(name) ? name : DEFAULT_TIME_ZONE;
}

/** The user setting that holds a user's own time zone (an IANA name such as "America/New_York"). */
export const TIME_ZONE_SETTING = "time_zone";

/**
 * The `tz` cookie for a zone saved in the user's settings, or null: what pages shown without JavaScript use. With
 * JavaScript the browser's own zone replaces it (entry.client.tsx).
 */
export function timeZoneCookie(zone: unknown): string | null {
  if (typeof zone !== "string" || zone.length >= 64 || !isTimeZone(zone)) return null;
  return `${TZ_COOKIE}=${encodeURIComponent(zone)}; Path=/; Max-Age=31536000; SameSite=Lax`;
}
