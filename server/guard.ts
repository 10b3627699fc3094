/**
 * The one gate for every page request with a body (every non-GET/HEAD request outside `/api`), before Remix, conform
 * or zod see it (docs/decisions/request-guard.md):
 *
 * 1. same origin (CSRF), the SAML assertion consumer service excepted → 403;
 * 2. body size by route, Content-Length first, then counted while reading → 413 without reading past the limit; a
 *    body past PAGE_BODY_LIMIT is first judged from its headers (signed in, holding the route's permission: else the
 *    app's own answer, the body never read), then reserves its size from the uploads held at once (`room`), waiting
 *    its turn, → 503 when its turn does not come in time;
 * 3. a form body only: urlencoded or multipart (an empty body counts as an empty form) → 415 / 400;
 * 4. field count, field names (conform's path syntax, each list's index by its own maximum, depth, length) and
 *    conform's `__intent__`/`__state__` → 400.
 *
 * The checked body is kept in `res.locals` and handed to Remix by server/remix-adapter.ts. GET and HEAD pass untouched.
 */
import { MAX_MODEL_BYTES } from "@contract/forms";
import { MAX_BACKUP_BYTES } from "@contract/template-storage";
import { MAX_TEMPLATE_BYTES } from "@contract/templates";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { MAX_INSTALLER_BYTES } from "@contract/application-crawler";
import { MAX_SCRIPT_BYTES } from "@contract/bots";
import { MAX_DOCUMENT_BYTES } from "@contract/nlp";
import { CSV_IMPORT_LIMITS } from "@contract/portfolio-constants";
import { can, type Permission } from "@contract/permissions";
import { APPLICATION_LIMITS } from "@contract/portfolio-constants";
import { RULE_LIMITS } from "@contract/rules";
import { API_BODY_LIMIT, API_UPLOAD_LIMITS } from "../upstream/src/lib/body-limit";
import { matchRoute, type RouteEntry } from "~/lib/routes";
import { readMultipart } from "../upstream/src/lib/multipart";
import { ByteBudget } from "./byte-budget";

const MB = 1024 * 1024;

/** Every page body, unless PAGE_UPLOAD_LIMITS says otherwise. */
export const PAGE_BODY_LIMIT = 1 * MB;

export const FORM_LIMITS = {
  /** Fields (urlencoded pairs, multipart parts) per body. The largest form today has a few dozen. */
  fields: 1000,
  /**
   * The largest `[N]` of a list that PAGE_LIST_LIMITS does not name (conform builds an array of N + 1 slots). Forms
   * post such lists as repeated names (`organizations=a&organizations=b`), never by index: this only bounds scripts.
   */
  index: 20,
  /** Path segments in a field name (`a.b[0].c` is 4). */
  depth: 16,
  /** Characters in a field name. */
  nameLength: 1000,
} as const;

/**
 * The lists a page's form posts row by row (`deadlines[3].label`), by the route table's path (app/lib/routes.ts): each
 * bounded by its own schema's maximum. For `[N]` conform builds N + 1 slots, the schema checks each and the page
 * renders each again: `deadlines[999]` cost seconds of the event loop and ~150 MB. The index may reach the maximum
 * itself (one row too many), so that a form with one row too many gets the schema's own "at most" message. A list not
 * named here takes FORM_LIMITS.index at most.
 */
export const PAGE_LIST_LIMITS: Partial<Record<RouteEntry["path"], Readonly<Record<string, number>>>> = {
  "/rules/create": { deadlines: RULE_LIMITS.deadlines },
  "/rules/:id/edit": { deadlines: RULE_LIMITS.deadlines },
  // The edit-fields dialog's products (app/portfolio/schema.ts EditFieldsSchema).
  "/portfolio": { products: APPLICATION_LIMITS.products },
};

/** The list maxima of the form posted to `path` (PAGE_LIST_LIMITS by its route table entry). */
export function listLimitsOf(path: string): Readonly<Record<string, number>> {
  const entry = matchRoute(path);
  return (entry && PAGE_LIST_LIMITS[entry.path]) ?? {};
}

