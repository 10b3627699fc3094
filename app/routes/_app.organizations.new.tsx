import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { requireRoute } from "~/auth/guard.server";
import { editorAction } from "~/kit/resource-routes.server";
import { OrganizationForm } from "~/organizations/OrganizationForm";
import { organizations } from "~/organizations/organizations.server";
import { OrganizationSchema } from "~/organizations/schema";
import { ORGANIZATIONS } from "~/organizations/texts";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "New Organization · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireRoute(args);
  return null;
}

export async function action(args: ActionFunctionArgs) {
  return editorAction(args, organizations, { schema: OrganizationSchema, texts: ORGANIZATIONS, list: "/organizations" });
}

export default function NewOrganization() {
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{ORGANIZATIONS.newTitle}</h1>
      </div>
      <OrganizationForm id="new-organization" name="" actionData={actionData} canWrite mode="new" />
    </>
  );
}
