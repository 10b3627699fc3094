import { useCallback, useEffect, useRef, useState } from "react";

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

/**
 * A JSON resource route read by a component (a search as the user types, choices loaded on a click) — a plain fetch,
 * not a fetcher: Remix revalidates a fetcher's load after any action by matching its path against the routes known
 * then, and one to a route the page has not discovered yet matched the catch-all, whose error replaced the page
 * (docs/decisions/lazy-route-discovery.md). A newer load aborts the older one, and leaving the page aborts it.
 * `load` answers the data, or `undefined` when aborted, refused or offline; `data` keeps the last answer.
 */
export function useJsonLoad<T>() {
  const [data, setData] = useState<T>();
  const [loading, setLoading] = useState(false);
  const current = useRef<AbortController | null>(null);
  useEffect(() => () => current.current?.abort(), []);
  const load = useCallback(async (url: string): Promise<T | undefined> => {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    setLoading(true);
    try {
      const next = await fetchJson<T>(url, controller.signal);
      if (controller.signal.aborted) return undefined;
      setData(next);
      return next;
    } catch {
      // Aborted by a newer load or by leaving, refused, or offline: what was shown stays.
      return undefined;
    } finally {
      if (current.current === controller) {
        current.current = null;
        setLoading(false);
      }
    }
  }, []);
  return { data, loading, load };
}
