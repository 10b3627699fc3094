import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { requireRoute } from "~/auth/guard.server";
import { editorAction } from "~/kit/resource-routes.server";
import { NEW_RULE, RuleForm } from "~/rules/RuleForm";
import { previewRule, rules } from "~/rules/rules.server";
import { RuleSchema } from "~/rules/schema";
import { RULES } from "~/rules/texts";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "New Rule · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireRoute(args);
  return null;
}

export async function action(args: ActionFunctionArgs) {
  return editorAction(args, rules, { schema: RuleSchema, texts: RULES, list: "/rules", intents: { preview: previewRule } });
}

export default function CreateRule() {
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{RULES.newTitle}</h1>
      </div>
      <RuleForm id="new-rule" defaults={NEW_RULE} actionData={actionData} canWrite />
    </>
  );
}
