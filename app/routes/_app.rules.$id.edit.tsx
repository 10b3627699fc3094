import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { editorAction, editorLoader } from "~/kit/resource-routes.server";
import { NEW_RULE, RuleForm } from "~/rules/RuleForm";
import { previewRule, rules } from "~/rules/rules.server";
import { RuleSchema } from "~/rules/schema";
import { RULES } from "~/rules/texts";
import { DeleteZone } from "~/ui/editor";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";
export { shouldRevalidate } from "~/ui/editor";

export const meta: MetaFunction = () => [{ title: "Edit Rule · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return editorLoader(args, rules);
}

export async function action(args: ActionFunctionArgs) {
  return editorAction(args, rules, { schema: RuleSchema, texts: RULES, list: "/rules", intents: { preview: previewRule } });
}

export default function EditRule() {
  const { id, record: r, may } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{RULES.editTitle}</h1>
      </div>
      <RuleForm id={`edit-rule-${id}`} defaults={r ?? NEW_RULE} actionData={actionData} canWrite={may.write} />
      {may.write && r ? <DeleteZone label="Delete rule" name={r.name} texts={RULES} actionData={actionData} /> : null}
    </>
  );
}
