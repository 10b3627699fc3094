/**
 * The processing, USPTO and FIP dashboards' contract (spec 2 §3-§5, §7, §9): statuses, sorts, constants,
 * id extraction, cron and duration rules with the spec's messages. No zod at the top so texts can be imported cheaply;
 * the request schemas are at the bottom.
 */
import { z } from "zod";

export const PROCESSING_STATUSES = ["queued", "requeued", "inprogress", "failed", "completed", "dead"] as const;
export const USPTO_STATUSES = [...PROCESSING_STATUSES, "delete", "warning"] as const;
export type QueueStatus = (typeof USPTO_STATUSES)[number];
export const DEFAULT_STATUS_FILTER: readonly QueueStatus[] = ["inprogress", "failed"];

export const PROCESSING_SORTS = ["status", "newest", "oldest"] as const;
export const USPTO_SORTS = ["status", "newest", "oldest", "priority"] as const;
export type QueueSort = (typeof USPTO_SORTS)[number];
export const FIP_SORTS = ["asc", "desc"] as const;
export type FipSort = (typeof FIP_SORTS)[number];
export const FIP_FILTERS = ["synchronized", "failed"] as const;
export type FipFilter = (typeof FIP_FILTERS)[number];

export const QUEUE_CONSTANTS = {
  processingPageSize: 20,
  usptoPageSize: 20,
  fipPageSize: 20,
  processingRefreshMs: 30_000,
  usptoRefreshMs: 30_000,
  fipRefreshMs: 60_000,
  /** At most this many ids in one schedule request. */
  maxSchedule: 1_000,
  /** A pasted text longer than this is refused. */
  maxScheduleText: 100_000,
  maxPriority: 1_000_000,
  /** The longest search for an application id (the longest id is 40 characters). */
  maxSearch: 40,
  /** At most this many rows in one bulk action (a page is 20). */
  maxSelected: 100,
  defaultCron: "* * * * *",
  /** Configuration defaults (ms). The spec gives no values: docs/decisions/job-queue.md. */
  defaultRequestTimeoutMs: 60_000,
  defaultDownloadRepeatMs: 5 * 60_000,
  defaultTooManyRequestsDelayMs: 60_000,
  /** Longest accepted duration: 30 days. */
  maxDurationMs: 30 * 24 * 3_600_000,
  maxTimeoutMinutes: 60,
} as const;

// ---------------------------------------------------------------- id extraction (spec 2 §5)
const PROCESSING_PCT = /PCT\/?[A-Z]{2}\d{2,4}\/?\d{5,6}/gi;
const USPTO_PCT = /PCT\/[A-Z]{2}\d{2}\/\d{5,6}/gi;
const DIGITS = /\d{6,}/g;

function extract(text: string, pct: RegExp): string[] {
  const found: string[] = [];
  const rest = text.replace(pct, (m) => {
    found.push(m.toUpperCase());
    return " ";
  });
  for (const m of rest.matchAll(DIGITS)) found.push(m[0]);
  return [...new Set(found)];
}

/** Processing screen: PCT-style (PCT, two letters, 2-4 digits, 5-6 digits) or any run of 6+ digits, deduplicated. */
export const extractProcessingIds = (text: string) => extract(text, PROCESSING_PCT);
/** USPTO screen: PCT/xx00/00000-style or 6+ digits, deduplicated. */
export const extractUsptoIds = (text: string) => extract(text, USPTO_PCT);

// ---------------------------------------------------------------- cron (spec 2 §5)
export const CRON_FIELDS = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12 },
  { name: "day of week", min: 0, max: 6 },
] as const;
/**
 * The spec asks for at least 5 fields and names five. The scheduler (croner) also runs six fields, a leading second
 * (the usual node-cron/croner form), and seven, second first and year last; past seven it cannot run the expression,
 * so that bound is ours.
 */
const SECOND_FIELD = { name: "second", min: 0, max: 59 } as const;
const YEAR_FIELD = { name: "year", min: 1970, max: 2099 } as const;
const CRON_MAX_FIELDS = 7;

