import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { requireRoute } from "~/auth/guard.server";
import { editorAction } from "~/kit/resource-routes.server";
import { MessageForm, NEW_MESSAGE } from "~/messages/MessageForm";
import { MessageActionSchema, messages, previewMessage } from "~/messages/messages.server";
import { MESSAGES } from "~/messages/texts";
import { lastResultOf } from "~/ui/editor";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "New Message · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireRoute(args);
  return null;
}

export async function action(args: ActionFunctionArgs) {
  return editorAction(args, messages, {
    schema: MessageActionSchema,
    texts: MESSAGES,
    list: "/messages",
    intents: { preview: previewMessage },
  });
}

export default function CreateMessage() {
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{MESSAGES.newTitle}</h1>
      </div>
      <MessageForm id="new-message" defaults={NEW_MESSAGE} actionData={actionData} lastResult={lastResultOf(actionData)} canWrite />
    </>
  );
}
