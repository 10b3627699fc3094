import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { cloneAction, listLoader } from "~/kit/resource-routes.server";
import { ruleColumns } from "~/rules/RuleList";
import { ruleRow, rules } from "~/rules/rules.server";
import { RULES } from "~/rules/texts";
import { ResourceList } from "~/ui/resource-list";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Rules · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return listLoader(args, rules, { row: ruleRow });
}

/** Clone (spec 2 §7 `POST /api/rules/{id}/clone`): the copy opens in its editor. */
export async function action(args: ActionFunctionArgs) {
  return cloneAction(args, rules, { texts: RULES, to: (copy) => `/rules/${copy.id}/edit` });
}

export default function Rules() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <ResourceList data={data} texts={RULES} columns={ruleColumns(data.may.write)} createTo="/rules/create" />
    </>
  );
}
