import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { editorAction, editorLoader } from "~/kit/resource-routes.server";
import { OrganizationForm } from "~/organizations/OrganizationForm";
import { organizations } from "~/organizations/organizations.server";
import { OrganizationSchema } from "~/organizations/schema";
import { ORGANIZATIONS } from "~/organizations/texts";
import { DeleteZone } from "~/ui/editor";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";
export { shouldRevalidate } from "~/ui/editor";

export const meta: MetaFunction = () => [{ title: "Edit Organization · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return editorLoader(args, organizations);
}

export async function action(args: ActionFunctionArgs) {
  return editorAction(args, organizations, { schema: OrganizationSchema, texts: ORGANIZATIONS, list: "/organizations" });
}

export default function EditOrganization() {
  const { id, record, may } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{ORGANIZATIONS.editTitle}</h1>
      </div>
      <OrganizationForm id={`edit-organization-${id}`} name={record?.name ?? ""} actionData={actionData} canWrite={may.write} mode="edit" />
      {may.write && record ? (
        <DeleteZone label="Delete organization" name={record.name} texts={ORGANIZATIONS} actionData={actionData} />
      ) : null}
    </>
  );
}