const CRON_MESSAGES = {
  fields: "Cron expression must have at least 5 fields",
  tooMany: `Cron expression must have at most ${CRON_MAX_FIELDS} fields`,
  invalid: (field: string, value: string) => `Invalid ${field}: ${value}`,
  empty: "Please enter a valid cron expression",
} as const;

/** The five named fields of an expression (minute … day of week), whatever its second and year fields. */
export function cronNamedParts(expression: string): string[] {
  const parts = expression.trim().split(/\s+/);
  return parts.length >= 6 ? parts.slice(1, 6) : parts;
}

function validItem(item: string, min: number, max: number): boolean {
  const [range, step, ...extra] = item.split("/");
  if (extra.length || range === undefined) return false;
  if (step !== undefined && (!/^\d{1,4}$/.test(step) || Number(step) < 1 || Number(step) > max)) return false;
  if (range === "*") return true;
  const bounds = range.split("-");
  if (bounds.length > 2 || !bounds.every((b) => /^\d{1,4}$/.test(b))) return false;
  const [a, b] = bounds.map(Number) as [number, number?];
  if (a < min || a > max) return false;
  return b === undefined || (b >= a && b <= max);
}

/** The spec's message for the first problem of `expression`, or null when valid (lists, ranges and steps). */
export function cronError(expression: string): string | null {
  const text = expression.trim();
  if (!text) return CRON_MESSAGES.empty;
  const parts = text.split(/\s+/);
  if (parts.length < 5) return CRON_MESSAGES.fields;
  if (parts.length > CRON_MAX_FIELDS) return CRON_MESSAGES.tooMany;
  const fields = [...(parts.length >= 6 ? [SECOND_FIELD] : []), ...CRON_FIELDS, ...(parts.length === 7 ? [YEAR_FIELD] : [])];
  for (const [i, field] of fields.entries()) {
    const value = parts[i]!;
    if (!value.split(",").every((item) => validItem(item, field.min, field.max))) return CRON_MESSAGES.invalid(field.name, value);
  }
  return null;
}

// ---------------------------------------------------------------- durations (spec 2 §5, §9)
const DURATION_MESSAGES = {
  unit: "Add time unit: d (days), h (hours), m (minutes), s (seconds)",
  format: "Invalid format. Use: 1d 2h 30m 15s",
  tooLong: "At most 30 days.",
  none: "No delay",
} as const;

const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000 } as const;
type Unit = keyof typeof UNIT_MS;

/** '1d 2h 30m 15s' → ms; '' → 0 (no delay). Each unit at most once, in any order. */
export function parseDuration(text: string): { ms: number } | { error: string } {
  const t = text.trim().toLowerCase();
  if (!t) return { ms: 0 };
  if (/^\d+(\.\d+)?$/.test(t)) return { error: DURATION_MESSAGES.unit };
  const tokens = t.match(/\d+\s*[dhms]|\S/g) ?? [];
  const seen = new Set<string>();
  let ms = 0;
  for (const token of tokens) {
    const m = /^(\d+)\s*([dhms])$/.exec(token);
    if (!m || seen.has(m[2]!) || m[1]!.length > 6) return { error: DURATION_MESSAGES.format };
    seen.add(m[2]!);
    ms += Number(m[1]) * UNIT_MS[m[2] as Unit];
  }
  if (ms > QUEUE_CONSTANTS.maxDurationMs) return { error: DURATION_MESSAGES.tooLong };
  return { ms };
}

/** ms → '1d 2h 30m 15s' (zero parts left out); 0 → 'No delay'. Below a second rounds to seconds. */
export function formatDuration(ms: number): string {
  let rest = Math.round(ms / 1000);
  if (rest <= 0) return DURATION_MESSAGES.none;
  const parts: string[] = [];
  for (const [unit, size] of [["d", 86_400], ["h", 3_600], ["m", 60], ["s", 1]] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n) parts.push(`${n}${unit}`);
  }
  return parts.join(" ");
}

