import type { AppLoadContext } from "@remix-run/node";
import { failureToast } from "./actions.server";
import { toasts } from "./toast.server";

/** What a download passes on from the upstream's answer: what the bytes are, how many, and the file's name. */
const PASSED_ON = ["content-type", "content-length", "content-disposition", "last-modified", "etag"] as const;

/**
 * A resource route's answer that streams an upstream download to the browser as it arrives (never buffered here),
 * with the upstream's content type, length and file name, never cached by shared caches and never sniffed.
 */
export function streamDownload(upstream: Response): Response {
  const headers = new Headers({ "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff" });
  for (const name of PASSED_ON) {
    const value = upstream.headers.get(name);
    if (value) headers.set(name, value);
  }
  if (!headers.has("content-disposition")) headers.set("Content-Disposition", "attachment");
  return new Response(upstream.body, { status: 200, headers });
}

/**
 * A download that never strands the user on a bare error page (a file link, an export's link). A download runs as a
 * navigation: its answer either becomes a file (the page stays as it was) or replaces the page. So a refusal answers
 * with a redirect back to `back` (the page the link is on, whose URL holds everything it shows) carrying the failure
 * toast. Thrown Responses (sign-in, the not-found view for a missing permission) pass as they are.
 *
 * A download from a form with unsaved input must not even get here on a refusal: it is checked by the page's action
 * first and only a checked export becomes a link (categorization's download CSV).
 */
export async function downloadOrBack(
  args: { request: Request; context: AppLoadContext },
  back: string,
  failedTitle: string,
  start: () => Promise<Response>,
): Promise<Response> {
  try {
    return streamDownload(await start());
  } catch (error) {
    const toast = failureToast(failedTitle, error);
    return toasts(args.context).redirectWithError(back, { message: toast.message, description: toast.description });
  }
}