/**
 * The upload routes, by their documented limits (the file plus what the same form posts with it). `writes`: the
 * route's action checks the route table's `write` permission before anything else (requireWrite), so a large body
 * from someone without it is refused before it is read; otherwise the table's `permission` is checked.
 */
export const PAGE_UPLOAD_LIMITS: readonly { path: RegExp; bytes: number; what: string; writes?: true }[] = [
  {
    // The specification workbench (multipart): a .docx of MAX_DOCUMENT_BYTES (posted once: later posts name the kept
    // upload by its id), the template and a few fields. The route answers a too-large file with its field message.
    path: /^\/specifications\/(?!create\/?$)[^/]+\/?$/,
    bytes: MAX_DOCUMENT_BYTES + 1 * MB,
    what: "A specification's sample document",
  },
  {
    // A bot's script upload (multipart): MAX_SCRIPT_BYTES plus the form's fields.
    path: /^\/people\/(?!new\/?$)[^/]+\/?$/,
    bytes: MAX_SCRIPT_BYTES + 1 * MB,
    what: "A bot script upload",
  },
  // A Word, Visio or drawing template's file (create or edit) with the form's fields.
  {
    path: /^\/(documents\/(word|visio)|drawings)\/(create|[^/]+\/edit)\/?$/,
    bytes: MAX_TEMPLATE_BYTES + 1 * MB,
    what: "A template upload",
    writes: true,
  },
  // A form's form file and model file with the form's fields.
  {
    path: /^\/forms\/(create|[^/]+\/edit)\/?$/,
    bytes: MAX_TEMPLATE_BYTES + MAX_MODEL_BYTES + 1 * MB,
    what: "A form upload",
    writes: true,
  },
  // A template-storage backup to import.
  { path: /^\/administration\/template-storage\/?$/, bytes: MAX_BACKUP_BYTES + 1 * MB, what: "A backup upload", writes: true },
  {
    // The portfolio's CSV import (multipart): a file of CSV_IMPORT_LIMITS.bytes plus the form's fields.
    path: /^\/portfolio\/import\/?$/,
    bytes: CSV_IMPORT_LIMITS.bytes + 1 * MB,
    what: "A portfolio CSV import",
    writes: true,
  },
  {
    // The Application Crawler's installer upload on the applications page (multipart): the file, its
    // version and the intent.
    path: /^\/applications\/?$/,
    bytes: MAX_INSTALLER_BYTES + 1 * MB,
    what: "An installer upload",
    writes: true,
  },
];

/** Cross-site by design: the SAML IdP posts the assertion here (it has its own InResponseTo and replay checks). */
export const CSRF_EXEMPT: ReadonlySet<string> = new Set(["/saml-callback.html"]);

export function bodyLimitOf(path: string): { bytes: number; what: string; writes?: true } {
  return PAGE_UPLOAD_LIMITS.find((u) => u.path.test(path)) ?? { bytes: PAGE_BODY_LIMIT, what: "A form" };
}

// ---------------------------------------------------------------- same origin

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * Whether a request with a body comes from `expected` (an origin). Browsers send `Origin` on every POST (ours sends
 * the real one: Referrer-Policy strict-origin-when-cross-origin); `Origin: null` passes only with
 * `Sec-Fetch-Site: same-origin`. Without Origin: `Sec-Fetch-Site` must be same-origin or none; without both, the
 * Referer's origin must match. A request with none of the three is not from a browser that a foreign page could
 * drive (every browser that can be made to post cross-site sends at least Origin or Sec-Fetch-Site): accepted, so
 * curl and scripts keep working.
 */
export function isSameOrigin(headers: ExpressRequest["headers"], expected: string): boolean {
  const origin = headers.origin;
  const site = headers["sec-fetch-site"];
  if (origin !== undefined) {
    if (origin === "null") return site === "same-origin";
    return originOf(origin) === expected;
  }
  if (site !== undefined) return site === "same-origin" || site === "none";
  const referer = headers.referer;
  if (referer !== undefined) return originOf(referer) === expected;
  return true;
}

// ---------------------------------------------------------------- form bodies

export type Checked =
  | { ok: true; body: Buffer; contentType: string }
  | { ok: false; status: 400 | 413 | 415; message: string };

