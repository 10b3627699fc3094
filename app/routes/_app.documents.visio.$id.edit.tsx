import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { templateAction, templateEditLoader } from "~/templates/kinds.server";
import { VisioTemplateSchemas } from "~/templates/schema";
import { TemplateForm } from "~/templates/TemplateForm";
import { VISIO_TEMPLATES } from "~/templates/texts";
import { DeleteZone } from "~/ui/editor";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";
export { shouldRevalidate } from "~/ui/editor";

export const meta: MetaFunction = () => [{ title: "Edit Visio templates · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return templateEditLoader(args, "visio");
}

export async function action(args: ActionFunctionArgs) {
  return templateAction(args, "visio");
}

export default function EditVisio() {
  const { id, record, may, current, editor } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{VISIO_TEMPLATES.editTitle}</h1>
      </div>
      <TemplateForm
        id={`edit-visio-${id}`}
        schema={VisioTemplateSchemas.edit}
        texts={VISIO_TEMPLATES}
        accept=".vstx"
        defaults={record ?? { name: "", description: "", tags: [] }}
        current={current}
        actionData={actionData}
        canWrite={may.write}
        cancelTo="/documents/visio"
        flags={["isPublic"]}
        editor={editor ?? undefined}
      />
      {may.write && record ? (
        <DeleteZone label={VISIO_TEMPLATES.delete} name={record.name} texts={VISIO_TEMPLATES} actionData={actionData} />
      ) : null}
    </>
  );
}
