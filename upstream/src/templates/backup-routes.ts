import { Readable } from "node:stream";
import { Hono, type MiddlewareHandler } from "hono";
import { BACKUP_MESSAGES, MAX_BACKUP_BYTES } from "../../contract/template-storage";
import { attachment } from "../files/routes";
import { HttpError, badRequest, requirePermission, type AppEnv } from "../lib/http";
import { blobBytes, parseMultipartBody } from "../lib/multipart";
import type { TemplateBackup } from "./backup";

/**
 * /api/template-storage (spec 2 §7, backup): export with administration.read, import with administration (it
 * replaces every template).
 */
export function templateStorageRoutes(deps: { backup: TemplateBackup; requireAuth: MiddlewareHandler<AppEnv>; now: () => number }) {
  const { backup, requireAuth } = deps;
  const app = new Hono<AppEnv>();
  app.get("/export-url", requireAuth, requirePermission("administration.read"), (c) => {
    const day = new Date(deps.now()).toISOString().slice(0, 10);
    return c.body(Readable.toWeb(backup.export()) as ReadableStream<Uint8Array>, 200, {
      "Content-Type": "application/zip",
      "Content-Disposition": attachment(`template-storage-${day}.zip`),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    });
  });
  app.get("/import", requireAuth, requirePermission("administration.read"), (c) => c.json({ last: backup.lastImport() }));
  app.post("/import", requireAuth, requirePermission("administration"), async (c) => {
    let body: Record<string, string | File | (string | File)[]>;
    try {
      body = await parseMultipartBody(c.req.raw, { all: true });
    } catch {
      throw badRequest("Request body must be multipart/form-data");
    }
    const file = body.file;
    if (!(file instanceof File) || file.size === 0) throw badRequest(BACKUP_MESSAGES.fileRequired);
    if (file.size > MAX_BACKUP_BYTES) throw new HttpError(413, BACKUP_MESSAGES.tooLarge);
    return c.json(await backup.import(await blobBytes(file)));
  });
  return app;
}
