/**
 * Deadline arithmetic of the docketing rules (docs/decisions/docketing-rules.md): pure functions on calendar
 * dates ("YYYY-MM-DD", no time zone: a deadline is a day, not an instant). No zod here, so screens may use it freely.
 */

/** The units a deadline is counted in, in the order the form offers them. */
export const MEASURES = ["days", "businessDays", "weeks", "months", "years"] as const;
export type Measure = (typeof MEASURES)[number];
export const MEASURE_LABELS: Record<Measure, string> = {
  days: "Days",
  businessDays: "Business Days",
  weeks: "Weeks",
  months: "Months",
  years: "Years",
};

/** A calendar date. */
export type CalendarDate = { year: number; month: number; day: number };

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2024-01-31" → the date; null when not a real calendar date ("2023-02-29"). */
export function parseDate(text: string): CalendarDate | null {
  const m = ISO_DATE.exec(text.trim());
  if (!m) return null;
  const date = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  if (date.year < 1 || date.month < 1 || date.month > 12 || date.day < 1 || date.day > daysInMonth(date.year, date.month)) {
    return null;
  }
  return date;
}

export function formatDate(d: CalendarDate): string {
  return `${String(d.year).padStart(4, "0")}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/** Days since 1970-01-01 (proleptic Gregorian), through UTC so no daylight-saving shift ever moves a day. */
const toDays = (d: CalendarDate) => Math.round(Date.UTC(d.year, d.month - 1, d.day) / 86_400_000);
function fromDays(days: number): CalendarDate {
  const t = new Date(days * 86_400_000);
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

/** 0 Sunday … 6 Saturday. */
const weekday = (d: CalendarDate) => new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
const isWeekend = (d: CalendarDate) => weekday(d) === 0 || weekday(d) === 6;

function addDays(d: CalendarDate, n: number): CalendarDate {
  return fromDays(toDays(d) + n);
}

/**
 * Calendar months later, the day clamped to the target month's last day: 2024-01-31 + 1 month = 2024-02-29, and
 * 2023-01-31 + 1 month = 2023-02-28 (the rule of patent offices: "the day of the month with the same number, or the
 * last day of that month").
 */
export function addMonths(d: CalendarDate, n: number): CalendarDate {
  const index = d.year * 12 + (d.month - 1) + n;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return { year, month, day: Math.min(d.day, daysInMonth(year, month)) };
}

/**
 * `n` business days later: each of the `n` days counted is a Monday to Friday; the trigger day itself is not counted
 * (a Friday + 1 business day = the next Monday; a Saturday + 1 business day = Monday too).
 */
export function addBusinessDays(d: CalendarDate, n: number): CalendarDate {
  // One step per day: amounts are bounded (RULE_LIMITS.amount), and the plain loop is obviously right.
  let day = toDays(d);
  for (let left = n; left > 0; ) {
    day += 1;
    if (!isWeekend(fromDays(day))) left--;
  }
  return fromDays(day);
}

/** `amount` `measure` after `d`. */
export function addPeriod(d: CalendarDate, amount: number, measure: Measure): CalendarDate {
  switch (measure) {
    case "days":
      return addDays(d, amount);
    case "businessDays":
      return addBusinessDays(d, amount);
    case "weeks":
      return addDays(d, amount * 7);
    case "months":
      return addMonths(d, amount);
    case "years":
      return addMonths(d, amount * 12);
  }
}

/** A date falling on a Saturday or Sunday moves to the following Monday (e.g. 35 U.S.C. 21(b)); others stay. */
export function nextBusinessDay(d: CalendarDate): CalendarDate {
  const w = weekday(d);
  return w === 6 ? addDays(d, 2) : w === 0 ? addDays(d, 1) : d;
}

/** What a rule's deadline needs to be computed. */
export type DeadlineSpec = {
  label: string;
  amount: number;
  measure: Measure;
  /** Extensions available after the due date: `times` periods of `amount` `measure` (times 0: none). */
  extension: { times: number; amount: number; measure: Measure };
};

/** A computed deadline: the due date, each extended date, and the last possible date. */
export type ComputedDeadline = { label: string; due: string; extensions: string[]; final: string };

/**
 * The deadlines of a rule for a trigger date. Every period counts from the trigger (the n-th extension ends
 * `amount × n` after the due date, counted again from the trigger so month-end clamping never drifts); with
 * `rollWeekends`, each date on a weekend moves to the following Monday.
 */
export function computeDeadlines(trigger: CalendarDate, deadlines: readonly DeadlineSpec[], rollWeekends: boolean): ComputedDeadline[] {
  const roll = (d: CalendarDate) => formatDate(rollWeekends ? nextBusinessDay(d) : d);
  return deadlines.map((spec) => {
    const dueRaw = addPeriod(trigger, spec.amount, spec.measure);
    const extensions: string[] = [];
    for (let i = 1; i <= spec.extension.times; i++) {
      const extended =
        spec.extension.measure === spec.measure && spec.measure !== "businessDays"
          ? addPeriod(trigger, spec.amount + spec.extension.amount * i, spec.measure)
          : addPeriod(dueRaw, spec.extension.amount * i, spec.extension.measure);
      extensions.push(roll(extended));
    }
    const due = roll(dueRaw);
    return { label: spec.label, due, extensions, final: extensions.at(-1) ?? due };
  });
}
