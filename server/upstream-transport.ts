/**
 * How the back office reaches its upstream (docs/decisions/in-process-upstream.md): the two transports behind
 * `AppLoadContext.upstream`, made in one place so server.ts and the tests (tests/contract/upstream-transport.test.ts)
 * wire exactly the same thing.
 */
import type { UpstreamFetch } from "~/lib/context";
import type { Upstream } from "../upstream/src/app";

/**
 * The embedded upstream, in-process: `direct` is what the app's clients (createApi, resourceClient…) take; the plain
 * function stays for callers that want a Response (single sign-on, tests setting up data).
 */
export function embeddedTransport(up: Upstream): UpstreamFetch {
  return Object.assign(
    (p: string, init?: RequestInit) => up.fetch(new Request(`http://upstream.internal${p}`, init), { trusted: true }),
    { direct: up.direct },
  );
}

/** An upstream elsewhere (UPSTREAM_URL): every call over HTTP. */
export function httpTransport(upstreamUrl: string): UpstreamFetch {
  const base = upstreamUrl.replace(/\/+$/, "");
  return (p, init) => fetch(`${base}${p}`, init);
}
