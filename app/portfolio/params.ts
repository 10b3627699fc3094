import {
  APPLICATION_LIMITS,
  DEFAULT_PORTFOLIO_PAGE_SIZE,
  MAX_RESULT_WINDOW,
  PORTFOLIO_PAGE_SIZES,
  PUBLIC_PORTFOLIO,
  TAG_FORBIDDEN,
} from "@contract/portfolio-constants";
import { hasForbiddenCharacters } from "@contract/limits";

/**
 * The /portfolio URL (spec 2 §2: every choice in it): `qs` the query, `size` results per page, `from` the first
 * result, `tags` one per chosen facet value, `portfolio` 'public' or an organization id; and the screen's own:
 * `more=tags` (the facet's 'show more'), `addTag` / `edit` (the dialog open on an application, without JavaScript),
 * `count=all` (the exact total past TRACK_TOTAL_HITS: the total's 'Count all').
 * Whatever cannot be used falls back to its default, never to an error page; a query the search refuses stays, and
 * the page says why.
 */
export type PortfolioParams = {
  qs: string;
  size: number;
  from: number;
  tags: string[];
  portfolio: string;
  /** Count every match, however many (otherwise "More than 10,000"). */
  countAll: boolean;
  more: boolean;
  addTag: string | null;
  edit: string | null;
};

/**
 * How many applications one selection may tick for a change or an export: each is one upstream change in turn, so a
 * post stays short work (the upstream's ids query would take 1,000).
 */
export const SELECTION_LIMIT = 100;

/** Parameters that only change what the page shows, not what it searches: no new search for them. */
const VIEW_PARAMS = ["more", "addTag", "edit"] as const;

const oneLine = (value: string | null, max: number) => {
  const v = (value ?? "").trim();
  return v.length <= max && !hasForbiddenCharacters(v) ? v : "";
};

export function parsePortfolioParams(search: URLSearchParams): PortfolioParams {
  const sizeParam = Number(search.get("size"));
  const size = (PORTFOLIO_PAGE_SIZES as readonly number[]).includes(sizeParam) ? sizeParam : DEFAULT_PORTFOLIO_PAGE_SIZE;
  const fromParam = Number(search.get("from"));
  const maxFrom = MAX_RESULT_WINDOW - size;
  const from = Number.isInteger(fromParam) && fromParam > 0 ? Math.min(fromParam, maxFrom) : 0;
  const tags: string[] = [];
  for (const raw of search.getAll("tags")) {
    const tag = oneLine(raw, APPLICATION_LIMITS.tag);
    if (tag && !TAG_FORBIDDEN.test(tag) && !tags.includes(tag) && tags.length < APPLICATION_LIMITS.tagFilters) {
      tags.push(tag);
    }
  }
  return {
    // Kept as typed, whatever its length: the loader checks it with the contract's rule and says what is wrong
    // beside the results, the text still in the box (the other parameters fall back to their defaults).
    qs: (search.get("qs") ?? "").trim(),
    size,
    from,
    tags,
    portfolio: oneLine(search.get("portfolio"), APPLICATION_LIMITS.id) || PUBLIC_PORTFOLIO,
    countAll: search.get("count") === "all",
    more: search.get("more") === "tags",
    addTag: oneLine(search.get("addTag"), APPLICATION_LIMITS.id) || null,
    edit: oneLine(search.get("edit"), APPLICATION_LIMITS.id) || null,
  };
}

/** The URL of /portfolio with `params` (defaults left out, so URLs stay short and shareable). */
export function portfolioUrl(params: Partial<PortfolioParams>, path = "/portfolio"): string {
  const search = portfolioSearch(params);
  const s = search.toString();
  return s ? `${path}?${s}` : path;
}

/** /portfolio/{id}, carrying the search `from` it was opened from (its 'Back to the results'). */
export const applicationUrl = (id: string, from: Partial<PortfolioParams>): string =>
  portfolioUrl({ ...from, addTag: null, edit: null, more: false }, `/portfolio/${encodeURIComponent(id)}`);

function portfolioSearch(params: Partial<PortfolioParams>): URLSearchParams {
  const search = new URLSearchParams();
  if (params.qs) search.set("qs", params.qs);
  if (params.portfolio && params.portfolio !== PUBLIC_PORTFOLIO) search.set("portfolio", params.portfolio);
  for (const tag of params.tags ?? []) search.append("tags", tag);
  if (params.size && params.size !== DEFAULT_PORTFOLIO_PAGE_SIZE) search.set("size", String(params.size));
  if (params.from) search.set("from", String(params.from));
  if (params.countAll) search.set("count", "all");
  if (params.more) search.set("more", "tags");
  if (params.addTag) search.set("addTag", params.addTag);
  if (params.edit) search.set("edit", params.edit);
  return search;
}

/**
 * The page's params: the search part from the loader's answer, the view part (VIEW_PARAMS) from the URL shown — a
 * view-only navigation does not run the loader again (`onlyViewChanged`), so its answer may be older than the URL.
 */
export function withViewOf(params: PortfolioParams, search: string): PortfolioParams {
  const view = parsePortfolioParams(new URLSearchParams(search));
  return { ...params, more: view.more, addTag: view.addTag, edit: view.edit };
}

/** The search part only (what a dialog closes back to, what an export exports). */
export const searchOnly = (p: PortfolioParams): PortfolioParams => ({ ...p, addTag: null, edit: null });

/**
 * True for a GET navigation within /portfolio that changes only VIEW_PARAMS (a dialog opened or closed, 'show more'):
 * the results on screen are still the answer, so the loader need not search again.
 */
export function onlyViewChanged(args: { currentUrl: URL; nextUrl: URL; formMethod?: string; actionResult?: unknown }) {
  if (args.formMethod && args.formMethod.toUpperCase() !== "GET") return false;
  if (args.actionResult !== undefined) return false;
  if (args.currentUrl.pathname !== args.nextUrl.pathname) return false;
  const strip = (url: URL) => {
    const search = new URLSearchParams(url.search);
    for (const name of VIEW_PARAMS) search.delete(name);
    search.sort();
    return search.toString();
  };
  return strip(args.currentUrl) === strip(args.nextUrl) && args.currentUrl.search !== args.nextUrl.search;
}