const URLENCODED = "application/x-www-form-urlencoded";
const TOKEN = /([^.[\]]+)|\[(\d*)\]/g;

/** A list's maxima by its path, indexes written `[]` (`deadlines`, `a[].b`): PAGE_LIST_LIMITS' entries. */
export type ListLimits = Readonly<Record<string, number>>;

/** The largest index `list` may take: its own maximum, else FORM_LIMITS.index. */
const maxIndexOf = (list: string, lists: ListLimits) => (Object.hasOwn(lists, list) ? lists[list]! : FORM_LIMITS.index);

const indexAbove = (list: string, max: number) => `A field name has an index above ${max}, the most "${list}" takes.`;

/**
 * Why conform could not take this field name, or null: the syntax conform's parsePath accepts (it throws, a 500, on
 * anything else), no `__proto__`/`constructor`, no index above its list's maximum (`lists`, else FORM_LIMITS.index),
 * no deeper than FORM_LIMITS.depth.
 */
export function fieldNameProblem(name: string, lists: ListLimits = {}): string | null {
  if (name.length > FORM_LIMITS.nameLength) return `A field name is longer than ${FORM_LIMITS.nameLength} characters.`;
  const token = new RegExp(TOKEN);
  let last = 0;
  let depth = 0;
  let list = "";
  let match: RegExpExecArray | null;
  while ((match = token.exec(name))) {
    if (match.index !== last && !(match.index === last + 1 && name[last] === ".")) return "A field name is malformed.";
    const [, key, index] = match;
    if (key === "__proto__" || key === "constructor") return "A field name is malformed.";
    if (index) {
      const max = maxIndexOf(list, lists);
      if (index.length > 6 || Number(index) > max) return indexAbove(list, max);
    }
    if (++depth > FORM_LIMITS.depth) return `A field name is nested deeper than ${FORM_LIMITS.depth} levels.`;
    list += key === undefined ? "[]" : list === "" ? key : `.${key}`;
    last = token.lastIndex;
  }
  if (last !== name.length) return "A field name is malformed.";
  return null;
}

/** conform's reserved fields: a list or field operation posted by a button (JSON), and its client state (JSON). */
const INTENT = "__intent__";
const STATE = "__state__";
const INTENT_UNREADABLE = "The form's intent cannot be read.";

/**
 * Why conform could not take this `__intent__`, or null. conform parses it as JSON (a 500 when it is not) and then
 * applies it to the form before the schema runs: `update`/`reset` set the field `name` (with `[index]` when given),
 * `insert`/`remove`/`reorder` splice the list `name` at `index`/`from`/`to`. So the names are checked as field names
 * and the positions against the list's own maximum, as for fields.
 */
export function intentProblem(value: string, lists: ListLimits = {}): string | null {
  let intent: unknown;
  try {
    intent = JSON.parse(value);
  } catch {
    return INTENT_UNREADABLE;
  }
  if (typeof intent !== "object" || intent === null) return INTENT_UNREADABLE;
  const { type, payload } = intent as { type?: unknown; payload?: unknown };
  if (typeof type !== "string" || typeof payload !== "object" || payload === null) return INTENT_UNREADABLE;
  const { name = "", index, from, to } = payload as Record<string, unknown>;
  if (typeof name !== "string") return INTENT_UNREADABLE;
  const problem = fieldNameProblem(name, lists);
  if (problem) return problem;
  // The list the positions index: `name` itself, with any index in it written `[]`.
  const list = name.replace(/\[\d*\]/g, "[]");
  const max = maxIndexOf(list, lists);
  for (const position of [index, from, to]) {
    if (position === undefined) continue;
    if (!Number.isSafeInteger(position) || (position as number) < 0) return INTENT_UNREADABLE;
    if ((position as number) > max) return indexAbove(list, max);
  }
  return null;
}

/** Fields as both parsers give them: names in order, and the values of one name. */
type Fields = { keys(): Iterable<string>; getAll(name: string): (string | File)[] };

