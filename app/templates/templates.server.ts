import type { LoaderFunctionArgs } from "@remix-run/node";
import type { RecordFile } from "@contract/record-files";
import {
  DrawingsResource,
  ShapesResource,
  VisioTemplatesResource,
  WordTemplatesResource,
  shapeThumbnailPath,
  type Shape,
} from "@contract/templates";
import { formatDateTime } from "~/lib/format";
import { orNotFound, resourceClient } from "~/lib/resource.server";
import { can } from "@contract/permissions";
import { notFound, requireUser } from "~/auth/guard.server";
import { generator } from "~/specifications/specifications.server";
import type { Api } from "~/lib/upstream.server";

/** The template collections of the upstream contract (spec 2 §7), through the resource kit. */
export const wordTemplates = resourceClient(WordTemplatesResource);
export const visioTemplates = resourceClient(VisioTemplatesResource);
export const drawings = resourceClient(DrawingsResource);
export const shapes = resourceClient(ShapesResource);

type Listed = {
  id: string;
  name: string;
  ext: string;
  description: string;
  tags: string[];
  modifiedAt: string;
  fileTemplate: RecordFile | null;
};

/** A template as its list shows it (spec 2 §2: Name, Description, Tags, Last modification; docProps beside the name). */
export function templateRow(t: Listed, timeZone: string, file: (id: string) => string) {
  const p = t.fileTemplate?.properties ?? null;
  return {
    id: t.id,
    name: t.name,
    fileName: t.fileTemplate?.name ?? `${t.name}.${t.ext}`,
    description: t.description,
    tags: t.tags,
    modified: formatDateTime(t.modifiedAt, timeZone),
    title: p?.title ?? null,
    author: p?.author ?? null,
    documentModified: p?.modified ? formatDateTime(p.modified, timeZone) : null,
    download: t.fileTemplate ? file(t.id) : null,
  };
}

/** A record's current file for its form's file field. */
export function currentFile(file: RecordFile | null, href: string) {
  return file ? { name: file.name, size: file.size, href } : null;
}

/** The Handlebars helpers for the drawing text template's editor (the generator's documentation; none when down). */
export async function templateHelpers(api: Api) {
  const doc = await generator.documentation(api).catch(() => null);
  return { helpers: doc?.helperFunctions ?? [], contextFields: doc?.contextObject.fields.map((f) => f.name) ?? [] };
}

/** Where the back office serves a shape's thumbnail (spec 2 §7: thumbnail URLs under the template storage path). */
export const shapeThumbnail = (id: string) => `/shapes/${id}/thumbnail`;

/** A shape as its list shows it. */
export const shapeRow = (s: Shape, timeZone: string) => ({
  id: s.id,
  name: s.name,
  templateName: s.templateName,
  tags: s.tags,
  modified: formatDateTime(s.updatedAt, timeZone),
  thumbnail: shapeThumbnail(s.id),
});

/** The thumbnail's loader: templates.read (the shapes' read permission), the upstream's SVG passed on as is. */
export async function shapeThumbnailLoader(args: LoaderFunctionArgs) {
  const { api, identity } = await requireUser(args);
  if (!can(identity.permissions, ShapesResource.permissions.read)) throw notFound();
  const upstream = await orNotFound(api.raw("GET", shapeThumbnailPath(args.params.id ?? "")));
  return new Response(upstream.body, {
    headers: {
      "Content-Type": "image/svg+xml",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, max-age=300",
    },
  });
}
