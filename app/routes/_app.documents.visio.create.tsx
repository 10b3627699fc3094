import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { templateAction, templateCreateLoader } from "~/templates/kinds.server";
import { VisioTemplateSchemas } from "~/templates/schema";
import { TemplateForm } from "~/templates/TemplateForm";
import { VISIO_TEMPLATES } from "~/templates/texts";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";


export const meta: MetaFunction = () => [{ title: "New Visio templates · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return templateCreateLoader(args, "visio");
}

export async function action(args: ActionFunctionArgs) {
  return templateAction(args, "visio");
}

export default function NewVisio() {
  const { editor } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{VISIO_TEMPLATES.newTitle}</h1>
      </div>
      <TemplateForm
        id="new-visio"
        schema={VisioTemplateSchemas.create}
        texts={VISIO_TEMPLATES}
        accept=".vstx"
        defaults={{ name: "", description: "", tags: [], textTemplate: "" }}
        current={null}
        actionData={actionData}
        canWrite
        cancelTo="/documents/visio"
        flags={["isPublic"]}
        editor={editor ?? undefined}
      />
    </>
  );
}
