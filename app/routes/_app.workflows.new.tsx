import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { requireRoute } from "~/auth/guard.server";
import { editorAction } from "~/kit/resource-routes.server";
import { lastResultOf } from "~/ui/editor";
import { Toast, toastOf } from "~/ui/toast";
import { WorkflowForm } from "~/workflows/WorkflowForm";
import { WorkflowSchema } from "~/workflows/schema";
import { WORKFLOWS } from "~/workflows/texts";
import { saveFailure, workflows } from "~/workflows/workflows.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "New Workflow · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireRoute(args);
  return null;
}

export async function action(args: ActionFunctionArgs) {
  return editorAction(args, workflows, { schema: WorkflowSchema, texts: WORKFLOWS, list: "/workflows", failure: saveFailure });
}

export default function NewWorkflow() {
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{WORKFLOWS.newTitle}</h1>
      </div>
      <WorkflowForm id="new-workflow" title="" clientCodes={[]} actionData={actionData} lastResult={lastResultOf(actionData)} canWrite />
    </>
  );
}