function checkFields(fields: Fields, lists: ListLimits): Checked | null {
  let count = 0;
  for (const name of fields.keys()) {
    if (++count > FORM_LIMITS.fields) return tooManyFields;
    const problem = fieldNameProblem(name, lists);
    if (problem) return { ok: false, status: 400, message: problem };
  }
  // conform reads the first of each (a File there is a 500 in conform).
  const [intent] = fields.getAll(INTENT);
  if (intent !== undefined) {
    const problem = typeof intent === "string" ? intentProblem(intent, lists) : INTENT_UNREADABLE;
    if (problem) return { ok: false, status: 400, message: problem };
  }
  const [state] = fields.getAll(STATE);
  if (state !== undefined && (typeof state !== "string" || !isJson(state))) {
    return { ok: false, status: 400, message: "The form's state cannot be read." };
  }
  return null;
}

const tooManyFields: Checked = { ok: false, status: 400, message: `A form may have at most ${FORM_LIMITS.fields} fields.` };

function occurrences(body: Buffer, needle: Buffer | number, max: number): number {
  let count = 0;
  for (let at = body.indexOf(needle); at !== -1 && count <= max; at = body.indexOf(needle, at + 1)) count++;
  return count;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A page body as a form: urlencoded (kept as sent) or multipart (parsed by the reader the routes use, readMultipart,
 * so every route reads a well-formed body). An empty body is an
 * empty urlencoded form, whatever its type. Anything else: 415. Fields are counted before anything is parsed; list
 * indexes are bounded by `lists` (the route's, `listLimitsOf`).
 */
export async function checkForm(body: Buffer, contentType: string | undefined, lists: ListLimits = {}): Promise<Checked> {
  if (body.byteLength === 0) return { ok: true, body, contentType: URLENCODED };
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === URLENCODED) {
    if (occurrences(body, 0x26, FORM_LIMITS.fields) >= FORM_LIMITS.fields) return tooManyFields;
    const refused = checkFields(new URLSearchParams(body.toString("utf8")), lists);
    return refused ?? { ok: true, body, contentType: contentType! };
  }
  if (type === "multipart/form-data") {
    const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType!);
    if (!boundary) return { ok: false, status: 400, message: "The multipart body has no boundary." };
    const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
    if (occurrences(body, delimiter, FORM_LIMITS.fields + 1) > FORM_LIMITS.fields + 1) return tooManyFields;
    let form: FormData;
    try {
      // The routes' own reader (readForm): parsed a slice at a time, so a large upload never holds the event loop.
      form = await readMultipart(body, contentType, { parts: FORM_LIMITS.fields + 1 });
    } catch {
      return { ok: false, status: 400, message: "The multipart body cannot be read." };
    }
    const refused = checkFields(form, lists);
    if (refused) return refused;
    // Kept as sent: every route reads it with the reader that has just read it.
    return { ok: true, body, contentType: contentType! };
  }
  return {
    ok: false,
    status: 415,
    message: "Pages accept forms only: application/x-www-form-urlencoded or multipart/form-data.",
  };
}

// ---------------------------------------------------------------- the middleware

const BODY = Symbol("guarded body");
type Locals = { [BODY]?: { body: Buffer; contentType: string } };

