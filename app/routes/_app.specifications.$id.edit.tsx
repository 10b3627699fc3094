import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { can } from "../../upstream/contract/permissions";
import { requirePermission, requireRoute } from "~/auth/guard.server";
import { failed, failureToast, intentOf, isConfirmed, statusOf } from "~/lib/actions.server";
import { toasts } from "~/lib/toast.server";
import { SpecificationSchema } from "~/specifications/schema";
import { SpecificationForm } from "~/specifications/SpecificationForm";
import { specifications } from "~/specifications/specifications.server";
import { SPECIFICATIONS } from "~/specifications/texts";
import { ConfirmAction } from "~/ui/confirm";
import { Toast, toastOf } from "~/ui/toast";
import { readForm } from "~/lib/form.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Edit Specification · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  const { api, identity } = await requireRoute(args);
  const specification = await specifications.getOr404(api, args.params.id ?? "");
  return json({ specification, canWrite: can(identity.permissions, "specifications.write") });
}

export async function action(args: ActionFunctionArgs) {
  const { api } = await requirePermission(args, "specifications.write");
  const id = args.params.id ?? "";
  const formData = await readForm(args.request);
  if (intentOf(formData) === "delete") {
    if (!isConfirmed(formData)) return json({ confirm: "delete" as const, toast: null });
    try {
      await specifications.remove(api, id);
    } catch (error) {
      return failed({ confirm: null }, failureToast(SPECIFICATIONS.toasts.deleteFailed, error), statusOf(error));
    }
    return toasts(args.context).redirectWithSuccess("/specifications", SPECIFICATIONS.toasts.deleted);
  }
  const submission = parseWithZod(formData, { schema: SpecificationSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  try {
    await specifications.update(api, id, submission.value);
  } catch (error) {
    return failed(
      submission.reply({ formErrors: [SPECIFICATIONS.inline.saveFailed] }),
      failureToast(SPECIFICATIONS.toasts.updateFailed, error),
      statusOf(error),
    );
  }
  return toasts(args.context).redirectWithSuccess(`/specifications/${id}`, SPECIFICATIONS.toasts.updated);
}

export default function EditSpecification() {
  const { specification: s, canWrite } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult = actionData && "status" in actionData ? actionData : undefined;
  const confirming = !!actionData && "confirm" in actionData && actionData.confirm === "delete";
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{SPECIFICATIONS.editTitle}</h1>
      </div>
      <SpecificationForm
        id={`edit-specification-${s.id}`}
        defaults={{ name: s.name, type: s.type, description: s.description, tags: s.tags, isPublic: s.isPublic, template: s.template }}
        lastResult={lastResult}
        canWrite={canWrite}
        cancelTo={`/specifications/${s.id}`}
        submitLabel={SPECIFICATIONS.save}
      />
      {canWrite ? (
        <section className="danger-zone" aria-label="Delete specification">
          <ConfirmAction
            intent="delete"
            label={SPECIFICATIONS.delete}
            title={SPECIFICATIONS.confirmDelete.title}
            message={SPECIFICATIONS.confirmDelete.message(s.name)}
            confirmLabel={SPECIFICATIONS.confirmDelete.confirm}
            confirming={confirming}
          />
        </section>
      ) : null}
    </>
  );
}
