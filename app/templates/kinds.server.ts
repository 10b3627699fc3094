import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireRoute } from "../auth/guard.server";
import { editorAction, editorLoader, listLoader } from "../lib/resource-routes.server";
import { DrawingSchemas, VisioTemplateSchemas, WordTemplateSchemas } from "./schema";
import { DRAWINGS, VISIO_TEMPLATES, WORD_TEMPLATES } from "./texts";
import { TEMPLATE_PATHS, currentFile, drawings, templateHelpers, templateRow, visioTemplates, wordTemplates } from "./templates.server";

const KINDS = {
  word: { client: wordTemplates, schemas: WordTemplateSchemas, texts: WORD_TEMPLATES, paths: TEMPLATE_PATHS.word },
  visio: { client: visioTemplates, schemas: VisioTemplateSchemas, texts: VISIO_TEMPLATES, paths: TEMPLATE_PATHS.visio },
  drawing: { client: drawings, schemas: DrawingSchemas, texts: DRAWINGS, paths: TEMPLATE_PATHS.drawing },
} as const;
export type TemplateKind = keyof typeof KINDS;

/** The list loader of a template kind (resource kit). */
export function templateListLoader(args: LoaderFunctionArgs, kind: TemplateKind) {
  const k = KINDS[kind];
  return listLoader(args, k.client as typeof wordTemplates, {
    row: (t, timeZone) => templateRow(t, timeZone, k.paths.file),
  });
}

/** The create screen's loader: the route's permission; drawings also load the editor's helpers. */
export async function templateCreateLoader(args: LoaderFunctionArgs, kind: TemplateKind) {
  const { api } = await requireRoute(args);
  return { editor: kind === "drawing" ? await templateHelpers(api) : null };
}

/** The edit screen's loader: the record (or 404), what the user may do, its current file; drawings' helpers. */
export async function templateEditLoader(args: LoaderFunctionArgs, kind: TemplateKind) {
  const k = KINDS[kind];
  const { id, record, may } = await editorLoader(args, k.client as typeof wordTemplates);
  const r = record as
    | (typeof record & { textTemplate?: string; isStyleMaster?: boolean })
    | null;
  return {
    id,
    may,
    record: r
      ? {
          name: r.name,
          description: r.description,
          tags: r.tags,
          isPublic: r.isPublic,
          isStyleMaster: r.isStyleMaster ?? false,
          textTemplate: r.textTemplate ?? "",
        }
      : null,
    current: r ? currentFile(r.fileTemplate, k.paths.file(id)) : null,
    editor: kind === "drawing" ? await templateHelpers((await requireRoute(args)).api) : null,
  };
}

/** The create (no `params.id`) and edit action of a template kind: the kit's editor action with its files. */
export function templateAction(args: ActionFunctionArgs, kind: TemplateKind) {
  const k = KINDS[kind];
  const schema = args.params.id === undefined ? k.schemas.create : k.schemas.edit;
  return editorAction(args, k.client as typeof wordTemplates, {
    schema: schema as typeof WordTemplateSchemas.create,
    texts: k.texts,
    list: k.paths.list,
  });
}
