/**
 * What the engine evaluates: `{{name}}` placeholders in scopes (spec 3 §9), predicates (OR of ANDs, §2.5),
 * conditional alternatives (the last is the else, §3) and due dates (deadlines.ts's calendar arithmetic plus hours
 * and minutes). Pure functions: the engine passes the scope and the clock.
 */
import { addPeriod, type Measure } from "../../contract/deadlines";
import { type DueAt, PLACEHOLDER, type Predicate, type PredicateGroups } from "../../contract/workflow-contracts";

export type Scope = Record<string, unknown>;

const DAY_MS = 86_400_000;
const CALENDAR: Record<string, Measure> = {
  Days: "days",
  "Business Days": "businessDays",
  Weeks: "weeks",
  Months: "months",
  Years: "years",
};

/** The value at a dotted path of the scope ("milestone.variables.due"); undefined when any part is missing. */
export function lookup(scope: Scope, path: string): unknown {
  let value: unknown = scope;
  for (const part of path.split(".")) {
    if (value === null || typeof value !== "object" || !Object.prototype.hasOwnProperty.call(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** A whole `{{name}}` → its value; anything else as it is. */
export function resolveValue(value: unknown, scope: Scope): unknown {
  if (typeof value !== "string") return value;
  const m = PLACEHOLDER.exec(value.trim());
  return m ? lookup(scope, m[1]!) : value;
}

/** Text with `{{name}}` placeholders inside it filled in (a missing value reads as empty). */
export function interpolate(text: string, scope: Scope): string {
  return text.replace(/\{\{\s*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\}\}/g, (_, path: string) => {
    const v = lookup(scope, path);
    if (v === undefined || v === null) return "";
    return Array.isArray(v) ? v.join(", ") : typeof v === "object" ? JSON.stringify(v) : String(v);
  });
}

/** Milliseconds of an ISO date or date-time (a bare date is midnight UTC); null when not one. */
export function instant(value: unknown): number | null {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(value)) return null;
  const t = Date.parse(value.length === 10 ? `${value}T00:00:00.000Z` : value);
  return Number.isFinite(t) ? t : null;
}

/**
 * A due date from `due` in `scope` at `now` (ms): the base date (`{{now}}`, a variable, an ISO date) plus amount ×
 * measure. Calendar measures move the date (month ends clamped, business days skip weekends) and keep the time of
 * day; Hours and Minutes add time. Limits: at least `daysMin`, at most `daysMax` days after the base; the hour of day
 * (UTC) moved into `hoursMin`..`hoursMax`. Null when the base is not a date.
 */
export function computeDue(due: DueAt, scope: Scope, now: number): string | null {
  const raw = due.date.trim() === "" || /^\{\{\s*now\s*\}\}$/.test(due.date.trim()) ? now : resolveValue(due.date, scope);
  const base = instant(raw);
  if (base === null) return null;
  let t: number;
  if (due.measures === "Hours") t = base + due.amount * 3_600_000;
  else if (due.measures === "Minutes") t = base + due.amount * 60_000;
  else {
    const d = new Date(base);
    const timeOfDay = base - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    const next = addPeriod({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }, due.amount, CALENDAR[due.measures]!);
    t = Date.UTC(next.year, next.month - 1, next.day) + timeOfDay;
  }
  const limits = due.limits;
  if (limits) {
    if (limits.daysMin != null) t = Math.max(t, base + limits.daysMin * DAY_MS);
    if (limits.daysMax != null) t = Math.min(t, base + limits.daysMax * DAY_MS);
    const dayStart = t - (((t % DAY_MS) + DAY_MS) % DAY_MS);
    const hours = (t - dayStart) / 3_600_000;
    if (limits.hoursMin != null && hours < limits.hoursMin) t = dayStart + limits.hoursMin * 3_600_000;
    if (limits.hoursMax != null && hours > limits.hoursMax) t = dayStart + limits.hoursMax * 3_600_000;
  }
  return new Date(t).toISOString();
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);
const lower = (v: unknown) => (typeof v === "string" ? v.toLowerCase() : v);
const scalarEquals = (a: unknown, b: unknown) => {
  if (typeof a === "number" || typeof b === "number") return Number(a) === Number(b) && a !== "" && b !== "";
  if (typeof a === "boolean" || typeof b === "boolean") return String(a) === String(b);
  return a === b;
};

/** One condition against the scope. Unknown functions and missing values are false (never an error mid-event). */
export function evaluatePredicate(p: Predicate, scope: Scope, now: number): boolean {
  const m = PLACEHOLDER.exec(p.field);
  const value = m ? lookup(scope, m[1]!) : undefined;
  const args = p.arguments.map((a) => (typeof a === "object" && a !== null && !Array.isArray(a) ? a : resolveValue(a, scope)));
  const first = args[0];
  const list = args.flatMap((a) => (Array.isArray(a) ? a.map((x) => resolveValue(x, scope)) : [a])).map(lower);
  const values = Array.isArray(value) ? value.map(lower) : [lower(value)];
  const dateArg = () => {
    if (first && typeof first === "object" && !Array.isArray(first)) return instant(computeDue(first as DueAt, scope, now));
    return instant(first);
  };
  switch (p.function) {
    case "equals":
      return Array.isArray(value) ? value.some((v) => scalarEquals(v, first)) : scalarEquals(value, first);
    case "notEquals":
      return !(Array.isArray(value) ? value.some((v) => scalarEquals(v, first)) : scalarEquals(value, first));
    case "contains": {
      const needle = String(first ?? "").toLowerCase();
      return values.some((v) => typeof v === "string" && v.includes(needle));
    }
    case "startsWith": {
      const needle = String(first ?? "").toLowerCase();
      return values.some((v) => typeof v === "string" && v.startsWith(needle));
    }
    case "in":
      return !isEmpty(value) && values.some((v) => list.some((x) => scalarEquals(v, x)));
    case "notIn":
      return !values.some((v) => list.some((x) => scalarEquals(v, x)));
    case "greaterThan":
      return !isEmpty(value) && Number(value) > Number(first);
    case "lessThan":
      return !isEmpty(value) && Number(value) < Number(first);
    case "before":
    case "after": {
      const a = instant(value);
      const b = dateArg();
      if (a === null || b === null) return false;
      return p.function === "before" ? a < b : a > b;
    }
    case "isEmpty":
      return isEmpty(value);
    case "isNotEmpty":
      return !isEmpty(value);
    case "isTrue":
      return value === true || value === "true";
    case "isFalse":
      return value === false || value === "false";
    default:
      return false;
  }
}

/** OR between groups, AND inside one; no group at all is true. */
export function matches(groups: PredicateGroups, scope: Scope, now: number): boolean {
  if (!groups.length) return true;
  return groups.some((group) => group.every((p) => evaluatePredicate(p, scope, now)));
}

type Alternative<T> = { predicates: PredicateGroups; value: T };
const isAlternatives = <T>(v: unknown): v is Alternative<T>[] =>
  Array.isArray(v) && v.length > 0 && v.every((a) => a !== null && typeof a === "object" && "value" in (a as object) && "predicates" in (a as object));

/** A conditional field's value: the first alternative whose predicates hold, the last one being the else. */
export function resolveConditional<T>(field: T | Alternative<T>[] | undefined, scope: Scope, now: number): T | undefined {
  if (field === undefined) return undefined;
  if (!isAlternatives<T>(field)) return field;
  for (let i = 0; i < field.length - 1; i++) if (matches(field[i]!.predicates, scope, now)) return field[i]!.value;
  return field[field.length - 1]!.value;
}

/** Assignees: people as given, `{{…}}` variables resolved (a variable may hold one person or a list); no duplicates. */
export function resolvePeople(assignees: readonly string[], scope: Scope): string[] {
  const out: string[] = [];
  for (const a of assignees) {
    const v = resolveValue(a, scope);
    for (const p of Array.isArray(v) ? v : [v]) {
      if (typeof p === "string" && p.trim() && !PLACEHOLDER.test(p.trim())) out.push(p.trim().toLowerCase());
      else if (p && typeof p === "object" && typeof (p as { email?: unknown }).email === "string") out.push((p as { email: string }).email.toLowerCase());
    }
  }
  return [...new Set(out)];
}
