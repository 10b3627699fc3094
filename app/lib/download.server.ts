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
