import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { editorAction, editorLoader } from "~/kit/resource-routes.server";
import { ReportForm } from "~/reports/ReportForm";
import { organizationOptions, reports } from "~/reports/reports.server";
import { ReportSchema } from "~/reports/schema";
import { REPORTS } from "~/reports/texts";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";
export { shouldRevalidate } from "~/ui/editor";

export const meta: MetaFunction = () => [{ title: "Edit report · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return editorLoader(args, reports, async ({ api }) => ({ organizations: await organizationOptions(api) }));
}

export async function action(args: ActionFunctionArgs) {
  return editorAction(args, reports, { schema: ReportSchema, texts: REPORTS, list: "/reports" });
}

export default function EditReport() {
  const { id, record: r, may, organizations } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{REPORTS.editTitle}</h1>
      </div>
      <ReportForm
        id={`edit-report-${id}`}
        defaults={r ? { ...r, type: REPORTS.types[r.type] } : { identifier: "", name: "", description: "", organizations: [], type: "" }}
        organizations={organizations}
        actionData={actionData}
        canWrite={may.write}
      />
    </>
  );
}
