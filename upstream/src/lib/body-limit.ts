import type { Permission } from "../../contract/permissions";
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { MAX_INSTALLER_BYTES } from "../../contract/application-crawler";
import { MAX_SCRIPT_BYTES } from "../../contract/bots";
import { CONVERTER_LIMITS } from "../../contract/converters";
import { MAX_FILE_BYTES } from "../../contract/files";
import { MAX_DOCUMENT_BYTES } from "../../contract/nlp";
import { MAX_BACKUP_BYTES } from "../../contract/template-storage";
import { DrawingsResource, MAX_TEMPLATE_BYTES, WordTemplatesResource } from "../../contract/templates";
import { FormsResource, MAX_MODEL_BYTES } from "../../contract/forms";
import { CSV_IMPORT_LIMITS } from "../../contract/portfolio-constants";
import { IMPORT_BODY_BYTES } from "../../contract/workflow-constants";
import { WorkflowsResource } from "../../contract/workflows";
import { HttpError, requirePermission, type AppEnv } from "./http";

const MB = 1024 * 1024;
/** Every body the upstream reads, unless the table below says otherwise. */
export const API_BODY_LIMIT = 1 * MB;

/**
 * The uploads, by their documented limits: checked on Content-Length before anything is read (413), and counted while
 * streaming when there is none. The routes keep their own finer checks (file size, decoded document size).
 * `permission`: what the endpoint requires (its route checks it again), checked with the bearer token by `uploadGate`
 * before the body is read or given room; none: any signed-in user may send it (the route decides after reading).
 */
export const API_UPLOAD_LIMITS: readonly { path: RegExp; bytes: number; what: string; permission?: Permission }[] = [
  // A bot script (multipart): the file plus the form's few text fields (bots/routes.ts allows 64 KiB of them).
  { path: /^\/api\/auth\/bots\/[^/]+\/script\/?$/, bytes: MAX_SCRIPT_BYTES + 64 * 1024, what: "a bot script", permission: "users" },
  // An upload kept between steps (multipart, one file part): the file plus the part headers and boundaries.
  { path: /^\/api\/files\/?$/, bytes: MAX_FILE_BYTES + 64 * 1024, what: "a file" },
  // Documents travel as base64 inside JSON (4/3 of the .docx) plus templates (nlp/routes.ts MAX_NLP_BODY).
  // The Application Crawler's installer (multipart): the file, its version and the part headers.
  {
    path: /^\/api\/application-crawler\/installer\/?$/,
    bytes: MAX_INSTALLER_BYTES + 64 * 1024,
    what: "an installer",
    permission: "administration",
  },
  { path: /^\/api\/nlp\/api\/v1\//, bytes: Math.ceil((MAX_DOCUMENT_BYTES * 4) / 3) + 512 * 1024, what: "a document" },
  // A template's file (multipart create or patch) plus its JSON data part. Create and change need the same.
  {
    path: /^\/api\/docs\/(word|visio)(\/[^/]+)?\/?$/,
    bytes: MAX_TEMPLATE_BYTES + 1 * MB,
    what: "a template",
    permission: WordTemplatesResource.permissions.write,
  },
  {
    path: /^\/api\/drawings(\/[^/]+)?\/?$/,
    bytes: MAX_TEMPLATE_BYTES + 1 * MB,
    what: "a template",
    permission: DrawingsResource.permissions.write,
  },
  // A form: its form file and model file plus the data part.
  {
    path: /^\/api\/forms(\/[^/]+)?\/?$/,
    bytes: MAX_TEMPLATE_BYTES + MAX_MODEL_BYTES + 1 * MB,
    what: "a form",
    permission: FormsResource.permissions.write,
  },
  // A file to convert (multipart, one file part), or the files of an OCR request.
  { path: /^\/api\/(converters\/[^/]+|hub-pdf\/convert\/toimages)\/?$/, bytes: CONVERTER_LIMITS.fileBytes + 64 * 1024, what: "a file" },
  { path: /^\/api\/hub-pdf\/ocr\/?$/, bytes: CONVERTER_LIMITS.ocrBytes + 256 * 1024, what: "the files" },
  // A template-storage backup (multipart, one file part).
  { path: /^\/api\/template-storage\/import\/?$/, bytes: MAX_BACKUP_BYTES + 64 * 1024, what: "a backup", permission: "administration" },
  // A workflow's or a template's import string inside JSON: any string within WORKFLOW_LIMITS.importString.
  {
    path: /^\/api\/workflows\/v2\/workflows(\/[^/]+\/milestones)?\/import\/?$/,
    bytes: IMPORT_BODY_BYTES,
    what: "an import string",
    permission: WorkflowsResource.permissions.write,
  },
  // A portfolio CSV import: the file as base64 inside JSON, plus the portfolio id.
  {
    path: /^\/api\/applications\/csv\/?$/,
    bytes: Math.ceil((CSV_IMPORT_LIMITS.bytes * 4) / 3) + 64 * 1024,
    what: "a CSV file",
    permission: "portfolio",
  },
];

/**
 * An upload's bearer token (`requireAuth`: 401) and its permission (403), judged from the headers before its body is
 * read: in the upstream right after the body limits (which read nothing themselves: Content-Length, or a counting
 * stream), before any route; in the back office's process before the upload budget (Upstream.uploadRefusal), so that
 * an upload nobody may send never waits for room or holds any. Other requests pass.
 */
export function uploadGate(requireAuth: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  const uploads = API_UPLOAD_LIMITS.map((u) => ({ path: u.path, permission: u.permission ? requirePermission(u.permission) : null }));
  return async (c, next) => {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD") return next();
    const path = c.req.path;
    const upload = uploads.find((u) => u.path.test(path));
    if (!upload) return next();
    const permission = upload.permission;
    return requireAuth(c, async () => {
      await (permission ? permission(c, next) : next());
    });
  };
}

const megabytes = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

function limiter(bytes: number, what: string | null): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: bytes,
    onError: () => {
      throw new HttpError(413, `Request body is too large: ${what ? `${what} may be` : "at most"} ${megabytes(bytes)}${what ? " at most" : ""}.`);
    },
  });
}

/** One middleware for the whole upstream: the limit of the request's path. GET and HEAD carry no body: untouched. */
export function bodyLimits(): MiddlewareHandler<AppEnv> {
  const base = limiter(API_BODY_LIMIT, null);
  const uploads = API_UPLOAD_LIMITS.map((u) => ({ path: u.path, check: limiter(u.bytes, u.what) }));
  return async (c, next) => {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD") return next();
    const path = c.req.path;
    const check = uploads.find((u) => u.path.test(path))?.check ?? base;
    return check(c, next);
  };
}
