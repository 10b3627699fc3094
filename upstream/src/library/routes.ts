import crypto from "node:crypto";
import { Readable } from "node:stream";
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import {
  CategoryCreate,
  CategoryUpdate,
  DRAWING_TOKEN_SECONDS,
  LIBRARY_MESSAGES,
  LIBRARY_TYPE_PERMISSIONS,
  LIBRARY_WRITE,
  LibraryItemCreate,
  LibraryItemsQuery,
  LibrarySettings,
  type DrawingToken,
  type LibraryType,
} from "../../contract/library";
import { can } from "../../contract/permissions";
import { DrawingsResource } from "../../contract/templates";
import { attachment } from "../files/routes";
import { HttpError, badRequest, jsonBody, notFound, requirePermission, validate, type AppContext, type AppEnv } from "../lib/http";
import { isStoredRecordFile, type RecordFiles } from "../lib/record-files";
import type { DrawingsStore } from "../templates/store";
import type { LibraryStore } from "./store";

type Deps = { library: LibraryStore; requireAuth: MiddlewareHandler<AppEnv> };

/** The types the actor may read (each by its own domain's read permission). */
function readableTypes(c: AppContext, library: LibraryStore): LibraryType[] {
  const permissions = c.get("actor").permissions;
  return library.types().filter((t) => can(permissions, LIBRARY_TYPE_PERMISSIONS[t].read));
}

/** 403 unless the actor may change items of `type`: prompts.write (spec 3 §6) and its domain's write permission. */
function checkWrite(c: AppContext, type: LibraryType): void {
  const permissions = c.get("actor").permissions;
  for (const p of [LIBRARY_WRITE, LIBRARY_TYPE_PERMISSIONS[type].write]) {
    if (!can(permissions, p)) throw new HttpError(403, `You do not have the permission ${p}.`);
  }
}

const IdParam = z.string().min(1).max(100);

/** The reader's time zone (the X-Timezone header) when it is one the runtime knows; else UTC. */
function zoneOf(header: string | undefined): string {
  if (!header || header.length > 100) return "UTC";
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: header }).resolvedOptions().timeZone;
  } catch {
    return "UTC";
  }
}

/** /api/categories (spec 3 §7): reading needs a signed-in user (the library is for everyone); writing prompts.write. */
export function categoryRoutes({ library, requireAuth }: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  const write = requirePermission(LIBRARY_WRITE);
  app.get("/all", requireAuth, (c) => c.json(library.categories()));
  app.get("/tags", requireAuth, (c) => c.json(library.categoryTags()));
  app.post("/create", requireAuth, write, async (c) => {
    const input = await jsonBody(c, CategoryCreate);
    return c.json(library.createCategory(input, c.get("actor").email), 201);
  });
  app.put("/:id", requireAuth, write, async (c) => {
    const changes = await jsonBody(c, CategoryUpdate);
    const updated = library.updateCategory(validate(IdParam, c.req.param("id")), changes, c.get("actor").email);
    if (!updated) throw notFound(LIBRARY_MESSAGES.categoryNotFound);
    return c.json(updated);
  });
  app.delete("/:id", requireAuth, write, (c) => {
    if (!library.removeCategory(validate(IdParam, c.req.param("id")))) throw notFound(LIBRARY_MESSAGES.categoryNotFound);
    return c.body(null, 204);
  });
  return app;
}

