import type { Context, MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import type { z } from "zod";
import { ListQuery, can, type Permission } from "../../contract";
import type { DirectState } from "./direct";

/** The signed-in user a request acts for, as the database holds it NOW (not as the token remembers it). */
export type Actor = {
  id: string;
  email: string;
  permissions: string[];
  /** The session of the bearer token that authenticated this request (log out revokes it). */
  sessionId?: string;
};

/**
 * What the caller passes as `fetch(request, env)`. `trusted`: the back office calling in-process on behalf of a
 * browser, allowed to name the browser's address in `X-Client-Address`. `clientAddress`: the socket's peer address.
 * `direct`: set by the in-process dispatcher only (lib/direct.ts).
 */
export type UpstreamEnv = { trusted?: boolean; clientAddress?: string; direct?: DirectState };

/** Hono environment of every upstream route. `Bindings` is what the caller passes as `fetch(request, env)`. */
export type AppEnv = { Bindings: UpstreamEnv | undefined; Variables: { actor: Actor } };
export type AppContext = Context<AppEnv>;

/** Throw from a handler to answer `{ message }` with `status`. */
export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 429 | 503 | 507,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

/**
 * What a write refused or failed for its storage says (upstream/README.md, Health). No path in them: they go to API
 * clients; the operator finds DATA_DIR in the server's log and in `/healthz`.
 */
export const STORAGE_MESSAGES = {
  /** 507: SQLite's SQLITE_FULL, or ENOSPC/EDQUOT from a file write. */
  full: "Insufficient storage: the disk holding the server's data is full, so nothing was saved. Free some space and try again.",
  /** 503: the database file, or its write-ahead log, is no longer the one the server opened. */
  lost:
    "The server's database file was deleted or replaced while the server was running, so nothing can be saved: restart the server.",
  /** 503: SQLite or the file system refuses to write (a read-only connection or mount). */
  readOnly: "The server's data cannot be written (read-only), so nothing was saved: make DATA_DIR writable and restart the server.",
} as const;

const FULL_CODES = new Set(["SQLITE_FULL", "ENOSPC", "EDQUOT"]);

/** The error's code (SQLite's or the errno name), or that of the error it wraps. */
function codeOf(error: unknown): string {
  const own = (error as { code?: unknown } | null)?.code;
  if (typeof own === "string") return own;
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof cause === "string" ? cause : "";
}

/** A write failed because the disk (or SQLite's size bound) is full. */
export const isStorageFull = (error: unknown): boolean => FULL_CODES.has(codeOf(error));

/** A failure of the storage under a request, as the HTTP error to answer; null for anything else. */
function storageError(error: unknown): HttpError | null {
  const code = codeOf(error);
  if (FULL_CODES.has(code)) return new HttpError(507, STORAGE_MESSAGES.full);
  if (code === "EROFS" || code.startsWith("SQLITE_READONLY")) return new HttpError(503, STORAGE_MESSAGES.readOnly);
  return null;
}

/**
 * The one place an error thrown by a route becomes an answer (the app's `onError`): an HttpError as it says, a storage
 * failure as 507/503 with its message (logged in one line: the operator must act), anything else a logged 500.
 */
export function errorResponse(c: AppContext, error: Error, log: (msg: string) => void): Response {
  const where = `${c.req.method} ${new URL(c.req.url).pathname}`;
  let known = error instanceof HttpError ? error : null;
  if (!known) {
    known = storageError(error);
    if (known) log(`upstream: ${where} failed: ${codeOf(error)}: ${error.message}`);
  }
  if (known) {
    for (const [name, value] of Object.entries(known.headers)) c.header(name, value);
    return c.json({ message: known.message, ...known.extra }, known.status);
  }
  log(`upstream: ${where} failed: ${error.stack ?? String(error)}`);
  return c.json({ message: "Internal server error" }, 500);
}

/** A 400 message naming the field: "email: Email has invalid format". */
export function fieldMessage(path: readonly (string | number)[], message: string): string {
  return path.length ? `${path.join(".")}: ${message}` : message;
}

function zodMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? fieldMessage(issue.path, issue.message) : "Invalid request";
}

