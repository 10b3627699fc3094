import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { requireRoute } from "~/auth/guard.server";
import { failed, failureToast, statusOf } from "~/lib/actions.server";
import { toasts } from "~/lib/toast.server";
import { SpecificationSchema } from "~/specifications/schema";
import { SpecificationForm } from "~/specifications/SpecificationForm";
import { specifications } from "~/specifications/specifications.server";
import { SPECIFICATIONS } from "~/specifications/texts";
import { Toast, toastOf } from "~/ui/toast";
import { readForm } from "~/lib/form.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "New Specification · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireRoute(args);
  return json({});
}

export async function action(args: ActionFunctionArgs) {
  const { api } = await requireRoute(args);
  const submission = parseWithZod(await readForm(args.request), { schema: SpecificationSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  let id: string;
  try {
    id = (await specifications.create(api, submission.value)).id;
  } catch (error) {
    return failed(
      submission.reply({ formErrors: [SPECIFICATIONS.inline.saveFailed] }),
      failureToast(SPECIFICATIONS.toasts.createFailed, error),
      statusOf(error),
    );
  }
  return toasts(args.context).redirectWithSuccess(`/specifications/${id}`, SPECIFICATIONS.toasts.created);
}

export default function CreateSpecification() {
  const lastResult = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(lastResult)} />
      <div className="page-header">
        <h1>{SPECIFICATIONS.newTitle}</h1>
      </div>
      <SpecificationForm
        id="new-specification"
        defaults={{ name: "", type: "", description: "", tags: [], isPublic: false, template: "" }}
        lastResult={lastResult}
        canWrite
        cancelTo="/specifications"
        submitLabel={SPECIFICATIONS.save}
      />
    </>
  );
}
