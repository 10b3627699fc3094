import type { Hono, MiddlewareHandler } from "hono";
import {
  DrawingsResource,
  ShapesResource,
  TEMPLATE_EXTENSIONS,
  TEMPLATE_MESSAGES,
  VisioTemplatesResource,
  WordTemplatesResource,
  kindOf,
  shapeThumbnailPath,
  splitFileName,
} from "../../contract/templates";
import { HttpError, badRequest, fieldMessage, notFound, requirePermission, type AppEnv } from "../lib/http";
import type { RecordFiles } from "../lib/record-files";
import { resourceRoutes, type FilesCheck } from "../lib/resource-routes";
import { checkOfficeFile } from "./office";
import { extractMasters, type ExtractedMaster } from "./shapes";
import type { DrawingsStore, ShapesStore, VisioTemplatesStore, WordTemplatesStore } from "./store";
import type { FileUpload } from "../lib/record-files";
import { ZipError, type ZipArchive } from "../lib/zip";

type Deps = {
  word: WordTemplatesStore;
  visio: VisioTemplatesStore;
  drawings: DrawingsStore;
  shapes: ShapesStore;
  files: RecordFiles;
  requireAuth: MiddlewareHandler<AppEnv>;
};

/**
 * The `fileTemplate` rule of Word, Visio and drawing templates (spec 2 §5): required on create ('Template is
 * required'); one of the accepted extensions, and really that kind of file (office.ts); the record's name and ext are
 * the chosen file's (extension: everything after the first dot).
 */
async function templateFile(
  uploads: Partial<Record<string, FileUpload>>,
  creating: boolean,
  accepted: readonly ("dotx" | "vstx" | "vsdx")[],
  zips?: Map<string, ZipArchive>,
): Promise<FilesCheck<{ name: string; ext: string }>> {
  const upload = uploads.fileTemplate;
  if (!upload) {
    if (creating) throw badRequest(fieldMessage(["fileTemplate"], TEMPLATE_MESSAGES.templateRequired));
    return {};
  }
  const kind = kindOf(upload.name, accepted);
  if (!kind) throw badRequest(fieldMessage(["fileTemplate"], TEMPLATE_MESSAGES.wrongType(accepted)));
  const { name, ext } = splitFileName(upload.name);
  if (!name) throw badRequest(fieldMessage(["fileTemplate"], TEMPLATE_MESSAGES.nameEmpty));
  const { properties, zip } = await checkOfficeFile("fileTemplate", upload, kind);
  if (zip && zips) zips.set(upload.name, zip);
  return { values: { name, ext }, properties: { fileTemplate: properties } };
}

const templateAnswer = <T extends { fileTemplate: { url: string } | null; updatedAt: string }>(item: T) => ({
  ...item,
  contentUrl: item.fileTemplate?.url ?? null,
  modifiedAt: item.updatedAt,
});

/** /api/docs/word (spec 2 §7). */
export function wordRoutes(deps: Deps): Hono<AppEnv> {
  return resourceRoutes(WordTemplatesResource, deps.word, {
    requireAuth: deps.requireAuth,
    files: deps.files,
    hooks: {
      files: (uploads, _input, current) => templateFile(uploads, !current, TEMPLATE_EXTENSIONS.word),
      toItem: (item) => templateAnswer(item as never),
    },
  });
}

/** /api/docs/visio (spec 2 §7): a template's masters are its shapes, refreshed when its file changes. */
export function visioRoutes(deps: Deps): Hono<AppEnv> {
  // The masters read while checking the upload, per request, for afterFiles (which has the record's id).
  const masters = new WeakMap<Request, ExtractedMaster[]>();
  return resourceRoutes(VisioTemplatesResource, deps.visio, {
    requireAuth: deps.requireAuth,
    files: deps.files,
    hooks: {
      files: async (uploads, _input, current, c) => {
        const zips = new Map<string, ZipArchive>();
        const check = await templateFile(uploads, !current, TEMPLATE_EXTENSIONS.visio, zips);
        const zip = [...zips.values()][0];
        if (zip) masters.set(c.req.raw, await readMasters(zip));
        return check;
      },
      afterFiles: (item, _fields, c) => {
        const found = masters.get(c.req.raw);
        if (found) deps.shapes.replaceOfTemplate(item, found, c.get("actor").email);
      },
      afterDelete: (item) => deps.shapes.removeOfTemplate(item.id),
      toItem: (item) => templateAnswer(item as never),
    },
  });
}

/** The masters of a checked package; a damaged master part is a 400 for the file, like the rest of the package. */
async function readMasters(zip: ZipArchive): Promise<ExtractedMaster[]> {
  try {
    return await extractMasters(zip);
  } catch (error) {
    if (error instanceof ZipError) throw new HttpError(error.status, fieldMessage(["fileTemplate"], error.message));
    throw error;
  }
}

/** /api/drawings (spec 2 §7): .vsdx or .vstx plus a Handlebars text template; writes need templates.write. */
export function drawingRoutes(deps: Deps): Hono<AppEnv> {
  return resourceRoutes(DrawingsResource, deps.drawings, {
    requireAuth: deps.requireAuth,
    files: deps.files,
    hooks: {
      files: (uploads, _input, current) => templateFile(uploads, !current, TEMPLATE_EXTENSIONS.drawing),
      toItem: (item) => templateAnswer(item as never),
    },
  });
}

/** /api/shapes (spec 2 §7: get, patch, delete) and the SVG thumbnail. */
export function shapeRoutes(deps: Deps): Hono<AppEnv> {
  const { shapes, requireAuth } = deps;
  return resourceRoutes(ShapesResource, shapes, {
    requireAuth,
    hooks: {
      routes: (app) =>
        app.get("/:id/thumbnail", requireAuth, requirePermission(ShapesResource.permissions.read), (c) => {
          const shape = shapes.get(c.req.param("id"));
          if (!shape) throw notFound(ShapesResource.notFound);
          return c.body(shape.svg, 200, {
            "Content-Type": "image/svg+xml",
            "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "private, max-age=300",
            ETag: `"${shape.updatedAt}"`,
          });
        }),
      toItem: (item) => {
        const { svg: _svg, ...rest } = item;
        return { ...rest, thumbnailUrl: shapeThumbnailPath(item.id) };
      },
    },
  });
}
