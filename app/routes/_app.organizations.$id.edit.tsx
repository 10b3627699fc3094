import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { organizationAiChoices } from "~/ai-admin/ai-admin.server";
import { editorLoader } from "~/kit/resource-routes.server";
import { organizationAction, organizations } from "~/organizations/organizations.server";
import { OrganizationForm } from "~/organizations/OrganizationForm";
import { ORGANIZATIONS } from "~/organizations/texts";
import { DeleteZone } from "~/ui/editor";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";
export { shouldRevalidate } from "~/ui/editor";

export const meta: MetaFunction = () => [{ title: "Edit Organization · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return editorLoader(args, organizations, organizationAiChoices);
}

export async function action(args: ActionFunctionArgs) {
  return organizationAction(args, "edit");
}

export default function EditOrganization() {
  const { id, record, may, ai } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{ORGANIZATIONS.editTitle}</h1>
      </div>
      <OrganizationForm id={`edit-organization-${id}`} record={record} ai={ai} actionData={actionData} canWrite={may.write} mode="edit" />
      {may.write && record ? (
        <DeleteZone label="Delete organization" name={record.name} texts={ORGANIZATIONS} actionData={actionData} />
      ) : null}
    </>
  );
}
