import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { editorAction, editorLoader } from "~/kit/resource-routes.server";
import { MessageForm, NEW_MESSAGE } from "~/messages/MessageForm";
import { MessageActionSchema, messages, previewMessage } from "~/messages/messages.server";
import { MESSAGES } from "~/messages/texts";
import { DeleteZone, lastResultOf } from "~/ui/editor";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";
export { shouldRevalidate } from "~/ui/editor";

export const meta: MetaFunction = () => [{ title: "Edit Message · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return editorLoader(args, messages);
}

export async function action(args: ActionFunctionArgs) {
  return editorAction(args, messages, {
    schema: MessageActionSchema,
    texts: MESSAGES,
    list: "/messages",
    intents: { preview: previewMessage },
  });
}

export default function EditMessage() {
  const { id, record: m, may } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{MESSAGES.editTitle}</h1>
      </div>
      <MessageForm
        id={`edit-message-${id}`}
        defaults={m ?? NEW_MESSAGE}
        actionData={actionData}
        lastResult={lastResultOf(actionData)}
        canWrite={may.write}
      />
      {may.write && m ? <DeleteZone label="Delete message" name={m.name} texts={MESSAGES} actionData={actionData} /> : null}
    </>
  );
}
