import type { AppLoadContext } from "@remix-run/node";
import { ListQuery, type Page } from "@contract/common";
import { resolveSort } from "./prefs.server";

/** Rows per page of every list. */
const LIST_PAGE_SIZE = 25;

/**
 * The query of list `listId` from its URL: search text, page, and the sort (the URL's, remembered in the prefs
 * cookie; else the remembered one; else name). Each bad value falls back to its default instead of failing the page:
 * a search text the upstream refuses (over 200 characters, control characters) searches for nothing, and the list's
 * search box says why (ui/list `searchProblem`); the other params are kept.
 * `setCookie` is the prefs cookie to send when the sort changed.
 */
export async function listQueryOf(
  request: Request,
  context: Pick<AppLoadContext, "cookieSecure">,
  listId: string,
  pageSize = LIST_PAGE_SIZE,
): Promise<{ query: ListQuery; setCookie: string | null }> {
  const url = new URL(request.url);
  const { sort, setCookie } = await resolveSort(request, context, listId);
  const q = ListQuery.shape.q.safeParse(url.searchParams.get("q") ?? undefined);
  const page = ListQuery.shape.page.safeParse(url.searchParams.get("page") ?? undefined);
  const query = ListQuery.parse({
    q: q.success ? q.data : undefined,
    page: page.success ? page.data : undefined,
    sort,
    pageSize,
  });
  return { query, setCookie };
}

/** The last page of `total` rows, `pageSize` a page (1 when there are none). */
export function lastPageOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}

/**
 * One page of a list through `load` (the domain's upstream call). A page beyond the end (an old link, rows deleted
 * since, `?page=999`) is served as the last page, numbered as such, instead of "Page 999 of 2" with no rows: a second
 * call, only then.
 */
export async function loadPage<T>(query: ListQuery, load: (query: ListQuery) => Promise<Page<T>>): Promise<Page<T>> {
  const first = await load(query);
  const last = lastPageOf(first.total, first.pageSize);
  if (query.page <= last) return first;
  if (first.total === 0) return { ...first, page: 1 };
  return load({ ...query, page: last });
}
