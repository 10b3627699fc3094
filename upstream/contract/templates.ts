import { z } from "zod";
import { Audit, FIELD_MESSAGES, LIST_LIMITS, TEXT_LIMITS, boundedList, limitText } from "./common";
import { RecordFile } from "./record-files";
import { defineResource } from "./resource";

/**
 * Word, Visio and drawing templates and shapes (spec 2 §2, §3, §5, §7). Files travel as the parts of a
 * multipart create or patch (resource kit, `definition.files`); the record's name and extension are derived from the
 * uploaded file's name (spec 2 §5: the extension is everything after the first dot).
 */

/** Largest template file (a Visio template with many masters and previews runs to a few MB; Word templates less). */
export const MAX_TEMPLATE_BYTES = 20 * 1024 * 1024;

/** The file kinds the template and form screens accept, how they are recognised and served. */
export const OFFICE_KINDS = {
  dotx: {
    label: "Word template (.dotx)",
    contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.template",
    mainPart: "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
  },
  docx: {
    label: "Word document (.docx)",
    contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    mainPart: "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
  },
  docm: {
    label: "Word macro-enabled document (.docm)",
    contentType: "application/vnd.ms-word.document.macroEnabled.12",
    mainPart: "application/vnd.ms-word.document.macroEnabled.main+xml",
  },
  vstx: {
    label: "Visio template (.vstx)",
    contentType: "application/vnd.ms-visio.template",
    mainPart: "application/vnd.ms-visio.template.main+xml",
  },
  vsdx: {
    label: "Visio drawing (.vsdx)",
    contentType: "application/vnd.ms-visio.drawing",
    mainPart: "application/vnd.ms-visio.drawing.main+xml",
  },
  pdf: { label: "PDF file (.pdf)", contentType: "application/pdf", mainPart: null },
  xml: { label: "XML file (.xml)", contentType: "application/xml", mainPart: null },
  xfa: { label: "XFA model (.xfa)", contentType: "application/xml", mainPart: null },
  xfah: { label: "XFA model (.xfah)", contentType: "application/xml", mainPart: null },
  xfdf: { label: "XFDF model (.xfdf)", contentType: "application/vnd.adobe.xfdf", mainPart: null },
} as const;
export type OfficeKind = keyof typeof OFFICE_KINDS;

/**
 * Name and extension of a chosen file (spec 2 §5): the extension is everything after the first dot, the name what
 * comes before it, trimmed ("Patent Letter.v2.dotx" → "Patent Letter", "v2.dotx").
 */
export function splitFileName(fileName: string): { name: string; ext: string } {
  const base = fileName.split(/[\\/]/).pop() ?? "";
  const dot = base.indexOf(".");
  return dot < 0 ? { name: base.trim(), ext: "" } : { name: base.slice(0, dot).trim(), ext: base.slice(dot + 1).toLowerCase() };
}

/** The extensions each template kind accepts (spec 2 §5). */
export const TEMPLATE_EXTENSIONS = { word: ["dotx"], visio: ["vstx"], drawing: ["vsdx", "vstx"] } as const;

/** The kind of a file by the last part of its extension (`v2.dotx` → dotx), when it is one of `accepted`. */
export function kindOf(fileName: string, accepted: readonly OfficeKind[]): OfficeKind | null {
  const last = splitFileName(fileName).ext.split(".").pop() ?? "";
  return (accepted as readonly string[]).includes(last) ? (last as OfficeKind) : null;
}

export const TEMPLATE_MESSAGES = {
  /** Spec 2 §5: the name (derived from the file) is required. */
  templateRequired: "Template is required",
  wrongType: (extensions: readonly string[]) => `Choose a ${extensions.map((e) => `.${e}`).join(" or ")} file.`,
  nameEmpty: "The file name must have a name before its extension.",
} as const;

const description = limitText(z.string().trim(), "Description", TEXT_LIMITS.description, { multiline: true });
const tags = boundedList(limitText(z.string().trim().min(1), "Tag", TEXT_LIMITS.tag), "tags", LIST_LIMITS.tags);
/** The bounded fields forms build on (app schemas extend, never restate). */
export const TemplateFields = { description, tags };

/** The fields every template answers (spec 2 §3). */
const TemplateBase = z.object({
  id: z.string(),
  name: z.string(),
  ext: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  fileTemplate: RecordFile.nullable(),
  /** The template's download (the file's `url`), null without a file. */
  contentUrl: z.string().nullable(),
  modifiedAt: z.string(),
});

const fileTemplate = (label: string) => ({ fileTemplate: { maxBytes: MAX_TEMPLATE_BYTES, label } });

