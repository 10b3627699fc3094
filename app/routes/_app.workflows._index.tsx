import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { workflowListAction, workflowListLoader } from "~/workflows/list.server";
import { WORKFLOWS } from "~/workflows/texts";
import { ImportDialog } from "~/workflows/ImportDialog";
import { CloneDialog, ImportLink, workflowColumns } from "~/workflows/WorkflowList";
import { listAddress } from "~/workflows/addresses";
import styles from "~/workflows/workflows.css";
import { ResourceList } from "~/ui/resource-list";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Workflows · Backoffice" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader(args: LoaderFunctionArgs) {
  return workflowListLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  return workflowListAction(args);
}

/** The workflow list (spec 3 §2.2): '+ new', Import workflow, and per workflow its actions; Clone and Import as dialogs. */
export default function Workflows() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const canWrite = data.may.write;
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <ResourceList
        data={data}
        texts={WORKFLOWS}
        columns={workflowColumns(canWrite, actionData)}
        createTo="/workflows/new"
        actions={canWrite ? <ImportLink /> : undefined}
      />
      {data.clone ? <CloneDialog key={data.clone.id} clone={data.clone} actionData={actionData} /> : null}
      {data.importOpen ? (
        <ImportDialog
          id="import-workflow-dialog"
          title={WORKFLOWS.import.title}
          hint={WORKFLOWS.import.hint}
          required={WORKFLOWS.import.required}
          closeTo={listAddress(params)}
          openerId="import-workflow"
          actionData={actionData}
        />
      ) : null}
    </>
  );
}
