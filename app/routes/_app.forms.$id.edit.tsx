import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { FormForm, NEW_FORM } from "~/forms/FormForm";
import { formAction, formEditLoader } from "~/forms/forms.server";
import { FORMS } from "~/forms/texts";
import { DeleteZone } from "~/ui/editor";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";
export { shouldRevalidate } from "~/ui/editor";

export const meta: MetaFunction = () => [{ title: "Edit Form · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return formEditLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  return formAction(args);
}

export default function EditForm() {
  const { id, record, may, organizations } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{FORMS.editTitle}</h1>
      </div>
      <FormForm id={`edit-form-${id}`} defaults={record ?? NEW_FORM} organizations={organizations} actionData={actionData} canWrite={may.write} editing />
      {may.write && record ? <DeleteZone label={FORMS.delete} name={record.name} texts={FORMS} actionData={actionData} /> : null}
    </>
  );
}
