/**
 * The in-process path into the upstream (docs/decisions/in-process-upstream.md).
 *
 * The back office and the embedded upstream share a process. Over `fetch` each call builds an undici Request, and
 * the upstream verifies the bearer token and loads its user on every call. `DirectUpstream` dispatches into the same Hono app — same routing, same
 * middleware, same permission checks, same handlers, so every domain mounted in app.ts gets it without doing anything —
 * but:
 * - a GET/HEAD travels as a light Request (method, URL and headers; a real Request only if something reads more);
 * - the caller's identity (token → session → user and permissions) is established once per `scope` (one page
 *   request) and reused by its later calls; any call that may change something (not GET/HEAD) forgets it, so the next
 *   call establishes it again. The token is still read on every call and must be the same one; the permission checks
 *   (requirePermission) run on every call as over HTTP.
 * Request bodies stay JSON text (writes are rare; the byte limits and body parsing stay the HTTP path's).
 */
import type { Actor, UpstreamEnv } from "./http";

type DirectCall = {
  method: string;
  /** Path and query string, starting with /api/. */
  path: string;
  /** Request headers, lower-case names. */
  headers: Record<string, string>;
  /** A JSON text (with `content-type: application/json`) or a multipart form; none for GET/HEAD. */
  body?: string | FormData;
  /**
   * One object per page request (the back office passes its load context): the caller's identity is established
   * once within it. Held weakly: nothing outlives the request.
   */
  scope?: object;
};

export type DirectUpstream = (call: DirectCall) => Promise<Response>;

/** What one page request's identity is, once established: the token it was established for and its actor. */
type IdentityMemo = { token?: string; actor?: Actor };

/** The per-call state the dispatcher hands the app through its env (`UpstreamEnv.direct`). */
export type DirectState = {
  identity?: IdentityMemo;
};

const SAFE = new Set(["GET", "HEAD"]);
const ORIGIN = "http://upstream.internal";

/**
 * A GET/HEAD request without the cost of an undici Request: method, url and headers are plain; anything else (signal,
 * body, clone…) builds the real Request on first use. `instanceof Request` holds.
 */
class LightRequest {
  readonly #method: string;
  readonly #url: string;
  readonly #init: Record<string, string>;
  #headers: Headers | undefined;
  #real: Request | undefined;
  constructor(method: string, url: string, init: Record<string, string>) {
    this.#method = method;
    this.#url = url;
    this.#init = init;
  }
  get method(): string {
    return this.#method;
  }
  get url(): string {
    return this.#url;
  }
  get headers(): Headers {
    return (this.#headers ??= new Headers(this.#init));
  }
  real(): Request {
    return (this.#real ??= new Request(this.#url, { method: this.#method, headers: this.headers }));
  }
}
Object.setPrototypeOf(LightRequest.prototype, Request.prototype);
for (const key of ["body", "bodyUsed", "signal", "cache", "credentials", "destination", "integrity", "keepalive"]
  .concat(["mode", "redirect", "referrer", "referrerPolicy", "duplex"])) {
  Object.defineProperty(LightRequest.prototype, key, {
    get(this: LightRequest) {
      return (this.real() as unknown as Record<string, unknown>)[key];
    },
  });
}
for (const key of ["arrayBuffer", "blob", "bytes", "clone", "formData", "json", "text"]) {
  Object.defineProperty(LightRequest.prototype, key, {
    value(this: LightRequest) {
      const real = this.real() as unknown as Record<string, () => unknown>;
      return real[key]!.call(real);
    },
  });
}

/** The in-process dispatcher over the Hono app's `fetch`. */
export function directUpstream(fetch: (request: Request, env: UpstreamEnv) => Promise<Response>): DirectUpstream {
  const identities = new WeakMap<object, IdentityMemo>();
  return async (call) => {
    let identity: IdentityMemo | undefined;
    if (call.scope) {
      identity = identities.get(call.scope);
      if (!identity) identities.set(call.scope, (identity = {}));
    }
    const safe = SAFE.has(call.method);
    const state: DirectState = { identity };
    const url = `${ORIGIN}${call.path}`;
    const request =
      safe && call.body === undefined
        ? (new LightRequest(call.method, url, call.headers) as unknown as Request)
        : new Request(url, { method: call.method, headers: call.headers, body: call.body });
    try {
      return await fetch(request, { trusted: true, direct: state });
    } finally {
      // A write may have changed who the caller is (permissions, log out): the next call establishes it again.
      if (identity && !safe) identity.actor = undefined;
    }
  };
}
