import { z } from "zod";
import { LIMIT_MESSAGES, TEXT_LIMITS, hasForbiddenCharacters } from "./limits";

export * from "./limits";

/**
 * `base` bounded to `max` characters, refusing control characters (tab allowed; line feed and carriage return too
 * when `multiline`). `label` names the field in the messages ("Name must be at most 200 characters."). Checks run in
 * the order given: put `.trim()` and `.min()` on `base` first.
 */
export function limitText(base: z.ZodString, label: string, max: number, options: { multiline?: boolean } = {}) {
  return base
    .max(max, LIMIT_MESSAGES.tooLong(label, max))
    .refine((value) => !hasForbiddenCharacters(value, options.multiline), LIMIT_MESSAGES.badCharacters(label));
}

/** A plain bounded text field of the contract (no trimming, may be empty). */
export const boundedText = (label: string, max: number, options: { multiline?: boolean } = {}) =>
  limitText(z.string(), label, max, options);

/** An array of at most `max` items ("At most 50 tags."). */
export const boundedList = <T extends z.ZodTypeAny>(item: T, things: string, max: number) =>
  z.array(item).max(max, LIMIT_MESSAGES.tooMany(things, max));

/** Every error answer of the upstream: `{ "message": "..." }` with a 4xx/5xx status. */
export const ErrorBody = z.object({ message: z.string() });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Sort options every list offers (spec 1 §4, §9). */
export const SORTS = ["name", "newest", "oldest"] as const;
export const Sort = z.enum(SORTS);
export type Sort = z.infer<typeof Sort>;

/** Query of every paginated collection: `?q=&sort=&page=&pageSize=`. */
export const ListQuery = z.object({
  q: limitText(z.string().trim(), "Search text", TEXT_LIMITS.search).optional().default(""),
  sort: Sort.optional().default("name"),
  page: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  pageSize: z.coerce.number().int().min(1).max(200).optional().default(25),
});
export type ListQuery = z.infer<typeof ListQuery>;
export type ListQueryInput = z.input<typeof ListQuery>;

/** One page of a collection. */
export function pageOf<T extends z.ZodTypeAny>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int().nonnegative(),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
  });
}
export type Page<T> = { items: T[]; total: number; page: number; pageSize: number };

/** Audit fields every stored record carries. Ids are strings, timestamps ISO 8601. */
export const Audit = z.object({
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
