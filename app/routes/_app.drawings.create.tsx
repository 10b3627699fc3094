import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { templateAction, templateCreateLoader } from "~/templates/kinds.server";
import { DrawingSchemas } from "~/templates/schema";
import { TemplateForm } from "~/templates/TemplateForm";
import { DRAWINGS } from "~/templates/texts";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";


export const meta: MetaFunction = () => [{ title: "New Drawings · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return templateCreateLoader(args, "drawing");
}

export async function action(args: ActionFunctionArgs) {
  return templateAction(args, "drawing");
}

export default function NewDrawing() {
  const { editor } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{DRAWINGS.newTitle}</h1>
      </div>
      <TemplateForm
        id="new-drawing"
        schema={DrawingSchemas.create}
        texts={DRAWINGS}
        accept=".vsdx,.vstx"
        defaults={{ name: "", description: "", tags: [], textTemplate: "" }}
        current={null}
        actionData={actionData}
        canWrite
        cancelTo="/drawings"
        flags={[]}
        editor={editor ?? undefined}
      />
    </>
  );
}
