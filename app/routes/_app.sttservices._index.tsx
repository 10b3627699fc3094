import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { SttServiceForm } from "~/ai-admin/SttServiceForm";
import { sttAction, sttLoader } from "~/ai-admin/ai-admin.server";
import { STT_SERVICES } from "~/ai-admin/texts";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Create speech-to-text service · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return sttLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  return sttAction(args);
}

export default function CreateSttService() {
  const { providers } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{STT_SERVICES.newTitle}</h1>
      </div>
      <SttServiceForm id="new-sttservice" service={null} providers={providers} actionData={actionData} />
    </>
  );
}
