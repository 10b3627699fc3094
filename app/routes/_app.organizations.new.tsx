import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { organizationAiChoices } from "~/ai-admin/ai-admin.server";
import { requireRoute } from "~/auth/guard.server";
import { organizationAction } from "~/organizations/organizations.server";
import { OrganizationForm } from "~/organizations/OrganizationForm";
import { ORGANIZATIONS } from "~/organizations/texts";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "New Organization · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return organizationAiChoices(await requireRoute(args));
}

export async function action(args: ActionFunctionArgs) {
  return organizationAction(args, "new");
}

export default function NewOrganization() {
  const { ai } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{ORGANIZATIONS.newTitle}</h1>
      </div>
      <OrganizationForm id="new-organization" record={null} ai={ai} actionData={actionData} canWrite mode="new" />
    </>
  );
}
