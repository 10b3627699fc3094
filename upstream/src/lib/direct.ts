/**
 * The in-process path into the upstream (docs/decisions/in-process-upstream.md).
 *
 * The back office and the embedded upstream share a process. Over `fetch` each call builds an undici Request, a
 * Response with a JSON text, reads that text back through a stream and parses it, and the upstream verifies the bearer
 * token and loads its user on every call. `DirectUpstream` dispatches into the same Hono app — same routing, same
 * middleware, same permission checks, same handlers, so every domain mounted in app.ts gets it without doing anything —
 * but:
 * - a GET/HEAD travels as a light Request (method, URL and headers; a real Request only if something reads more);
 * - an answer made with `c.json(value)` comes back as that value (no JSON text written and parsed again);
 * - the caller's identity (token → session → user and permissions) is established once per `scope` (one page
 *   request) and reused by its later calls; any call that may change something (not GET/HEAD) forgets it, so the next
 *   call establishes it again. The token is still read on every call and must be the same one; the permission checks
 *   (requirePermission) run on every call as over HTTP.
 * Request bodies stay JSON text (writes are rare; the byte limits and body parsing stay the HTTP path's).
 */
import { isDeepStrictEqual } from "node:util";
import type { MiddlewareHandler } from "hono";
import type { Actor, AppContext, AppEnv, UpstreamEnv } from "./http";

export type DirectCall = {
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

export type DirectAnswer = {
  status: number;
  /** The answer's headers (made on first use). */
  readonly headers: Headers;
  /** True when the answer is a JSON value handed over as is: read `value`, not `response()`. */
  hasValue: boolean;
  /** The JSON answer as a value; the caller must not change it (schemas copy what they parse). */
  value: unknown;
  /** The answer as a Response (a JSON value is written out on demand): streams, downloads, texts. */
  response(): Response;
};

export type DirectUpstream = (call: DirectCall) => Promise<DirectAnswer>;

/** What one page request's identity is, once established: the token it was established for and its actor. */
export type IdentityMemo = { token?: string; actor?: Actor };

/** The per-call state the dispatcher hands the app through its env (`UpstreamEnv.direct`). */
export type DirectState = {
  identity?: IdentityMemo;
  /** Check every value is plain JSON (what the HTTP path would deliver): development and tests. */
  check: boolean;
  /** The last `c.json` of this call: its value and the (bodiless) response that stands for it. */
  answered?: { value: unknown; response: Response };
};

const SAFE = new Set(["GET", "HEAD"]);
const ORIGIN = "http://upstream.internal";

/**
 * Installed first in the app: on an in-process call `c.json(value)` answers a bodiless response and records the value
 * for the dispatcher instead of writing JSON. Over HTTP (no `direct` in the env) it does nothing.
 */
export function directValues(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const direct = c.env?.direct;
    if (direct) {
      const json = ((value: unknown, arg?: number | ResponseInit, headers?: Record<string, string | string[]>) => {
        if (direct.check) assertPlainJson(value, `${c.req.method} ${c.req.path}`);
        const respond = c.newResponse as (data: null, arg?: unknown, headers?: Record<string, string | string[]>) => Response;
        const response = respond(null, arg, { ...headers, "content-type": "application/json" });
        direct.answered = { value, response };
        return response;
      }) as unknown as typeof c.json;
      c.json = json;
    }
    await next();
  };
}

/**
 * A JSON answer the handler can also write as text itself (a search's, from the rows as read): in process the value,
 * handed over as it is (`c.json` above); over HTTP `text()`, which must be JSON.stringify's text of that value.
 */
export async function jsonValueOrText(c: AppContext, value: () => Promise<unknown>, text: () => Promise<string>): Promise<Response> {
  if (c.env?.direct) return c.json(await value());
  return c.body(await text(), 200, { "content-type": "application/json" });
}

/** Throws when `value` would not survive JSON unchanged (a Date, undefined, a class instance, NaN…). */
export function assertPlainJson(value: unknown, where: string): void {
  const text = JSON.stringify(value);
  const copy: unknown = text === undefined ? undefined : JSON.parse(text);
  if (!isDeepStrictEqual(copy, value)) {
    throw new Error(`${where}: the answer is not plain JSON (it would differ over HTTP): ${text?.slice(0, 200)}`);
  }
}

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
export function directUpstream(
  fetch: (request: Request, env: UpstreamEnv) => Promise<Response>,
  options: { check: boolean },
): DirectUpstream {
  const identities = new WeakMap<object, IdentityMemo>();
  return async (call) => {
    let identity: IdentityMemo | undefined;
    if (call.scope) {
      identity = identities.get(call.scope);
      if (!identity) identities.set(call.scope, (identity = {}));
    }
    const safe = SAFE.has(call.method);
    const state: DirectState = { identity, check: options.check };
    const url = `${ORIGIN}${call.path}`;
    const request =
      safe && call.body === undefined
        ? (new LightRequest(call.method, url, call.headers) as unknown as Request)
        : new Request(url, { method: call.method, headers: call.headers, body: call.body });
    let response: Response;
    try {
      response = await fetch(request, { trusted: true, direct: state });
    } finally {
      // A write may have changed who the caller is (permissions, log out): the next call establishes it again.
      if (identity && !safe) identity.actor = undefined;
    }
    const answered = state.answered;
    if (answered && (response === answered.response || isBodilessJson(response))) {
      const value = answered.value;
      const { status } = response;
      return {
        status,
        get headers() {
          return response.headers;
        },
        hasValue: true,
        value,
        response: () => new Response(JSON.stringify(value), { status, headers: response.headers }),
      };
    }
    return {
      status: response.status,
      get headers() {
        return response.headers;
      },
      hasValue: false,
      value: undefined,
      response: () => response,
    };
  };
}

/** A response Hono copied after `c.json` (it re-wraps when a middleware touched `c.res` first): same bodiless JSON. */
function isBodilessJson(response: Response): boolean {
  return response.body === null && /^application\/json/i.test(response.headers.get("content-type") ?? "");
}