// ------------------------------------------------------------------ Word

export const WordTemplate = TemplateBase.extend({ isPublic: z.boolean(), isStyleMaster: z.boolean() }).merge(Audit);
export type WordTemplate = z.infer<typeof WordTemplate>;
export const WordTemplateCreate = z.object({
  description: description.optional().default(""),
  tags: tags.optional().default([]),
  isPublic: z.boolean().optional().default(false),
  isStyleMaster: z.boolean().optional().default(false),
});
const WordTemplateUpdate = z
  .object({ description, tags, isPublic: z.boolean(), isStyleMaster: z.boolean() })
  .partial();

/** /api/docs/word: the file part `fileTemplate` (.dotx) is required on create. */
export const WordTemplatesResource = defineResource({
  name: "word-templates",
  path: "/api/docs/word",
  item: WordTemplate,
  create: WordTemplateCreate,
  update: WordTemplateUpdate,
  permissions: { read: "templates.read", create: "templates", write: "templates" },
  notFound: "Word template not found.",
  files: fileTemplate("Template"),
});

// ------------------------------------------------------------------ Visio

export const VisioTemplate = TemplateBase.extend({ isPublic: z.boolean() }).merge(Audit);
export type VisioTemplate = z.infer<typeof VisioTemplate>;
export const VisioTemplateCreate = WordTemplateCreate.omit({ isStyleMaster: true });
const VisioTemplateUpdate = WordTemplateUpdate.omit({ isStyleMaster: true });

/** /api/docs/visio: the file part `fileTemplate` (.vstx) is required on create; its masters become shapes. */
export const VisioTemplatesResource = defineResource({
  name: "visio-templates",
  path: "/api/docs/visio",
  item: VisioTemplate,
  create: VisioTemplateCreate,
  update: VisioTemplateUpdate,
  permissions: { read: "templates.read", create: "templates", write: "templates" },
  notFound: "Visio template not found.",
  files: fileTemplate("Template"),
});

// ------------------------------------------------------------------ Drawings

const textTemplate = limitText(z.string(), "Text template", TEXT_LIMITS.template, { multiline: true });

export const Drawing = TemplateBase.extend({ textTemplate: z.string() }).merge(Audit);
export type Drawing = z.infer<typeof Drawing>;
export const DrawingCreate = z.object({
  description: description.optional().default(""),
  tags: tags.optional().default([]),
  textTemplate: textTemplate.optional().default(""),
});
const DrawingUpdate = z.object({ description, tags, textTemplate }).partial();

/** /api/drawings: the file part `fileTemplate` (.vsdx or .vstx) is required on create; writes need templates.write. */
export const DrawingsResource = defineResource({
  name: "drawings",
  path: "/api/drawings",
  item: Drawing,
  create: DrawingCreate,
  update: DrawingUpdate,
  permissions: { read: "templates.read", create: "templates", write: "templates" },
  notFound: "Drawing not found.",
  files: fileTemplate("Template"),
});

// ------------------------------------------------------------------ Shapes

/**
 * A shape: one master of an uploaded Visio template (docs/decisions/shapes.md), with a thumbnail drawn from the
 * master's geometry. Created and deleted with its template's file; name, description and tags are editable.
 */
export const Shape = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    /** The master's universal name in the template (NameU), what ties an edited shape to a replaced file's master. */
    master: z.string(),
    templateId: z.string(),
    templateName: z.string(),
    thumbnailUrl: z.string(),
  })
  .merge(Audit);
export type Shape = z.infer<typeof Shape>;
const SHAPE_MESSAGES = { nameRequired: FIELD_MESSAGES.nameRequired, noCreate: "Shapes come from Visio templates." } as const;
export const ShapeUpdate = z
  .object({
    name: limitText(
      z.string({ required_error: SHAPE_MESSAGES.nameRequired }).trim().min(1, SHAPE_MESSAGES.nameRequired),
      "Name",
      TEXT_LIMITS.name,
    ),
    description,
    tags,
  })
  .partial();

/** /api/shapes (get, patch, delete; spec 2 §7) and GET /api/shapes/{id}/thumbnail (SVG). No create. */
export const ShapesResource = defineResource({
  name: "shapes",
  path: "/api/shapes",
  item: Shape,
  create: ShapeUpdate.required(),
  update: ShapeUpdate,
  permissions: { read: "templates.read", create: "templates", write: "templates" },
  notFound: "Shape not found.",
  omit: ["create"],
});
export const shapeThumbnailPath = (id: string) => `/api/shapes/${encodeURIComponent(id)}/thumbnail`;
