/** What `shouldRevalidate` is given, the part the layouts read. */
type RevalidateArgs = {
  currentUrl: URL;
  nextUrl: URL;
  formMethod?: string;
  actionResult?: unknown;
};

/**
 * True for a GET navigation that changes only the search params of the page being shown (a list's search, sort,
 * filter or page): the layouts (root, shell) need not load again, only the page's own loader. Anything else — an
 * action, a form post, another page, a reload of the same URL — is not this.
 */
export function onlySearchChanged({ currentUrl, nextUrl, formMethod, actionResult }: RevalidateArgs): boolean {
  if (formMethod && formMethod.toUpperCase() !== "GET") return false;
  if (actionResult !== undefined) return false;
  return currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search;
}
