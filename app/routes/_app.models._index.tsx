import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ModelForm } from "~/ai-admin/ModelForm";
import { modelAction, modelLoader } from "~/ai-admin/ai-admin.server";
import { MODELS } from "~/ai-admin/texts";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Create model · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return modelLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  return modelAction(args);
}

export default function CreateModel() {
  const { providers, organizations } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{MODELS.newTitle}</h1>
      </div>
      <ModelForm id="new-model" model={null} providers={providers} organizations={organizations} actionData={actionData} />
    </>
  );
}
