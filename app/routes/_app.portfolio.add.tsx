import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { requireRoute } from "~/auth/guard.server";
import { addApplicationAction } from "~/portfolio/add.server";
import { NewApplicationForm } from "~/portfolio/NewApplicationForm";
import { PORTFOLIO } from "~/portfolio/texts";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "New Application · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireRoute(args);
  return null;
}

export async function action(args: ActionFunctionArgs) {
  return addApplicationAction(args);
}

export default function NewApplication() {
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{PORTFOLIO.add.title}</h1>
      </div>
      <NewApplicationForm actionData={actionData} />
    </>
  );
}