/** The body the guard read and checked, for the Remix adapter; undefined when the guard did not run. */
export function guardedBody(res: ExpressResponse): { body: Buffer; contentType: string } | undefined {
  return (res.locals as Locals)[BODY];
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A short answer: a small page for a browser, plain text otherwise. */
function refuse(req: ExpressRequest, res: ExpressResponse, status: number, title: string, message: string) {
  res.status(status);
  res.setHeader("Cache-Control", "no-store");
  if (req.accepts(["text/plain", "text/html"]) === "text/html" && !req.originalUrl.includes("_data=")) {
    const t = escapeHtml(title);
    res.type("text/html").send(
      `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${t} · Backoffice</title>` +
        `<main><h1>${t}</h1><p>${escapeHtml(message)}</p><p><a href="/">Back to Backoffice</a></p></main></html>`,
    );
  } else {
    res.type("text/plain").send(`${title}: ${message}`);
  }
}

/**
 * After a 413, what the rest of the body may still cost before the connection is closed (nginx's lingering close:
 * `lingering_timeout` 5 s between reads, `lingering_time` 30 s in all): a slow or busy client gets its answer, and
 * no connection costs more than `bytes` read and dropped or `totalMs`.
 */
export const LINGER = { idleMs: 5_000, totalMs: 30_000, bytes: 16 * MB } as const;

/**
 * Answer 413 without keeping anything of the body. Closing the socket at once would reset it while the client is
 * still sending, and most clients then lose the answer (EPIPE/ECONNRESET): the answer says `Connection: close`, and
 * the close is a lingering one. Node's server closes a connection whose answer says so with `socket.destroySoon()`
 * (a FIN after the answer, then the socket is destroyed and what the client still sends is answered with a reset):
 * for this connection it sends the FIN and goes on reading and dropping the rest of the body within LINGER, then
 * destroys the socket. The connection is never reused, whether the client asked for keep-alive or not.
 */
function tooLarge(req: ExpressRequest, res: ExpressResponse, limit: { bytes: number; what: string }) {
  closeAfterAnswer(req, res);
  refuse(req, res, 413, "Request too large", `${limit.what} may be at most ${Math.round((limit.bytes / MB) * 10) / 10} MB.`);
}

/** Before an answer to a body not read (or still coming): the lingering close above. */
function closeAfterAnswer(req: ExpressRequest, res: ExpressResponse) {
  if (!req.readableEnded) lingerAfterAnswer(req);
  res.setHeader("Connection", "close");
}

/**
 * For a handler that may answer before it has read the whole body: the embedded upstream answers 413 as soon as a
 * chunked body passes its limit, and 401 or 403 before reading a body at all. When the answer's head goes out while
 * the body is still coming (`req.complete` false), the close is the lingering one above, as for the pages' 413. The
 * handler has given up on the body by then, so its reader's `data` listener goes (the upstream's web-stream adapter
 * would keep each chunk and pause the socket after it, stalling the drain). A body already received in full is left
 * to Node, which drops it and keeps the connection.
 */
export function lingerIfAnsweredEarly(req: ExpressRequest, res: ExpressResponse): void {
  if (req.method === "GET" || req.method === "HEAD") return;
  const writeHead = res.writeHead;
  res.writeHead = function (this: ExpressResponse, ...args: Parameters<typeof writeHead>) {
    res.writeHead = writeHead;
    if (!req.complete) {
      req.removeAllListeners("data");
      closeAfterAnswer(req, res);
    }
    return writeHead.apply(this, args);
  } as typeof writeHead;
}

export const UPLOADS_BUSY = "The server is receiving other large uploads. Try again in a minute.";

/**
 * One budget for the whole server: the pages' uploads and the API's (`createFormGuard`, `createApiUploadGuard`), of
 * UPLOAD_BUDGET_MB, each upload waiting at most UPLOAD_WAIT_SECONDS (app/lib/config.server.ts, their defaults).
 */
export type UploadRoom = { budget: ByteBudget; waitMs: number };

export function uploadRoom(settings: { bytes: number; waitMs: number }): UploadRoom {
  return { budget: new ByteBudget(settings.bytes), waitMs: settings.waitMs };
}

/**
 * Reserves `bytes` of the room before a body is read, given back when the answer has gone. False when the request
 * is over: the client left while waiting, or its turn did not come (then `busy` answered, with `Retry-After`).
 */
async function holdRoom(req: ExpressRequest, res: ExpressResponse, room: UploadRoom, bytes: number, busy: () => void): Promise<boolean> {
  const gone = new AbortController();
  res.once("close", () => gone.abort());
  const release = await room.budget.acquire(bytes, room.waitMs, gone.signal);
  if (gone.signal.aborted) {
    release?.();
    return false;
  }
  if (!release) {
    closeAfterAnswer(req, res);
    res.setHeader("Retry-After", String(Math.ceil(room.waitMs / 1000)));
    busy();
    return false;
  }
  res.once("close", release);
  return true;
}

/** Whether a body may pass `small` bytes: declared so, or not declared at all (chunked). */
const mayBeLarge = (req: ExpressRequest, small: number) =>
  req.headers["content-length"] === undefined ? req.headers["transfer-encoding"] !== undefined : Number(req.headers["content-length"]) > small;

/**
 * The API's uploads (`/api`, bearer tokens: the embedded upstream's own limits apply after) take their room from the
 * same budget as the pages': a body past API_BODY_LIMIT reserves its declared size, or its route's limit when
 * undeclared (one declared past that limit is the upstream's to refuse, unread, without room). Before that, `uploadRefusal` (the upstream's: Upstream.uploadRefusal) judges the token and the
 * permission from the headers; its refusal (401, 403) is sent as it is, the body never read nor given room. The
 * budget's refusal is the API's too: JSON `{ message }`.
 */
export function createApiUploadGuard(room: UploadRoom, uploadRefusal?: (request: Request) => Promise<Response | null>) {
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction): void => {
    if (req.method === "GET" || req.method === "HEAD" || !mayBeLarge(req, API_BODY_LIMIT)) return next();
    const declared = Number(req.headers["content-length"] ?? 0);
    const limit = API_UPLOAD_LIMITS.find((u) => u.path.test(req.path))?.bytes ?? API_BODY_LIMIT;
    // Declared past its limit: the upstream answers 413 before reading anything, and needs no room for that.
    if (declared > limit) return next();
    const bytes = declared || limit;
    const guarded = async () => {
      const refusal = await uploadRefusal?.(headersOnly(req));
      if (refusal) {
        closeAfterAnswer(req, res);
        res.status(refusal.status);
        refusal.headers.forEach((value, name) => res.setHeader(name, value));
        res.send(Buffer.from(await refusal.arrayBuffer()));
        return;
      }
      if (await holdRoom(req, res, room, bytes, () => res.status(503).json({ message: UPLOADS_BUSY }))) next();
    };
    guarded().catch(next);
  };
}

