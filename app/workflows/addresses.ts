/** The URL parameters that open the workflow screens' dialogs (ui/url-dialog): `?clone=id`, `?import=1`. */
export const DIALOG_PARAMS = { clone: "clone", import: "import" } as const;

/**
 * `pathname` with `params` but without the dialogs' parameters (and Remix's `index`): where a dialog's Cancel and an
 * action's answer go back to, the page's own search, sort and page kept.
 */
export function pageAddress(pathname: string, params: URLSearchParams): string {
  const next = new URLSearchParams(params);
  for (const name of [...Object.values(DIALOG_PARAMS), "index"]) next.delete(name);
  const search = next.toString();
  return search ? `${pathname}?${search}` : pathname;
}

/** The workflow list's address (search, sort, page) without a dialog's parameter. */
export const listAddress = (params: URLSearchParams) => pageAddress("/workflows", params);