/** /api/library (spec 3 §7): the statistics, the items of the types the actor reads, an item's settings. */
export function libraryRoutes({ library, requireAuth }: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  // Counts and items of what the reader may see: the types they read, public items and their own private ones.
  app.get("/stats", requireAuth, (c) =>
    c.json(library.stats(c.get("actor").email, readableTypes(c, library), zoneOf(c.req.header("x-timezone")))),
  );
  app.get("/items", requireAuth, (c) => {
    const query = validate(LibraryItemsQuery, c.req.query());
    return c.json(library.items(query, readableTypes(c, library), c.get("actor").email));
  });
  app.post("/items", requireAuth, async (c) => {
    const { libraryType } = await jsonBody(c, LibraryItemCreate);
    checkWrite(c, libraryType);
    const item = library.createItem(libraryType, c.get("actor").email);
    if (!item) throw badRequest(`A new ${libraryType} is made on its own screen.`);
    return c.json(item, 201);
  });
  const readable = (c: AppContext) => {
    const item = library.item(validate(IdParam, c.req.param("id")));
    const hidden = item && !item.isPublic && item.createdBy !== c.get("actor").email;
    if (!item || hidden || !readableTypes(c, library).includes(item.libraryType)) throw notFound(LIBRARY_MESSAGES.itemNotFound);
    return item;
  };
  app.get("/items/:id", requireAuth, (c) => c.json(readable(c)));
  app.patch("/items/:id", requireAuth, async (c) => {
    const item = readable(c);
    checkWrite(c, item.libraryType);
    const settings = await jsonBody(c, LibrarySettings);
    const saved = library.saveSettings(item.id, settings, c.get("actor").email);
    if (!saved) throw notFound(LIBRARY_MESSAGES.itemNotFound);
    return c.json(saved);
  });
  return app;
}

/**
 * A drawing's download token (spec 3 §7): HMAC-signed `{drawing id, purpose, expiry}`, good for one drawing's content
 * for DRAWING_TOKEN_SECONDS, so the link a window opens never carries the user's session token.
 */
export class DrawingTokens {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly now: () => number,
  ) {
    this.key = crypto.createHmac("sha256", secret).update("library drawing content token").digest();
  }

  issue(drawingId: string): DrawingToken {
    const exp = Math.floor(this.now() / 1000) + DRAWING_TOKEN_SECONDS;
    const body = Buffer.from(JSON.stringify({ d: drawingId, p: "drawing-content", e: exp })).toString("base64url");
    return { token: `${body}.${this.sign(body)}`, expiresAt: new Date(exp * 1000).toISOString() };
  }

  /** True when `token` was issued for `drawingId` and has not expired. */
  verify(token: string, drawingId: string): boolean {
    const [body, mac, extra] = token.split(".");
    if (!body || !mac || extra !== undefined) return false;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return false;
    try {
      const claims = JSON.parse(Buffer.from(body, "base64url").toString()) as { d?: unknown; p?: unknown; e?: unknown };
      return claims.d === drawingId && claims.p === "drawing-content" && typeof claims.e === "number" && claims.e * 1000 > this.now();
    } catch {
      return false;
    }
  }

  private sign(body: string): string {
    return crypto.createHmac("sha256", this.key).update(body).digest("base64url");
  }
}

/** /api/drawings/{id}/token (templates.read) and /api/drawings/{id}/content?authToken= (the token only). */
export function drawingTokenRoutes(deps: {
  drawings: DrawingsStore;
  files: RecordFiles;
  tokens: DrawingTokens;
  requireAuth: MiddlewareHandler<AppEnv>;
}): Hono<AppEnv> {
  const { drawings, files, tokens, requireAuth } = deps;
  const app = new Hono<AppEnv>({ strict: false });
  app.get("/:id/token", requireAuth, requirePermission(DrawingsResource.permissions.read), (c) => {
    const drawing = drawings.get(validate(IdParam, c.req.param("id")));
    if (!drawing) throw notFound(DrawingsResource.notFound);
    return c.json(tokens.issue(drawing.id), 200, { "Cache-Control": "no-store" });
  });
  app.get("/:id/content", (c) => {
    const id = validate(IdParam, c.req.param("id"));
    const token = c.req.query("authToken") ?? "";
    if (token.length > 1_000 || !tokens.verify(token, id)) throw new HttpError(401, LIBRARY_MESSAGES.tokenInvalid);
    const drawing = drawings.get(id);
    const file = drawing?.fileTemplate;
    const body = isStoredRecordFile(file) ? files.open(file) : null;
    if (!isStoredRecordFile(file) || !body) throw notFound(DrawingsResource.notFound);
    return c.body(Readable.toWeb(body) as ReadableStream<Uint8Array>, 200, {
      "Content-Type": file.contentType,
      "Content-Length": String(file.size),
      "Content-Disposition": attachment(file.name),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    });
  });
  return app;
}
