import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { requireRoute } from "~/auth/guard.server";
import { editorAction } from "~/kit/resource-routes.server";
import { SpecificationSchema } from "~/specifications/schema";
import { NEW_SPECIFICATION, SpecificationForm } from "~/specifications/SpecificationForm";
import { specifications } from "~/specifications/specifications.server";
import { SPECIFICATIONS } from "~/specifications/texts";
import { lastResultOf } from "~/ui/editor";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "New Specification · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireRoute(args);
  return null;
}

export async function action(args: ActionFunctionArgs) {
  return editorAction(args, specifications, {
    schema: SpecificationSchema,
    texts: SPECIFICATIONS,
    list: "/specifications",
    saved: (s) => `/specifications/${s.id}`,
  });
}

export default function CreateSpecification() {
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{SPECIFICATIONS.newTitle}</h1>
      </div>
      <SpecificationForm
        id="new-specification"
        defaults={NEW_SPECIFICATION}
        lastResult={lastResultOf(actionData)}
        canWrite
        cancelTo="/specifications"
        submitLabel={SPECIFICATIONS.save}
      />
    </>
  );
}
