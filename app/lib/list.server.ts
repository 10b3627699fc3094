import type { AppLoadContext } from "@remix-run/node";
import { ListQuery } from "../../upstream/contract/common";
import { resolveSort } from "./prefs.server";

/** Rows per page of every list. */
export const LIST_PAGE_SIZE = 25;

/**
 * The query of list `listId` from its URL: search text, page, and the sort (the URL's, remembered in the prefs
 * cookie; else the remembered one; else name). Bad values fall back to the defaults instead of failing the page.
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
  const parsed = ListQuery.safeParse({
    q: url.searchParams.get("q") ?? undefined,
    page: url.searchParams.get("page") ?? undefined,
    sort,
    pageSize,
  });
  return { query: parsed.success ? parsed.data : ListQuery.parse({ sort, pageSize }), setCookie };
}
