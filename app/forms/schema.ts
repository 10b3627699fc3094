import { z } from "zod";
import {
  FORM_MESSAGES,
  FormFields,
  MAX_MODEL_BYTES,
  formFileExtensions,
  isPdfFormType,
  modelFileExtensions,
  type FormType,
} from "@contract/forms";
import { RECORD_FILE_MESSAGES } from "@contract/record-files";
import { MAX_TEMPLATE_BYTES, kindOf, splitFileName } from "@contract/templates";
import { textList } from "~/lib/form-fields";

const file = z.custom<File>((v) => v instanceof File && v.size > 0).optional();

/** The files and the rules that depend on the type, on lenient fields so that they run whatever else fails. */
const FormFiles = z
  .object({
    type: z.string().optional(),
    formFile: file,
    modelFile: file,
    currentType: z.string().optional(),
    hasModel: z.string().optional(),
  })
  .superRefine((v, ctx) => {
    const fail = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    const changed = !v.currentType || v.currentType !== v.type;
    // Said whatever the type, chosen or not: a form cannot be made without its file.
    if (!v.formFile && changed) fail("formFile", FORM_MESSAGES.formFileRequired);
    const parsedType = FormFields.type.safeParse(v.type);
    // An unknown or missing type is the other half's message ('Type is required').
    if (!parsedType.success) return;
    const type = parsedType.data;
    if (v.formFile) {
      const accepted = formFileExtensions(type);
      if (!kindOf(v.formFile.name, accepted)) fail("formFile", FORM_MESSAGES.formFileType(accepted));
      else if (splitFileName(v.formFile.name).name === "") fail("formFile", FORM_MESSAGES.nameEmpty);
      else if (v.formFile.size > MAX_TEMPLATE_BYTES) fail("formFile", RECORD_FILE_MESSAGES.tooLarge("Form file", MAX_TEMPLATE_BYTES));
    }
    if (isPdfFormType(type)) {
      if (!v.modelFile && (changed || v.hasModel !== "yes")) fail("modelFile", FORM_MESSAGES.modelFileRequired);
      if (v.modelFile) {
        const accepted = modelFileExtensions(type);
        if (!kindOf(v.modelFile.name, accepted)) fail("modelFile", FORM_MESSAGES.modelFileType(accepted));
        else if (v.modelFile.size > MAX_MODEL_BYTES) fail("modelFile", RECORD_FILE_MESSAGES.tooLarge("Model file", MAX_MODEL_BYTES));
      }
    }
  })
  .transform(({ formFile, modelFile, type }) => ({
    formFile,
    // A Word form has no model file: one left in the input is not sent.
    modelFile: FormFields.type.safeParse(type).success && isPdfFormType(type as FormType) ? modelFile : undefined,
  }));

/**
 * The form's form (spec 2 §5), for create and edit alike: the contract's fields, the form and model files, and the
 * rules that depend on the type. `currentType` and `hasModel` (hidden fields of the edit screen; empty on create) say
 * what the record has: the form file is required on create or when the type changes, the model file for the PDF types
 * when new or when the type changes. The upstream checks the same against the stored record.
 * Two halves checked side by side (an intersection): zod skips an object's refinement once one of its fields fails,
 * and the file rules must be said together with 'Type is required' or 'Filename Template is required'.
 */
export const FormSchema = z.intersection(
  z.object({
    type: FormFields.type,
    description: FormFields.description.optional().default(""),
    fileNameTemplate: FormFields.fileNameTemplate,
    foreach: FormFields.foreach.optional().default(""),
    clients: textList(FormFields.clients),
    organizations: z.array(z.string()).optional().default([]).pipe(FormFields.organizations),
    tags: textList(FormFields.tags),
  }),
  FormFiles,
);
