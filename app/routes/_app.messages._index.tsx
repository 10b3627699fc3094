import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { cloneAction, listLoader } from "~/kit/resource-routes.server";
import { messageColumns } from "~/messages/MessageList";
import { messageRow, messages } from "~/messages/messages.server";
import { MESSAGES } from "~/messages/texts";
import { ResourceList } from "~/ui/resource-list";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Messages · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return listLoader(args, messages, { row: messageRow });
}

/** Clone (spec 2 §7 `POST /api/messages/{id}/clone`): the copy opens in its editor. */
export async function action(args: ActionFunctionArgs) {
  return cloneAction(args, messages, { texts: MESSAGES, to: (copy) => `/messages/${copy.id}/edit` });
}

export default function Messages() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <ResourceList data={data} texts={MESSAGES} columns={messageColumns(data.may.write)} createTo="/messages/create" />
    </>
  );
}
