import { Readable } from "node:stream";
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { FILE_MESSAGES, MAX_FILE_BYTES, type StoredFile } from "../../contract/files";
import { FileStoreError } from "../lib/files";
import { HttpError, badRequest, fieldMessage, notFound, type AppEnv } from "../lib/http";
import { blobBytes, parseMultipartBody } from "../lib/multipart";
import type { UploadsStore } from "./store";

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/;

/** The file name without any path, control characters or surrounding spaces; at most 255 characters. */
export function uploadName(raw: string): string {
  const name = (raw.split(/[\\/]/).pop() ?? "").replace(CONTROL, "").trim().slice(0, 255);
  return name || "file";
}

/** `type/subtype` as sent (lower-cased, parameters dropped) when well-formed, else application/octet-stream. */
export function uploadType(raw: string): string {
  const type = raw.split(";")[0]?.trim().toLowerCase() ?? "";
  return MIME.test(type) ? type : "application/octet-stream";
}

/** `attachment` with an ASCII fallback name and the exact one in RFC 5987 form. */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export type UploadMessages = { notMultipart: string; oneFile: string; required: string; tooLarge: string };

/**
 * A multipart body with exactly one non-empty `file` part of at most `maxBytes`: the file and the other fields
 * (the last value of each). 400 (`notMultipart`, `file: oneFile`, `file: required`) or 413 (`tooLarge`) otherwise.
 */
export async function readUpload(
  c: Context<AppEnv>,
  maxBytes: number,
  messages: UploadMessages,
): Promise<{ file: File; fields: Record<string, string> }> {
  if (!/^multipart\/form-data/i.test(c.req.header("content-type") ?? "")) throw badRequest(messages.notMultipart);
  let body: Record<string, string | File | (string | File)[]>;
  try {
    body = await parseMultipartBody(c.req.raw, { all: true });
  } catch {
    throw badRequest(messages.notMultipart);
  }
  const part = body.file;
  if (Array.isArray(part)) throw badRequest(fieldMessage(["file"], messages.oneFile));
  if (!(part instanceof File) || part.size === 0) throw badRequest(fieldMessage(["file"], messages.required));
  if (part.size > maxBytes) throw new HttpError(413, messages.tooLarge);
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (typeof last === "string") fields[name] = last;
  }
  return { file: part, fields };
}

/**
 * /api/files/* — uploads kept between steps (upstream/README.md, Files): any signed-in user uploads; only they read
 * or delete what they uploaded (anyone else: 404); files expire after a day.
 */
export function fileRoutes(deps: { uploads: UploadsStore; requireAuth: MiddlewareHandler<AppEnv> }): Hono<AppEnv> {
  const { uploads, requireAuth } = deps;
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth);

  app.post("/", async (c) => {
    const { file: part } = await readUpload(c, MAX_FILE_BYTES, FILE_MESSAGES);
    try {
      const file = {
        name: uploadName(part.name),
        contentType: uploadType(part.type),
        content: await blobBytes(part),
      };
      return c.json((await uploads.add(c.get("actor").id, file, MAX_FILE_BYTES)) satisfies StoredFile, 201);
    } catch (error) {
      if (error instanceof FileStoreError && error.reason === "tooLarge")
        throw new HttpError(413, FILE_MESSAGES.tooLarge);
      throw error;
    }
  });

  app.get("/:id", (c) => {
    const opened = uploads.open(c.req.param("id"), c.get("actor").id);
    if (!opened) throw notFound(FILE_MESSAGES.notFound);
    const { file, body } = opened;
    return c.body(Readable.toWeb(body) as ReadableStream<Uint8Array>, 200, {
      "Content-Type": file.contentType,
      "Content-Length": String(file.size),
      "Content-Disposition": attachment(file.name),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    });
  });

  app.delete("/:id", async (c) => {
    if (!(await uploads.remove(c.req.param("id"), c.get("actor").id))) throw notFound(FILE_MESSAGES.notFound);
    return c.body(null, 204);
  });
  return app;
}
