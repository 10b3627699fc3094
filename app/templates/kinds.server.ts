import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireRoute } from "~/auth/guard.server";
import { editorAction, editorLoader, fileLoader, listLoader } from "~/kit/resource-routes.server";
import { TEMPLATE_KINDS, templatePaths, type TemplateKind } from "./kinds";
import { currentFile, drawings, templateHelpers, templateRow, visioTemplates, wordTemplates } from "./templates.server";

/**
 * The loaders and actions of the template kinds' routes (spec 2 §2, §5): each route file passes its kind. The three
 * upstream collections differ only in a flag or two (the resource kit's clients); one type serves all three here.
 */
const CLIENTS = { word: wordTemplates, visio: visioTemplates, drawing: drawings } as const;
const clientOf = (kind: TemplateKind) => CLIENTS[kind] as typeof wordTemplates;
type Access = Awaited<ReturnType<typeof requireRoute>>;

/** The drawing editor's Handlebars helpers, for the kinds that have a text template; null for the others. */
const editorOf = (kind: TemplateKind, { api }: Access) =>
  TEMPLATE_KINDS[kind].textTemplate ? templateHelpers(api) : Promise.resolve(null);

/** The list screen's loader (resource kit): rows with the file's document properties and its download. */
export function templateListLoader(args: LoaderFunctionArgs, kind: TemplateKind) {
  const file = templatePaths(kind).file;
  return listLoader(args, clientOf(kind), { row: (t, timeZone) => templateRow(t, timeZone, file) });
}

/** The create screen's loader: the route's permission and the kind's editor helpers. */
export async function templateCreateLoader(args: LoaderFunctionArgs, kind: TemplateKind) {
  return { editor: await editorOf(kind, await requireRoute(args)) };
}

/** The edit screen's loader: the record (or 404), what the user may do, its current file and editor helpers. */
export async function templateEditLoader(args: LoaderFunctionArgs, kind: TemplateKind) {
  const { id, record, may, editor } = await editorLoader(args, clientOf(kind), async (access) => ({
    editor: await editorOf(kind, access),
  }));
  const r = record as (typeof record & { textTemplate?: string; isStyleMaster?: boolean }) | null;
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
    current: r ? currentFile(r.fileTemplate, templatePaths(kind).file(id)) : null,
    editor,
  };
}

/** The create (no `params.id`) and edit action: the kit's editor action with the kind's form and its file. */
export function templateAction(args: ActionFunctionArgs, kind: TemplateKind) {
  const { schemas, texts } = TEMPLATE_KINDS[kind];
  const schema = args.params.id === undefined ? schemas.create : schemas.edit;
  return editorAction(args, clientOf(kind), {
    schema: schema as typeof TEMPLATE_KINDS.word.schemas.create,
    texts,
    list: templatePaths(kind).list,
  });
}

/** The kind's file, streamed byte for byte (templates.read; 404 without it or without a file). */
export function templateFileLoader(args: LoaderFunctionArgs, kind: TemplateKind) {
  return fileLoader(args, clientOf(kind), "fileTemplate");
}
