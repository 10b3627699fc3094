import { z } from "zod";

/**
 * Inventions (spec 3 §3 Context, §7 `GET /api/inventions/search?qs={text}&size=25`): the portfolio's applications as
 * the chains see them, read from the chains' corpus (docs/decisions/chain-query.md). An invention is one application:
 * its `id` and its only reference are the application's id, its title the application's title.
 */
export const INVENTION_SEARCH = {
  /** Spec 3 §9: the search runs 300 ms after typing stops, 25 to a page. */
  debounceMs: 300,
  size: 25,
  /** Longest search text read (longer is cut), and most words matched. */
  maxText: 200,
  maxWords: 8,
  /** Deepest page: `from` beyond it is refused. */
  maxFrom: 10_000,
} as const;

export const Invention = z.object({
  id: z.string(),
  title: z.string(),
  /** The application ids the invention stands for (here: its own id). A query link reads them as `:references`. */
  references: z.array(z.string()),
});
export type Invention = z.infer<typeof Invention>;

export const InventionSearchQuery = z.object({
  qs: z.string().default("").transform((s) => s.slice(0, INVENTION_SEARCH.maxText)),
  size: z.coerce.number().int().min(1).max(100).default(INVENTION_SEARCH.size),
  from: z.coerce.number().int().min(0).max(INVENTION_SEARCH.maxFrom).default(0),
});

/** The answer: a page of inventions, best matches first, and how many match in all. */
export const InventionSearchAnswer = z.object({
  data: z.array(Invention),
  total: z.number().int().nonnegative(),
  size: z.number().int(),
  from: z.number().int(),
});
export type InventionSearchAnswer = z.infer<typeof InventionSearchAnswer>;
