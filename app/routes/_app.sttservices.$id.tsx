import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { SttServiceForm } from "~/ai-admin/SttServiceForm";
import { sttAction, sttLoader } from "~/ai-admin/ai-admin.server";
import { STT_SERVICES } from "~/ai-admin/texts";
import { DeleteZone } from "~/ui/editor";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";
export { shouldRevalidate } from "~/ui/editor";

export const meta: MetaFunction = () => [{ title: "Edit speech-to-text service · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return sttLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  return sttAction(args);
}

export default function EditSttService() {
  const { id, record, providers } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{STT_SERVICES.editTitle}</h1>
      </div>
      <SttServiceForm id={`edit-sttservice-${id}`} service={record} providers={providers} actionData={actionData} />
      {record ? <DeleteZone label="Delete speech-to-text service" name={record.name} texts={STT_SERVICES} actionData={actionData} /> : null}
    </>
  );
}