/** What the upstream judges an upload by before its body: the method, the path and query, the bearer token. */
function headersOnly(req: ExpressRequest): Request {
  const authorization = req.headers.authorization;
  return new Request(new URL(req.originalUrl, "http://upstream.invalid"), {
    method: req.method,
    headers: authorization ? { authorization } : {},
  });
}

/**
 * From now on what `req` still sends is dropped and counted (a listener now, so that Node's server does not discard
 * it uncounted once the answer is sent); `socket.destroySoon()` half-closes, reads within LINGER, then destroys.
 */
function lingerAfterAnswer(req: ExpressRequest) {
  const socket = req.socket;
  let dropped = 0;
  let idle: NodeJS.Timeout | undefined;
  let total: NodeJS.Timeout | undefined;
  const close = () => {
    clearTimeout(idle);
    clearTimeout(total);
    req.off("data", onData).off("end", close);
    // Destroying drops what is not yet written: the answer goes out first.
    if (socket.writableFinished) socket.destroy();
    else socket.once("finish", () => socket.destroy());
  };
  const onData = (chunk: Buffer) => {
    dropped += chunk.byteLength;
    if (dropped > LINGER.bytes) close();
    else idle?.refresh();
  };
  req.on("data", onData);
  socket.once("close", () => {
    clearTimeout(idle);
    clearTimeout(total);
  });
  socket.destroySoon = () => {
    socket.end();
    if (req.readableEnded) return close();
    idle = setTimeout(close, LINGER.idleMs).unref();
    total = setTimeout(close, LINGER.totalMs).unref();
    req.once("end", close);
    req.resume();
  };
}

type ReadResult = { body: Buffer } | "too-large" | "aborted";

/** Reads at most `limit` bytes; stops (pausing the stream) as soon as more arrive. */
function readBody(req: ExpressRequest, limit: number): Promise<ReadResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: ReadResult) => {
      req.off("data", onData).off("end", onEnd).off("error", onAbort).off("close", onAbort);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        req.pause();
        finish("too-large");
      } else chunks.push(chunk);
    };
    const onEnd = () => finish({ body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) });
    const onAbort = () => finish("aborted");
    req.on("data", onData).on("end", onEnd).on("error", onAbort).on("close", onAbort);
  });
}

