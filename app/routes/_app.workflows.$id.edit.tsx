import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { editorAction, editorLoader } from "~/kit/resource-routes.server";
import { lastResultOf } from "~/ui/editor";
import { Toast, toastOf } from "~/ui/toast";
import { WorkflowForm } from "~/workflows/WorkflowForm";
import { WorkflowSchema } from "~/workflows/schema";
import { WORKFLOWS } from "~/workflows/texts";
import { saveFailure, workflows } from "~/workflows/workflows.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";
export { shouldRevalidate } from "~/ui/editor";

export const meta: MetaFunction = () => [{ title: "Edit Workflow · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return editorLoader(args, workflows);
}

/** Save only: a workflow is deleted from the list (spec 3 §2.2), where the default's refusal is explained. */
export async function action(args: ActionFunctionArgs) {
  return editorAction(args, workflows, { schema: WorkflowSchema, texts: WORKFLOWS, list: "/workflows", failure: saveFailure });
}

export default function EditWorkflow() {
  const { id, record, may } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{WORKFLOWS.editTitle}</h1>
      </div>
      <WorkflowForm
        id={`edit-workflow-${id}`}
        title={record?.title ?? ""}
        clientCodes={record?.clientCodes ?? []}
        actionData={actionData}
        lastResult={lastResultOf(actionData)}
        canWrite={may.write}
      />
    </>
  );
}
