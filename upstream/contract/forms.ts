import { z } from "zod";
import { Audit, FIELD_MESSAGES, LIST_LIMITS, TEXT_LIMITS, boundedList, limitText } from "./common";
import { RecordFile } from "./record-files";
import { defineResource } from "./resource";
import { MAX_TEMPLATE_BYTES, type OfficeKind } from "./templates";

/** Form types (spec 2 §9). */
export const FORM_TYPES = ["docx", "docm", "xfa", "xfah", "xfdf"] as const;
export const FormType = z.enum(FORM_TYPES);
export type FormType = z.infer<typeof FormType>;
/** The PDF-based types: their form file is a .pdf and they need a model file (spec 2 §5). */
const PDF_FORM_TYPES: readonly FormType[] = ["xfa", "xfah", "xfdf"];
export const isPdfFormType = (type: FormType) => PDF_FORM_TYPES.includes(type);

/** The form file's accepted extensions for a type (spec 2 §5). */
export const formFileExtensions = (type: FormType): OfficeKind[] => (isPdfFormType(type) ? ["pdf"] : ["docx", "docm"]);
/** The model file's accepted extensions for a PDF type: `.{type}` or `.xml` (spec 2 §5). */
export const modelFileExtensions = (type: FormType): OfficeKind[] => [type, "xml"];

/** Largest model file (XML). */
export const MAX_MODEL_BYTES = 5 * 1024 * 1024;

/** The texts of spec 2 §5 and §8 for forms, used by the upstream's 400s and the form. */
export const FORM_MESSAGES = {
  typeRequired: FIELD_MESSAGES.typeRequired,
  formFileRequired: "Form file is required",
  modelFileRequired: "Model file is required",
  fileNameTemplateRequired: "Filename Template is required",
  formFileType: (extensions: readonly string[]) => `The form file must be ${extensions.map((e) => `.${e}`).join(" or ")}.`,
  modelFileType: (extensions: readonly string[]) => `The model file must be ${extensions.map((e) => `.${e}`).join(" or ")}.`,
  nameEmpty: "The form file name must have a name before its extension.",
} as const;

const M = FORM_MESSAGES;
const text = (label: string, max: number) => limitText(z.string().trim(), label, max);
export const FormFields = {
  type: z.enum(FORM_TYPES, { required_error: M.typeRequired, invalid_type_error: M.typeRequired }),
  description: limitText(z.string().trim(), "Description", TEXT_LIMITS.description, { multiline: true }),
  fileNameTemplate: limitText(
    z.string({ required_error: M.fileNameTemplateRequired }).trim().min(1, M.fileNameTemplateRequired),
    "Filename Template",
    TEXT_LIMITS.name,
  ),
  foreach: text("Foreach", TEXT_LIMITS.name),
  clients: boundedList(limitText(z.string().trim().min(1), "Client", TEXT_LIMITS.name), "clients", LIST_LIMITS.tags),
  organizations: boundedList(
    limitText(z.string().min(1), "Organization id", TEXT_LIMITS.id),
    "organizations",
    LIST_LIMITS.organizations,
  ),
  tags: boundedList(limitText(z.string().trim().min(1), "Tag", TEXT_LIMITS.tag), "tags", LIST_LIMITS.tags),
};

/** A form (spec 2 §3). `name` is the form file's name without its extension. */
export const Form = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    type: FormType,
    fileNameTemplate: z.string(),
    foreach: z.string(),
    clients: z.array(z.string()),
    organizations: z.array(z.string()),
    tags: z.array(z.string()),
    formFile: RecordFile.nullable(),
    modelFile: RecordFile.nullable(),
    formUrl: z.string().nullable(),
    modelUrl: z.string().nullable(),
    modifiedAt: z.string(),
  })
  .merge(Audit);
export type Form = z.infer<typeof Form>;

/**
 * A form's fields before anyone sets them: the new-form screen starts from these, and the upstream's store reads a
 * missing or damaged stored value as them. The type is not among them: the screen asks for one (spec 2 §5).
 */
export const FORM_DEFAULTS = Object.freeze({
  description: "",
  fileNameTemplate: "",
  foreach: "",
  clients: [] as string[],
  organizations: [] as string[],
  tags: [] as string[],
  formFile: null,
  modelFile: null,
});

/** The `data` part of POST /api/forms/ (multipart with `formFile` and, for PDF types, `modelFile`). */
const FormCreate = z.object({
  type: FormFields.type,
  description: FormFields.description.optional().default(""),
  fileNameTemplate: FormFields.fileNameTemplate,
  foreach: FormFields.foreach.optional().default(""),
  clients: FormFields.clients.optional().default([]),
  organizations: FormFields.organizations.optional().default([]),
  tags: FormFields.tags.optional().default([]),
});
const FormUpdate = z
  .object({
    type: FormFields.type,
    description: FormFields.description,
    fileNameTemplate: FormFields.fileNameTemplate,
    foreach: FormFields.foreach,
    clients: FormFields.clients,
    organizations: FormFields.organizations,
    tags: FormFields.tags,
  })
  .partial();

/** /api/forms: forms.read lists and shows, forms creates, changes and deletes (spec 2 §6). */
export const FormsResource = defineResource({
  name: "forms",
  path: "/api/forms",
  item: Form,
  create: FormCreate,
  update: FormUpdate,
  permissions: { read: "forms.read", create: "forms", write: "forms" },
  notFound: "Form not found.",
  files: {
    formFile: { maxBytes: MAX_TEMPLATE_BYTES, label: "Form file" },
    modelFile: { maxBytes: MAX_MODEL_BYTES, label: "Model file" },
  },
});