export type GuardOptions = {
  /** The site's origin (PUBLIC_URL's) when configured; else each request's own (`requestOrigin`). */
  publicOrigin: string | undefined;
  /**
   * Without PUBLIC_URL, the host names (ALLOWED_HOSTS, lower case) a request's own origin must have: the Host header
   * is the client's to write, and a DNS-rebinding page posts to its own name resolved to this server, so its Origin
   * matches its Host. Undefined: any host (development only: app/lib/config.server.ts requires one of the two in
   * production).
   */
  allowedHosts: ReadonlySet<string> | undefined;
  requestOrigin: (req: ExpressRequest) => string;
  /** The upload bytes held at once, shared with `createApiUploadGuard`. */
  room: UploadRoom;
  /**
   * The permissions of the session that the request's cookie carries, or null when it carries no valid one: what the
   * route's own `requireRoute` would decide, from the headers alone (app/auth/session.server.ts readSession).
   */
  sessionPermissions: (cookie: string | undefined) => Promise<readonly string[] | null>;
};

/**
 * Whether the route will refuse this request before reading its body: not signed in (its action redirects to the
 * sign-in), or without the route table's permission (`write` too on a route whose action checks it first: the
 * not-found answer). Judged from the headers, as the route's `requireRoute`/`requireWrite` judge.
 */
async function refusedBeforeReading(
  req: ExpressRequest,
  limit: { writes?: true },
  sessionPermissions: GuardOptions["sessionPermissions"],
): Promise<boolean> {
  const permissions = await sessionPermissions(req.headers.cookie);
  if (!permissions) return true;
  const entry = matchRoute(req.path);
  if (!entry) return true;
  const needed = [entry.permission, limit.writes ? entry.write : null].filter((p): p is Permission => typeof p === "string");
  return !needed.every((p) => can(permissions, p));
}

export function createFormGuard({ publicOrigin, allowedHosts, requestOrigin, room, sessionPermissions }: GuardOptions) {
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction): void => {
    if (req.method === "GET" || req.method === "HEAD") return next();

    if (!CSRF_EXEMPT.has(req.path)) {
      let expected: string;
      try {
        expected = publicOrigin ?? requestOrigin(req);
      } catch {
        return refuse(req, res, 400, "Bad request", "The Host header cannot be read.");
      }
      if (!publicOrigin && allowedHosts && !allowedHosts.has(new URL(expected).hostname)) {
        return refuse(req, res, 403, "Host not allowed", "This server does not answer forms sent to this host name.");
      }
      if (!isSameOrigin(req.headers, expected)) {
        return refuse(req, res, 403, "Cross-site request refused", "This form can only be sent from Backoffice itself.");
      }
    }

    const limit = bodyLimitOf(req.path);
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > limit.bytes) return tooLarge(req, res, limit);

    // A body that may pass PAGE_BODY_LIMIT (declared so, or undeclared on an upload route) holds its room until the
    // answer is sent: the copies of it live that long. Meanwhile its body is not read.
    const large = limit.bytes > PAGE_BODY_LIMIT && mayBeLarge(req, PAGE_BODY_LIMIT);
    const guarded = async (): Promise<void> => {
      if (large && (await refusedBeforeReading(req, limit, sessionPermissions))) {
        // The route answers as it does to anyone signed out or without the permission (the sign-in redirect, the
        // not-found view), with an empty form in place of the body, which is never read nor given room: its action
        // refuses before reading a form. The connection then closes (the body still coming is dropped, as after a 413).
        closeAfterAnswer(req, res);
        (res.locals as Locals)[BODY] = { body: Buffer.alloc(0), contentType: URLENCODED };
        return next();
      }
      if (large && !(await holdRoom(req, res, room, declared || limit.bytes, () => refuse(req, res, 503, "Server busy", UPLOADS_BUSY)))) return;
      const read = await readBody(req, limit.bytes);
      if (read === "aborted") return;
      if (read === "too-large") return tooLarge(req, res, limit);
      const checked = await checkForm(read.body, req.headers["content-type"], listLimitsOf(req.path));
      if (!checked.ok) {
        const title = checked.status === 415 ? "Unsupported form" : checked.status === 413 ? "Request too large" : "Bad request";
        return refuse(req, res, checked.status, title, checked.message);
      }
      (res.locals as Locals)[BODY] = { body: checked.body, contentType: checked.contentType };
      next();
    };
    guarded().catch(next);
  };
}
