import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { templateAction, templateEditLoader } from "~/templates/kinds.server";
import { DrawingSchemas } from "~/templates/schema";
import { TemplateForm } from "~/templates/TemplateForm";
import { DRAWINGS } from "~/templates/texts";
import { DeleteZone } from "~/ui/editor";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";
export { shouldRevalidate } from "~/ui/editor";

export const meta: MetaFunction = () => [{ title: "Edit Drawings · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return templateEditLoader(args, "drawing");
}

export async function action(args: ActionFunctionArgs) {
  return templateAction(args, "drawing");
}

export default function EditDrawing() {
  const { id, record, may, current, editor } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{DRAWINGS.editTitle}</h1>
      </div>
      <TemplateForm
        id={`edit-drawing-${id}`}
        schema={DrawingSchemas.edit}
        texts={DRAWINGS}
        accept=".vsdx,.vstx"
        defaults={record ?? { name: "", description: "", tags: [] }}
        current={current}
        actionData={actionData}
        canWrite={may.write}
        cancelTo="/drawings"
        flags={[]}
        editor={editor ?? undefined}
      />
      {may.write && record ? (
        <DeleteZone label={DRAWINGS.delete} name={record.name} texts={DRAWINGS} actionData={actionData} />
      ) : null}
    </>
  );
}
