import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { requireRoute, requireWrite } from "~/auth/guard.server";
import { failed, failureToast, statusOf } from "~/lib/actions.server";
import { toasts } from "~/lib/toast.server";
import { isUpstreamError } from "~/lib/upstream.server";
import { NewTeamSchema } from "~/teams/schema";
import { teams } from "~/teams/teams.server";
import { TEAMS } from "~/teams/texts";
import { FormError, TextField, SaveButton } from "~/ui/fields";
import { useSchemaForm } from "~/ui/schema-form";
import { Toast, toastOf } from "~/ui/toast";
import { readForm } from "~/lib/form.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "New Team · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireRoute(args);
  return json({});
}

export async function action(args: ActionFunctionArgs) {
  const { api } = await requireWrite(args);
  const submission = parseWithZod(await readForm(args.request), { schema: NewTeamSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  try {
    await teams.create(api, { name: submission.value.name, members: [], assistantsTeam: false });
  } catch (error) {
    // Spec 1 §8: HTTP 409 gives "Team already exists"; otherwise the generic text.
    const inline = isUpstreamError(error, 409) ? TEAMS.inline.exists : TEAMS.inline.createFailed;
    return failed(submission.reply({ formErrors: [inline] }), failureToast(TEAMS.toasts.createFailed, error), statusOf(error));
  }
  return toasts(args.context).redirectWithSuccess("/teams", TEAMS.toasts.created);
}

export default function NewTeam() {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm(NewTeamSchema, { id: "new-team", actionData });
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{TEAMS.newTitle}</h1>
      </div>
      <Form method="post" {...getFormProps(form)} className="form-card">
        <TextField meta={fields.name} label={TEAMS.labels.name} autoComplete="off" />
        <FormError id={form.errorId} errors={form.errors} />
        <div className="form-actions">
          <Link to="/teams" className="btn btn-secondary">
            {TEAMS.cancel}
          </Link>
          <SaveButton form={form} label={TEAMS.save} />
        </div>
      </Form>
    </>
  );
}
