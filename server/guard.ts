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
 * This module is the gate itself, its origin check and its body limits by route; what it calls has a module each: the
 * form check (form-check.ts), the upload room shared with the API's uploads (upload-room.ts) and the lingering close
 * of a connection answered before its body was read (linger.ts).
 */
import { MAX_MODEL_BYTES } from "@contract/forms";
import { MAX_BACKUP_BYTES } from "@contract/template-storage";
import { MAX_TEMPLATE_BYTES } from "@contract/templates";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { MAX_INSTALLER_BYTES } from "@contract/application-crawler";
import { MAX_SCRIPT_BYTES } from "@contract/bots";
import { CONVERTER_LIMITS } from "@contract/converters";
import { MAX_DOCUMENT_BYTES } from "@contract/nlp";
import { CSV_IMPORT_LIMITS } from "@contract/portfolio-constants";
import { IMPORT_BODY_BYTES } from "@contract/workflow-constants";
import { can, type Permission } from "@contract/permissions";
import { matchRoute } from "~/lib/routes";
import { URLENCODED, checkForm, listLimitsOf } from "./form-check";
import { closeAfterAnswer } from "./linger";
import { UPLOADS_BUSY, holdRoom, mayBeLarge, type UploadRoom } from "./upload-room";

// The guard's limits and refusal as the tests of the whole server read them, from the gate.
export { FORM_LIMITS } from "./form-check";
export { UPLOADS_BUSY } from "./upload-room";

const MB = 1024 * 1024;

/** Every page body, unless PAGE_UPLOAD_LIMITS says otherwise. */
const PAGE_BODY_LIMIT = 1 * MB;

/**
 * The upload routes, by their documented limits (the file plus what the same form posts with it). `writes`: the
 * route's action checks the route table's `write` permission before anything else (requireWrite), so a large body
 * from someone without it is refused before it is read; otherwise the table's `permission` is checked.
 */
const PAGE_UPLOAD_LIMITS: readonly { path: RegExp; bytes: number; what: string; writes?: true }[] = [
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
    // A workflow's (the list) or a template's (a workflow's page) import string, posted as multipart by the import
    // dialogs: any string within WORKFLOW_LIMITS.importString is read, and a longer one answered on the page.
    path: /^\/workflows(\/(?!new\/?$)[^/]+(\/milestones)?)?\/?$/,
    bytes: IMPORT_BODY_BYTES,
    what: "An import string",
    writes: true,
  },
  {
    // A chain page's "Load text from a file" (multipart): a file the converters take (CONVERTER_LIMITS.fileBytes) and
    // the widget's fields; the page's other posts are small forms.
    path: /^\/chains\/(?!create\/?$)[^/]+\/?$/,
    bytes: CONVERTER_LIMITS.fileBytes + 1 * MB,
    what: "A file to read as text",
    writes: true,
  },
  {
    // A chain's context document (multipart, the Context tab): a .docx the generator takes and the form's fields.
    path: /^\/chains\/[^/]+\/context\/?$/,
    bytes: MAX_DOCUMENT_BYTES + 1 * MB,
    what: "A context document",
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
const CSRF_EXEMPT: ReadonlySet<string> = new Set(["/saml-callback.html"]);

function bodyLimitOf(path: string): { bytes: number; what: string; writes?: true } {
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
