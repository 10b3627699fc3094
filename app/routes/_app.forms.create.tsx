import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { FormForm, NEW_FORM } from "~/forms/FormForm";
import { formAction, formCreateLoader } from "~/forms/forms.server";
import { FORMS } from "~/forms/texts";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "New Form · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return formCreateLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  return formAction(args);
}

export default function NewForm() {
  const { organizations } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{FORMS.newTitle}</h1>
      </div>
      <FormForm id="new-form" defaults={NEW_FORM} organizations={organizations} actionData={actionData} canWrite editing={false} />
    </>
  );
}
