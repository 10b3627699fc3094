import { z } from "zod";
import {
  DrawingCreate,
  MAX_TEMPLATE_BYTES,
  ShapeUpdate,
  TEMPLATE_EXTENSIONS,
  TEMPLATE_MESSAGES,
  TemplateFields,
  VisioTemplateCreate,
  WordTemplateCreate,
  kindOf,
  splitFileName,
} from "@contract/templates";
import { RECORD_FILE_MESSAGES } from "@contract/record-files";
import { textList } from "~/lib/form-fields";

const tags = textList(TemplateFields.tags);

/**
 * A template file field (spec 2 §5): required on create with 'Template is required' (the name comes from it), one of
 * `accepted`, at most MAX_TEMPLATE_BYTES. On edit it may be left empty (the file stays).
 */
function templateFile(accepted: readonly ("dotx" | "vstx" | "vsdx")[], required: boolean) {
  const file = z
    .custom<File>((v) => v instanceof File && v.size > 0, TEMPLATE_MESSAGES.templateRequired)
    .refine((f) => kindOf(f.name, accepted) !== null, TEMPLATE_MESSAGES.wrongType(accepted))
    .refine((f) => splitFileName(f.name).name !== "", TEMPLATE_MESSAGES.nameEmpty)
    .refine((f) => f.size <= MAX_TEMPLATE_BYTES, RECORD_FILE_MESSAGES.tooLarge("Template", MAX_TEMPLATE_BYTES));
  return required ? file : file.optional();
}

/** A kind's form: create needs the file, edit may keep the current one. */
function templateSchemas<T extends z.ZodRawShape>(create: z.ZodObject<T>, accepted: readonly ("dotx" | "vstx" | "vsdx")[]) {
  const form = (required: boolean) => create.extend({ tags, fileTemplate: templateFile(accepted, required) });
  return { create: form(true), edit: form(false) };
}

export const WordTemplateSchemas = templateSchemas(WordTemplateCreate, TEMPLATE_EXTENSIONS.word);
export const VisioTemplateSchemas = templateSchemas(VisioTemplateCreate, TEMPLATE_EXTENSIONS.visio);
export const DrawingSchemas = templateSchemas(DrawingCreate, TEMPLATE_EXTENSIONS.drawing);

/** A shape's edit form: the contract's name (required, 'Name is required'), description and tags. */
export const ShapeSchema = z.object({
  name: ShapeUpdate.shape.name.unwrap(),
  description: TemplateFields.description.optional().default(""),
  tags,
});
