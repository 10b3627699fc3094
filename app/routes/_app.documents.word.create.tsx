import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { templateAction, templateCreateLoader } from "~/templates/kinds.server";
import { WordTemplateSchemas } from "~/templates/schema";
import { TemplateForm } from "~/templates/TemplateForm";
import { WORD_TEMPLATES } from "~/templates/texts";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";


export const meta: MetaFunction = () => [{ title: "New Word templates · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return templateCreateLoader(args, "word");
}

export async function action(args: ActionFunctionArgs) {
  return templateAction(args, "word");
}

export default function NewWord() {
  const { editor } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{WORD_TEMPLATES.newTitle}</h1>
      </div>
      <TemplateForm
        id="new-word"
        schema={WordTemplateSchemas.create}
        texts={WORD_TEMPLATES}
        accept=".dotx"
        defaults={{ name: "", description: "", tags: [], textTemplate: "" }}
        current={null}
        actionData={actionData}
        canWrite
        cancelTo="/documents/word"
        flags={["isPublic", "isStyleMaster"]}
        editor={editor ?? undefined}
      />
    </>
  );
}
