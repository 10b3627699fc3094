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
} from "../../upstream/contract/templates";
import { RECORD_FILE_MESSAGES } from "../../upstream/contract/record-files";
import { textList } from "../lib/form-fields";

const tags = textList(TemplateFields.tags);

/**
 * A template file field (spec 2 §5): required on create with 'Template is required' (the name comes from it), one of
 * `accepted`, at most MAX_TEMPLATE_BYTES. On edit it may be left empty (the file stays).
 */
export function templateFile(accepted: readonly ("dotx" | "vstx" | "vsdx")[], required: boolean) {
  const file = z
    .custom<File>((v) => v instanceof File && v.size > 0, TEMPLATE_MESSAGES.templateRequired)
    .refine((f) => kindOf(f.name, accepted) !== null, TEMPLATE_MESSAGES.wrongType(accepted))
    .refine((f) => splitFileName(f.name).name !== "", TEMPLATE_MESSAGES.nameEmpty)
    .refine((f) => f.size <= MAX_TEMPLATE_BYTES, RECORD_FILE_MESSAGES.tooLarge("Template", MAX_TEMPLATE_BYTES));
  return required ? file : file.optional();
}

const word = (required: boolean) =>
  WordTemplateCreate.extend({ tags, fileTemplate: templateFile(TEMPLATE_EXTENSIONS.word, required) });
const visio = (required: boolean) =>
  VisioTemplateCreate.extend({ tags, fileTemplate: templateFile(TEMPLATE_EXTENSIONS.visio, required) });
const drawing = (required: boolean) =>
  DrawingCreate.extend({ tags, fileTemplate: templateFile(TEMPLATE_EXTENSIONS.drawing, required) });

/** The Word template form: create needs the .dotx, edit may keep the current file. */
export const WordTemplateSchemas = { create: word(true), edit: word(false) };
export const VisioTemplateSchemas = { create: visio(true), edit: visio(false) };
export const DrawingSchemas = { create: drawing(true), edit: drawing(false) };
/** A shape's edit form: the contract's name (required, 'Name is required'), description and tags. */
export const ShapeSchema = z.object({
  name: ShapeUpdate.shape.name.unwrap(),
  description: TemplateFields.description.optional().default(""),
  tags,
});
