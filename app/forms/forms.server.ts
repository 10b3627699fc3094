import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { FormsResource, type Form } from "@contract/forms";
import { requireRoute } from "~/auth/guard.server";
import { formatDateTime } from "~/lib/format";
import { editorAction, editorLoader, fileLoader, listLoader } from "~/kit/resource-routes.server";
import { resourceClient } from "~/lib/resource.server";
import { users } from "~/people/users.server";
import { FormSchema } from "./schema";
import { FORMS } from "./texts";

/** The forms collection of the upstream contract (spec 2 §7), through the resource kit. */
const forms = resourceClient(FormsResource);

/** Where the back office serves a form's files (spec 2 §7: downloads of form and model). */
const formFileHref = (id: string, field: "formFile" | "modelFile") => `/forms/${id}/files/${field}`;

const formRow = (f: Form, timeZone: string) => ({
  id: f.id,
  name: f.name,
  type: f.type,
  description: f.description,
  tags: f.tags,
  modified: formatDateTime(f.modifiedAt, timeZone),
  formFile: f.formFile ? { name: f.formFile.name, href: formFileHref(f.id, "formFile") } : null,
  modelFile: f.modelFile ? { name: f.modelFile.name, href: formFileHref(f.id, "modelFile") } : null,
});

export const formsListLoader = (args: LoaderFunctionArgs) => listLoader(args, forms, { row: formRow });

/** The create screen: the route's permission and the organizations to choose from. */
export async function formCreateLoader(args: LoaderFunctionArgs) {
  const { api } = await requireRoute(args);
  return { organizations: await users.organizations(api) };
}

/** The edit screen: the record (or 404), what the user may do, its files, the organizations. */
export async function formEditLoader(args: LoaderFunctionArgs) {
  const { id, record, may } = await editorLoader(args, forms);
  const { api } = await requireRoute(args);
  const f = record;
  return {
    id,
    may,
    organizations: await users.organizations(api),
    record: f
      ? {
          name: f.name,
          type: f.type,
          description: f.description,
          fileNameTemplate: f.fileNameTemplate,
          foreach: f.foreach,
          clients: f.clients,
          organizations: f.organizations,
          tags: f.tags,
          formFile: f.formFile ? { name: f.formFile.name, size: f.formFile.size, href: formFileHref(id, "formFile") } : null,
          modelFile: f.modelFile ? { name: f.modelFile.name, size: f.modelFile.size, href: formFileHref(id, "modelFile") } : null,
        }
      : null,
  };
}

/** Create and edit: the kit's editor action; after save or delete back to /forms (spec 2 §2). */
export const formAction = (args: ActionFunctionArgs) =>
  editorAction(args, forms, { schema: FormSchema, texts: FORMS, list: "/forms" });

/** A form's form file or model file, streamed (forms.read). */
export const formFileLoader = (args: LoaderFunctionArgs) => fileLoader(args, forms, args.params.field ?? "");