const MAX_JSON_BYTES = 1024 * 1024;

/**
 * Reads the raw JSON body (any JSON value); 400 when it is not JSON, 413 when over `maxBytes` (1 MiB unless the
 * route's body limit in body-limit.ts allows more, as for an import string).
 */
export async function readJson(c: AppContext, maxBytes = MAX_JSON_BYTES): Promise<unknown> {
  const text = await c.req.text();
  if (Buffer.byteLength(text) > maxBytes) throw new HttpError(413, "Request body is too large.");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest("Request body must be JSON");
  }
}

/** Parses `raw` with `schema`; 400 naming the first bad field. */
export function validate<S extends z.ZodTypeAny>(schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw);
  if (!result.success) throw badRequest(zodMessage(result.error));
  return result.data as z.output<S>;
}

/** Reads and validates the JSON body (at most `maxBytes`, as readJson); 400 naming the first bad field. */
export async function jsonBody<S extends z.ZodTypeAny>(c: AppContext, schema: S, maxBytes?: number): Promise<z.output<S>> {
  return validate(schema, await readJson(c, maxBytes));
}

/** Validates `?q=&sort=&page=&pageSize=` with the contract's ListQuery; 400 on bad values. */
export function listQuery(c: AppContext): ListQuery {
  return validate(ListQuery, c.req.query());
}

/** The client address for rate limiting: `X-Client-Address` only from a trusted (in-process) caller. */
export function clientAddress(c: AppContext): string | undefined {
  const env = c.env;
  if (env?.trusted) {
    const header = c.req.header("x-client-address")?.trim();
    if (header) return header;
  }
  return env?.clientAddress || undefined;
}

/** `Authorization: Bearer <token>` → the token, else null. Cookies are never read. */
function bearerToken(c: AppContext): string | null {
  const header = c.req.header("authorization");
  const match = header ? /^Bearer[ ]+([^\s]+)\s*$/i.exec(header) : null;
  return match?.[1] ?? null;
}

/**
 * Authentication middleware: a valid, unexpired bearer token whose session is still active (not revoked by log out,
 * a password change or a permission removal) and whose user still exists, else 401. `loadActor` is one prepared
 * primary-key lookup of the session joined to its user; it sets `actor` from the database (current permissions), so
 * revoking a permission takes effect on the next request. In-process (lib/direct.ts) the actor is established once per
 * page request for the same token and reused by its later calls until one of them writes.
 */
export function bearerAuth(
  verify: (token: string) => { sub: string; sid: string } | null,
  loadActor: (payload: { sub: string; sid: string }) => Actor | null,
): MiddlewareHandler<AppEnv> {
  return createMiddleware<AppEnv>(async (c, next) => {
    const token = bearerToken(c);
    const memo = c.env?.direct?.identity;
    if (memo?.actor && token !== null && memo.token === token) {
      c.set("actor", memo.actor);
      return next();
    }
    const payload = token ? verify(token) : null;
    const actor = payload ? loadActor(payload) : null;
    if (!actor) throw new HttpError(401, "Authentication required.");
    if (memo) {
      memo.token = token!;
      memo.actor = actor;
    }
    c.set("actor", actor);
    await next();
  });
}

/** 403 unless the actor's current permissions grant `permission` (exactly or by its first segment). */
export function requirePermission(permission: Permission): MiddlewareHandler<AppEnv> {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!can(c.get("actor").permissions, permission)) {
      throw new HttpError(403, `You do not have the permission ${permission}.`);
    }
    await next();
  });
}

/** 403 unless the actor holds one of `permissions` (an endpoint that two kinds of work share). */
export function requireAny(...permissions: readonly Permission[]): MiddlewareHandler<AppEnv> {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!permissions.some((p) => can(c.get("actor").permissions, p))) {
      throw new HttpError(403, `You do not have the permission ${permissions.join(" or ")}.`);
    }
    await next();
  });
}

/** ISO 8601 timestamp from the upstream's clock. */
export function isoNow(now: () => number): string {
  return new Date(now()).toISOString();
}
