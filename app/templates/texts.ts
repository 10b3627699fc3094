import { TEMPLATE_EXTENSIONS, TEMPLATE_MESSAGES } from "@contract/templates";
import { SAVE_TOASTS } from "~/lib/form-texts";

/**
 * Word, Visio and drawing template texts (spec 2 §2, §5, §8, verbatim where the spec gives them). The success and
 * failure toasts are spec 2 §8's ('Create completed', 'Create failed' with the server's message…).
 */
function templateTexts(kind: { title: string; one: string; many: string; extensions: readonly string[]; inline: string }) {
  const accepted = kind.extensions.map((e) => `.${e}`).join(" or ");
  return {
    listTitle: kind.title,
    /** The browser tab's title of the list, create and edit screens. */
    documentTitles: { list: `${kind.title} · Backoffice`, create: `New ${kind.title} · Backoffice`, edit: `Edit ${kind.title} · Backoffice` },
    addNew: "+ new",
    searchLabel: `Search ${kind.many}`,
    columns: { name: "Name", description: "Description", tags: "Tags", modified: "Last modification", actions: "Actions" },
    properties: (title: string | null, author: string | null) =>
      [title ? `Title: ${title}` : null, author ? `Author: ${author}` : null].filter(Boolean).join(" · "),
    download: (name: string) => `Download ${name}`,
    edit: (name: string) => `Edit ${name}`,
    newTitle: `New ${kind.one}`,
    editTitle: `Edit ${kind.one}`,
    labels: {
      file: "Template file",
      name: "Name",
      description: "Description",
      tags: "Tags",
      isPublic: "Public",
      isStyleMaster: "Style master",
      textTemplate: "Text template",
    },
    fileHint: `Accepted: ${accepted}. The name is taken from the file name.`,
    nameHint: "Filled from the chosen file.",
    save: "Save",
    cancel: "Cancel",
    delete: "Delete",
    readOnlyNote: `You can look at this ${kind.one}; changing it needs the templates permission.`,
    validation: TEMPLATE_MESSAGES,
    toasts: SAVE_TOASTS,
    inline: { saveFailed: kind.inline },
    confirmDelete: {
      title: `Delete this ${kind.one}?`,
      message: (name: string) => `${name}: This action can't be undone.`,
      confirm: "Delete",
    },
    empty: `No ${kind.many} yet.`,
    emptySearch: (q: string) => `No ${kind.many} match “${q}”.`,
    total: (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? kind.one : kind.many}`,
  } as const;
}

/** Spec 2 §8: 'Failed to create a new document. Check your input and try again.' */
export const DOCUMENT_SAVE_FAILED = "Failed to create a new document. Check your input and try again.";

export const WORD_TEMPLATES = templateTexts({
  title: "Word templates",
  one: "Word template",
  many: "Word templates",
  extensions: TEMPLATE_EXTENSIONS.word,
  inline: DOCUMENT_SAVE_FAILED,
});
export const VISIO_TEMPLATES = templateTexts({
  title: "Visio templates",
  one: "Visio template",
  many: "Visio templates",
  extensions: TEMPLATE_EXTENSIONS.visio,
  inline: DOCUMENT_SAVE_FAILED,
});
export const DRAWINGS = templateTexts({
  title: "Drawings",
  one: "drawing",
  many: "drawings",
  extensions: TEMPLATE_EXTENSIONS.drawing,
  inline: "Failed to save a drawing...",
});
export type TemplateTexts = typeof WORD_TEMPLATES;

export const SHAPES = {
  listTitle: "Shapes",
  addNew: "",
  searchLabel: "Search shapes",
  columns: { thumbnail: "Shape", name: "Name", template: "Visio template", tags: "Tags", modified: "Last modification" },
  origin: "Shapes are the masters of the Visio templates: upload or replace a Visio template to add or refresh them.",
  visioLink: "Visio templates",
  editTitle: "Edit Shape",
  labels: { name: "Name", description: "Description", tags: "Tags", template: "From Visio template", master: "Master" },
  thumbnailAlt: (name: string) => `Thumbnail of ${name}`,
  save: "Save",
  cancel: "Cancel",
  delete: "Delete",
  readOnlyNote: "You can look at this shape; changing it needs the templates permission.",
  toasts: SAVE_TOASTS,
  inline: { saveFailed: "Failed to save a shape. Check your input and try again." },
  confirmDelete: {
    title: "Delete this shape?",
    message: (name: string) => `${name}: This action can't be undone. Replacing its Visio template's file brings it back.`,
    confirm: "Delete",
  },
  empty: "No shapes yet: they come from the masters of Visio templates.",
  emptySearch: (q: string) => `No shapes match “${q}”.`,
  total: (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "shape" : "shapes"}`,
} as const;
