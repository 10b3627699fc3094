import { FORM_MESSAGES, FORM_TYPES, type FormType } from "@contract/forms";
import { SAVE_TOASTS } from "~/lib/form-texts";

const MODEL_HINT_PDF = "For the PDF types: a file of the chosen type (.xfa, .xfah or .xfdf) or .xml.";

/** Forms texts (spec 2 §2, §5, §8; verbatim where the spec gives them). */
export const FORMS = {
  listTitle: "Forms",
  addNew: "+ new",
  searchLabel: "Search forms",
  columns: { name: "Name", type: "Type", description: "Description", tags: "Tags", modified: "Last modification", actions: "Actions" },
  newTitle: "New Form",
  editTitle: "Edit Form",
  labels: {
    type: "Type",
    formFile: "Form file",
    modelFile: "Model file",
    name: "Name",
    description: "Description",
    fileNameTemplate: "Filename Template",
    foreach: "Foreach",
    clients: "Clients",
    organizations: "Organizations",
    tags: "Tags",
  },
  types: { docx: "Word (.docx)", docm: "Word with macros (.docm)", xfa: "XFA (PDF)", xfah: "XFA HTML (PDF)", xfdf: "XFDF (PDF)" } satisfies Record<FormType, string>,
  typeOrder: FORM_TYPES,
  chooseType: "Choose a type",
  formFileHint: (type: string) =>
    type === "xfa" || type === "xfah" || type === "xfdf" ? "A .pdf file." : "A .docx or .docm file. The name is taken from the file name.",
  /**
   * The model file's hint for the type shown. Without JavaScript the field stays on a Word form (the type may still
   * be changed to a PDF one before saving), so a Word type's hint says both.
   */
  modelFileHint: (type: string) =>
    type === "xfa" || type === "xfah" || type === "xfdf"
      ? `A .${type} or .xml file.`
      : type === "docx" || type === "docm"
        ? `Word forms have no model file: leave this empty. ${MODEL_HINT_PDF}`
        : MODEL_HINT_PDF,
  modelFileHintUntyped: MODEL_HINT_PDF,
  modelNotNeeded: "Word forms have no model file.",
  nameHint: "Filled from the chosen form file.",
  foreachHint: "Generate one document per item of this list (e.g. inventors); empty for one document.",
  clientsHint: "Separate clients with ;",
  noOrganizations: "No organizations yet.",
  downloadForm: "Download form file",
  downloadModel: "Download model file",
  save: "Save",
  cancel: "Cancel",
  delete: "Delete",
  readOnlyNote: "You can look at this form; changing it needs the forms permission.",
  validation: FORM_MESSAGES,
  toasts: {
    ...SAVE_TOASTS,
    deleted: "Form deleted",
    deleteFailed: "Failed to delete form",
  },
  inline: { saveFailed: "Failed to save a form. Check your input and try again." },
  confirmDelete: { title: "Delete this form?", message: (name: string) => `${name}: This action can't be undone.`, confirm: "Delete" },
  empty: "No forms yet.",
  emptySearch: (q: string) => `No forms match “${q}”.`,
  total: (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "form" : "forms"}`,
} as const;
