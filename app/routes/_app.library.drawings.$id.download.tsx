import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRoute } from "~/auth/guard.server";
import { libraryApi } from "~/library/library.server";
import { LIBRARY } from "~/library/texts";
import { downloadOrBack } from "~/lib/download.server";

/**
 * A drawing's file from the library (spec 3 §7's token flow): a short-lived token for this drawing, then its content
 * with `authToken`, streamed to the browser; the session's token never goes into a URL. A refusal returns to the
 * library with the failure toast.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { api } = await requireRoute(args);
  const id = args.params.id ?? "";
  const back = `/library?id=${encodeURIComponent(id)}`;
  return downloadOrBack(args, back, LIBRARY.downloadFailed, async () => {
    const { token } = await libraryApi.drawingToken(api, id);
    return api.raw("GET", `/api/drawings/${encodeURIComponent(id)}/content`, { query: { authToken: token } });
  });
}
