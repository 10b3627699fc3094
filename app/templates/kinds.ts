import { TEMPLATE_EXTENSIONS } from "@contract/templates";
import { DrawingSchemas, VisioTemplateSchemas, WordTemplateSchemas } from "./schema";
import { DRAWINGS, VISIO_TEMPLATES, WORD_TEMPLATES, type TemplateTexts } from "./texts";

/**
 * The three template kinds (spec 2 §2, §5): Word templates, Visio templates and drawings share one set of screens and
 * loaders; this table is all that differs between them. The accepted extensions are the contract's, so the file
 * input, its hint, the form's check and the upstream's check read one list. Browser-safe: the screens use it too; the
 * upstream clients are added in kinds.server.ts.
 */
export const TEMPLATE_KINDS = {
  word: {
    texts: WORD_TEMPLATES,
    schemas: WordTemplateSchemas,
    extensions: TEMPLATE_EXTENSIONS.word,
    flags: ["isPublic", "isStyleMaster"],
    textTemplate: false,
    base: "/documents/word",
  },
  visio: {
    texts: VISIO_TEMPLATES,
    schemas: VisioTemplateSchemas,
    extensions: TEMPLATE_EXTENSIONS.visio,
    flags: ["isPublic"],
    textTemplate: false,
    base: "/documents/visio",
  },
  drawing: {
    texts: DRAWINGS,
    schemas: DrawingSchemas,
    extensions: TEMPLATE_EXTENSIONS.drawing,
    flags: [],
    // Drawings carry a Handlebars text template, edited with the generator's helpers (spec 2 §5).
    textTemplate: true,
    base: "/drawings",
  },
} as const satisfies Record<string, TemplateKindConfig>;

export type TemplateKind = keyof typeof TEMPLATE_KINDS;
type TemplateFlag = "isPublic" | "isStyleMaster";

type TemplateKindConfig = {
  texts: TemplateTexts;
  schemas: { create: unknown; edit: unknown };
  extensions: readonly string[];
  flags: readonly TemplateFlag[];
  textTemplate: boolean;
  /** Where its screens live; the file route is a resource route beside them (templates.read, streamed). */
  base: string;
};

/** A kind's screens and its file's resource route. */
export function templatePaths(kind: TemplateKind) {
  const base = TEMPLATE_KINDS[kind].base;
  return {
    list: base,
    create: `${base}/create`,
    edit: (id: string) => `${base}/${id}/edit`,
    file: (id: string) => `${base}/${id}/file`,
  };
}

/** The file input's `accept` attribute: the kind's extensions (".vsdx,.vstx"). */
export const acceptOf = (kind: TemplateKind) => TEMPLATE_KINDS[kind].extensions.map((e) => `.${e}`).join(",");
