import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { templateAction, templateEditLoader } from "~/templates/kinds.server";
import { WordTemplateSchemas } from "~/templates/schema";
import { TemplateForm } from "~/templates/TemplateForm";
import { WORD_TEMPLATES } from "~/templates/texts";
import { DeleteZone } from "~/ui/editor";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";
export { shouldRevalidate } from "~/ui/editor";

export const meta: MetaFunction = () => [{ title: "Edit Word templates · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return templateEditLoader(args, "word");
}

export async function action(args: ActionFunctionArgs) {
  return templateAction(args, "word");
}

export default function EditWord() {
  const { id, record, may, current, editor } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{WORD_TEMPLATES.editTitle}</h1>
      </div>
      <TemplateForm
        id={`edit-word-${id}`}
        schema={WordTemplateSchemas.edit}
        texts={WORD_TEMPLATES}
        accept=".dotx"
        defaults={record ?? { name: "", description: "", tags: [] }}
        current={current}
        actionData={actionData}
        canWrite={may.write}
        cancelTo="/documents/word"
        flags={["isPublic", "isStyleMaster"]}
        editor={editor ?? undefined}
      />
      {may.write && record ? (
        <DeleteZone label={WORD_TEMPLATES.delete} name={record.name} texts={WORD_TEMPLATES} actionData={actionData} />
      ) : null}
    </>
  );
}
