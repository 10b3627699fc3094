import type { AppLoadContext } from "@remix-run/node";
import type { z } from "zod";
import { ErrorBody } from "@contract/common";

/** A non-2xx answer of the upstream (spec 1 §8: any status below 200 or above 300 is a failure). */
export class UpstreamError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Headers,
    /** The answer's JSON body, when it had one: a refusal may say more than its message (a chain's problems). */
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = "UpstreamError";
  }
}

export type CallOptions = {
  /** Query parameters; undefined and empty values are left out. */
  query?: Record<string, string | number | undefined>;
  body?: unknown;
};

/** The upstream as one signed-in user (or nobody) sees it: every call carries the bearer token and time zone. */
export type Api = ReturnType<typeof createApi>;

export type ApiAuth = {
  token?: string;
  timeZone?: string;
  /**
   * Sees every failed call before it is thrown, and may throw something else instead: the signed-in API (guard.server.ts)
   * turns a 401 into the sign-in redirect, so every loader and action treats a revoked session as signed out.
   */
  onError?: (error: UpstreamError) => Promise<void>;
};

export function createApi(context: Pick<AppLoadContext, "upstream" | "clientAddress">, auth: ApiAuth) {
  async function send(method: string, path: string, options: CallOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { accept: "application/json", "x-client-address": context.clientAddress };
    if (auth.token) headers.authorization = `Bearer ${auth.token}`;
    if (auth.timeZone) headers["x-timezone"] = auth.timeZone;
    let body: string | FormData | undefined;
    if (options.body instanceof FormData) {
      body = options.body;
    } else if (options.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.body);
    }
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(options.query ?? {})) {
      if (v !== undefined && v !== "") search.set(k, String(v));
    }
    const target = search.size ? `${path}?${search}` : path;
    const direct = context.upstream.direct;
    // In-process: the load context is the scope, so the upstream establishes this page request's identity once.
    if (direct) return direct({ method, path: target, headers, body, scope: context });
    return context.upstream(target, { method, headers, body });
  }

  async function call(method: string, path: string, options?: CallOptions): Promise<Response> {
    const result = await send(method, path, options);
    if (result.status < 200 || result.status > 300) {
      const error = await toError(result);
      await auth.onError?.(error);
      throw error;
    }
    return result;
  }

  async function json<S extends z.ZodTypeAny>(
    schema: S,
    method: string,
    path: string,
    options?: CallOptions,
  ): Promise<z.infer<S>> {
    const data: unknown = await (await call(method, path, options)).json();
    return schema.parse(data);
  }

  return {
    /** The raw response, for streams and downloads. */
    raw: call,
    get: <S extends z.ZodTypeAny>(schema: S, path: string, query?: CallOptions["query"]) =>
      json(schema, "GET", path, { query }),
    post: <S extends z.ZodTypeAny>(schema: S, path: string, body?: unknown) => json(schema, "POST", path, { body }),
    put: <S extends z.ZodTypeAny>(schema: S, path: string, body?: unknown) => json(schema, "PUT", path, { body }),
    patch: <S extends z.ZodTypeAny>(schema: S, path: string, body?: unknown) => json(schema, "PATCH", path, { body }),
    /** A call whose answer has no body worth reading (204, or ignored). */
    send: async (method: "POST" | "PUT" | "PATCH" | "DELETE", path: string, body?: unknown) => {
      await call(method, path, { body });
    },
    text: async (path: string) => (await call("GET", path)).text(),
  };
}

async function toError(response: Response): Promise<UpstreamError> {
  let message = `Upstream answered ${response.status}`;
  let body: unknown = null;
  try {
    if (response.statusText) message = response.statusText;
    body = await response.json();
    const parsed = ErrorBody.safeParse(body);
    if (parsed.success) message = parsed.data.message;
  } catch {
    // Not JSON: keep the status text.
  }
  return new UpstreamError(response.status, message, response.headers, body);
}

export function isUpstreamError(error: unknown, status?: number): error is UpstreamError {
  return error instanceof UpstreamError && (status === undefined || error.status === status);
}
