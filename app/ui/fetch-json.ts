/**
 * A GET of JSON from the page's own server for a poll (the queues' auto-refresh, categorization's progress): with the
 * session's cookie; anything but a 200 JSON answer (an error, a redirect such as an ended session's to /login, an
 * HTML page) throws.
 */
export async function fetchJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(url, { signal, headers: { Accept: "application/json" }, credentials: "same-origin" });
  if (!res.ok || res.headers.has("X-Remix-Redirect") || !res.headers.get("content-type")?.includes("json")) throw new Error(String(res.status));
  return (await res.json()) as T;
}
