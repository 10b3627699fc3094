import crypto from "node:crypto";
import { Readable } from "node:stream";
import { Hono, type MiddlewareHandler } from "hono";
import {
  INSTALLER_MESSAGES,
  INSTALLER_NAME,
  InstallerVersion,
  MAX_INSTALLER_BYTES,
  type InstallerAnswer,
} from "../../contract/application-crawler";
import type { AppSettingsStore } from "../app-settings/store";
import { attachment, readUpload, uploadName, uploadType } from "../files/routes";
import { FileStoreError, type FileStore } from "../lib/files";
import { HttpError, badRequest, fieldMessage, notFound, requirePermission, type AppEnv } from "../lib/http";
import { blobBytes } from "../lib/multipart";

const KEY = "applicationCrawlerInstaller";
type Stored = { key: string; name: string; version: string; size: number; sha256: string; contentType: string };

/**
 * /api/application-crawler/installer (contract/application-crawler.ts): the bytes in a `FileStore` under
 * `installers/application-crawler/{uuid}`, what they are in the product settings. A new upload is stored whole
 * before the settings name it, then the earlier bytes are deleted: a download under way keeps its open file.
 */
export function applicationCrawlerRoutes(deps: {
  settings: AppSettingsStore;
  files: FileStore;
  requireAuth: MiddlewareHandler<AppEnv>;
}) {
  const { settings, files, requireAuth } = deps;
  const current = () => {
    const stored = settings.get<Stored>(KEY);
    return stored && files.stat(stored.value.key) ? stored : null;
  };
  const answer = (): InstallerAnswer => {
    const stored = current();
    if (!stored) return { installer: null };
    const { name, version, size, sha256 } = stored.value;
    return { installer: { name, version, size, sha256, uploadedAt: stored.updatedAt, uploadedBy: stored.updatedBy } };
  };

  const app = new Hono<AppEnv>({ strict: false });
  app.use("*", requireAuth);
  app.get("/", requirePermission("applications.read"), (c) => c.json(answer()));

  app.get("/file", requirePermission("applications.read"), (c) => {
    const stored = current();
    const body = stored ? files.stream(stored.value.key) : null;
    if (!stored || !body) throw notFound(INSTALLER_MESSAGES.notFound);
    return c.body(Readable.toWeb(body) as ReadableStream<Uint8Array>, 200, {
      "Content-Type": stored.value.contentType,
      "Content-Length": String(stored.value.size),
      "Content-Disposition": attachment(stored.value.name),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    });
  });

  app.put("/", requirePermission("administration"), async (c) => {
    const { file: part, fields } = await readUpload(c, MAX_INSTALLER_BYTES, {
      notMultipart: INSTALLER_MESSAGES.notMultipart,
      oneFile: INSTALLER_MESSAGES.oneFile,
      required: INSTALLER_MESSAGES.fileRequired,
      tooLarge: INSTALLER_MESSAGES.tooLarge,
    });
    const version = InstallerVersion.safeParse(fields.version ?? "");
    if (!version.success) throw badRequest(fieldMessage(["version"], version.error.issues[0]!.message));
    const name = uploadName(part.name);
    if (!INSTALLER_NAME.test(name)) throw badRequest(fieldMessage(["file"], INSTALLER_MESSAGES.wrongType));
    const key = `installers/application-crawler/${crypto.randomUUID()}`;
    let stored;
    try {
      stored = await files.put(key, await blobBytes(part), { maxBytes: MAX_INSTALLER_BYTES, overwrite: false });
    } catch (error) {
      if (error instanceof FileStoreError && error.reason === "tooLarge") throw new HttpError(413, INSTALLER_MESSAGES.tooLarge);
      throw error;
    }
    const earlier = settings.get<Stored>(KEY);
    const value: Stored = { key, name, version: version.data, size: stored.size, sha256: stored.sha256, contentType: uploadType(part.type) };
    settings.put<Stored>(KEY, value, c.get("actor").email);
    if (earlier && earlier.value.key !== key) await files.delete(earlier.value.key);
    return c.json(answer());
  });

  app.delete("/", requirePermission("administration"), async (c) => {
    const stored = settings.get<Stored>(KEY);
    if (!stored) throw notFound(INSTALLER_MESSAGES.notFound);
    settings.remove(KEY);
    await files.delete(stored.value.key);
    return c.body(null, 204);
  });
  return app;
}
