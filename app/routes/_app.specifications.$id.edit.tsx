import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { editorAction, editorLoader } from "~/kit/resource-routes.server";
import { SpecificationSchema } from "~/specifications/schema";
import { NEW_SPECIFICATION, SpecificationForm } from "~/specifications/SpecificationForm";
import { specifications } from "~/specifications/specifications.server";
import { SPECIFICATIONS } from "~/specifications/texts";
import { DeleteZone, lastResultOf } from "~/ui/editor";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";
export { shouldRevalidate } from "~/ui/editor";

export const meta: MetaFunction = () => [{ title: "Edit Specification · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return editorLoader(args, specifications);
}

export async function action(args: ActionFunctionArgs) {
  const saved = `/specifications/${args.params.id}`;
  return editorAction(args, specifications, { schema: SpecificationSchema, texts: SPECIFICATIONS, list: "/specifications", saved: () => saved });
}

export default function EditSpecification() {
  const { id, record: s, may } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{SPECIFICATIONS.editTitle}</h1>
      </div>
      <SpecificationForm
        id={`edit-specification-${id}`}
        defaults={s ?? NEW_SPECIFICATION}
        lastResult={lastResultOf(actionData)}
        canWrite={may.write}
        cancelTo={`/specifications/${id}`}
        submitLabel={SPECIFICATIONS.save}
      />
      {may.write && s ? <DeleteZone label="Delete specification" name={s.name} texts={SPECIFICATIONS} actionData={actionData} /> : null}
    </>
  );
}
