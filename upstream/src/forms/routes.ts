import type { Hono, MiddlewareHandler } from "hono";
import {
  FORM_MESSAGES,
  FormsResource,
  formFileExtensions,
  isPdfFormType,
  modelFileExtensions,
  type FormType,
} from "../../contract/forms";
import { kindOf, splitFileName } from "../../contract/templates";
import { badRequest, fieldMessage, type AppEnv } from "../lib/http";
import type { FileUpload, RecordFiles } from "../lib/record-files";
import { resourceRoutes, type FilesCheck } from "../lib/resource-routes";
import type { OrganizationsStore } from "../organizations/store";
import { checkOfficeFile } from "../templates/office";
import type { FormsStore, StoredForm } from "./store";

/**
 * The form rules of spec 2 §5 on a create (`current` null) or patch: type required (the schema); the form file
 * required on create or when the type changes, .pdf for the PDF types and .docx/.docm otherwise; the model file
 * required for xfa, xfah and xfdf when new or when the type changes, `.{type}` or `.xml`; the name is the form
 * file's name without its extension. A form moved to a Word type drops its model file.
 */
async function formFiles(
  uploads: Partial<Record<string, FileUpload>>,
  input: { type?: FormType },
  current: StoredForm | null,
): Promise<FilesCheck<StoredForm>> {
  const type = input.type ?? current?.type;
  if (!type) throw badRequest(fieldMessage(["type"], FORM_MESSAGES.typeRequired));
  const typeChanged = !current || (input.type !== undefined && input.type !== current.type);
  const { formFile, modelFile } = uploads;
  const values: Partial<StoredForm> = {};
  const properties: FilesCheck<StoredForm>["properties"] = {};
  if (!formFile && typeChanged) throw badRequest(fieldMessage(["formFile"], FORM_MESSAGES.formFileRequired));
  if (formFile) {
    const accepted = formFileExtensions(type);
    const kind = kindOf(formFile.name, accepted);
    if (!kind) throw badRequest(fieldMessage(["formFile"], FORM_MESSAGES.formFileType(accepted)));
    const { name } = splitFileName(formFile.name);
    if (!name) throw badRequest(fieldMessage(["formFile"], FORM_MESSAGES.nameEmpty));
    properties.formFile = (await checkOfficeFile("formFile", formFile, kind)).properties;
    values.name = name;
  }
  if (isPdfFormType(type)) {
    if (!modelFile && (typeChanged || !current?.modelFile)) {
      throw badRequest(fieldMessage(["modelFile"], FORM_MESSAGES.modelFileRequired));
    }
    if (modelFile) {
      const accepted = modelFileExtensions(type);
      const kind = kindOf(modelFile.name, accepted);
      if (!kind) throw badRequest(fieldMessage(["modelFile"], FORM_MESSAGES.modelFileType(accepted)));
      properties.modelFile = (await checkOfficeFile("modelFile", modelFile, kind)).properties;
    }
  } else {
    if (modelFile) delete uploads.modelFile; // a Word form has no model: a stray part is ignored
    if (current?.modelFile) values.modelFile = null;
  }
  return { values, properties };
}

/** /api/forms (spec 2 §7): multipart create and patch (`formFile`, `modelFile`), downloads of both. */
export function formRoutes(deps: {
  forms: FormsStore;
  organizations: OrganizationsStore;
  files: RecordFiles;
  requireAuth: MiddlewareHandler<AppEnv>;
}): Hono<AppEnv> {
  const { organizations } = deps;
  const knownOrganizations = (ids: readonly string[] | undefined) => {
    const unknown = ids?.length ? organizations.unknownIds(ids) : [];
    if (unknown.length) throw badRequest(fieldMessage(["organizations"], `Unknown organization: ${unknown[0]}`));
  };
  return resourceRoutes(FormsResource, deps.forms, {
    requireAuth: deps.requireAuth,
    files: deps.files,
    hooks: {
      files: (uploads, input, current) => formFiles(uploads, input as { type?: FormType }, current),
      beforeCreate: (input) => {
        knownOrganizations(input.organizations);
        return { ...input, name: "", formFile: null, modelFile: null };
      },
      beforeUpdate: (input) => {
        knownOrganizations(input.organizations);
        return input;
      },
      // The kit has answered the files (with their url) already.
      toItem: (item) => {
        const answered = item as unknown as { formFile: { url: string } | null; modelFile: { url: string } | null };
        return {
          ...item,
          formUrl: answered.formFile?.url ?? null,
          modelUrl: answered.modelFile?.url ?? null,
          modifiedAt: item.updatedAt,
        };
      },
    },
  });
}