/** Duration presets (spec 2 §9): none, 30 s, 1, 5, 10, 15, 30 min, 1, 2, 4, 8, 12 h, 1 d, 2 d, 1 week. */
export const DURATION_PRESETS: readonly { label: string; ms: number }[] = [
  { label: "None", ms: 0 },
  { label: "30 seconds", ms: 30_000 },
  ...[1, 5, 10, 15, 30].map((m) => ({ label: m === 1 ? "1 minute" : `${m} minutes`, ms: m * 60_000 })),
  ...[1, 2, 4, 8, 12].map((h) => ({ label: h === 1 ? "1 hour" : `${h} hours`, ms: h * 3_600_000 })),
  { label: "1 day", ms: 86_400_000 },
  { label: "2 days", ms: 2 * 86_400_000 },
  { label: "1 week", ms: 7 * 86_400_000 },
];

/** Request time-out: shown in ms, sent as minutes, rounded (spec 2 §7); at least 1 minute. */
export const timeoutMinutes = (ms: number) => Math.max(1, Math.round(ms / 60_000));

// ---------------------------------------------------------------- request bodies (spec 2 §7)
const Id = z.string().trim().min(1).max(40).regex(/^[A-Za-z0-9/]+$/, "Ids are letters, digits and slashes.");
export const ScheduleBody = z.object({ applications: z.array(Id).min(1, "Add at least one application.").max(QUEUE_CONSTANTS.maxSchedule) });
export const PriorityBody = z.object({ priority: z.coerce.number().int().min(-QUEUE_CONSTANTS.maxPriority).max(QUEUE_CONSTANTS.maxPriority) });
/** The dashboards' search: part of an application id. */
export const QueueSearch = z.string().trim().max(QUEUE_CONSTANTS.maxSearch).default("");
export const SortedBody = z.object({
  skip: z.coerce.number().int().min(0).max(10_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  status: z.array(z.enum(USPTO_STATUSES)).max(USPTO_STATUSES.length).default([]),
  isUnmatched: z.boolean().default(false),
  sort: z.enum(USPTO_SORTS).default("status"),
  q: QueueSearch,
});
export const FipSortedBody = z.object({
  skip: z.coerce.number().int().min(0).max(10_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  status: z.array(z.enum(FIP_FILTERS)).max(2).default([...FIP_FILTERS]),
  sort: z.enum(FIP_SORTS).default("asc"),
});
export const CronBody = z.object({ newCron: z.string().max(200) });
export const TimeoutBody = z.object({ timeoutMinutes: z.number().int().min(1).max(QUEUE_CONSTANTS.maxTimeoutMinutes) });
export const IntervalBody = z.object({ intervalMs: z.number().int().min(0).max(QUEUE_CONSTANTS.maxDurationMs) });
export const DelayBody = z.object({ delayMs: z.number().int().min(0).max(QUEUE_CONSTANTS.maxDurationMs) });

// ---------------------------------------------------------------- answers
export type QueueItem = {
  id: string;
  status: QueueStatus;
  priority: number;
  attempts: number;
  createdAt: string;
  updatedAt: string;
  message: string | null;
  stack: string | null;
  customerNumber: string | null;
  applicationChangedAt: string | null;
  isUnmatched: boolean;
};
export type QueueCollection = {
  data: QueueItem[];
  total: number;
  size: number;
  from: number;
  aggs: Record<QueueStatus, number>;
  aggsCustomers: { customerNumber: string; counts: Partial<Record<QueueStatus, number>>; total: number }[];
  active: boolean;
  toDelete: number;
  syncInProgress: boolean;
  jobs: number;
  /** The missing setting's message when the adapter is not configured, else null. */
  missing: string | null;
};
type ConfigValue = { current: number; default: number };
export type UsptoConfig = {
  schedule: { current: string; default: string; nextRuns: string[] };
  requestTimeout: ConfigValue;
  downloadRepeat: ConfigValue;
  tooManyRequestsDelay: ConfigValue;
};
export type FipRecord = {
  id: string;
  matterNumber: string;
  fipId: string;
  fipAuditDate: string | null;
  synchronized: boolean;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  matterUrl: string | null;
};
export type FipCollection = { data: FipRecord[]; total: number; aggs: { failed: number; synchronized: number }; missing: string | null };
export type CustomerSyncResult = { updated: number; skipped: number; errors: string[] };
