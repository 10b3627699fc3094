import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { can } from "@contract/permissions";
import { requirePermission, requireRoute } from "~/auth/guard.server";
import { failed, failureToast, statusOf } from "~/lib/actions.server";
import { toasts } from "~/lib/toast.server";
import { loadUser } from "~/people/load.server";
import { ChangePasswordSchema } from "~/people/schema";
import { PEOPLE } from "~/people/texts";
import { UserLinks } from "~/people/UserLinks";
import { users } from "~/people/users.server";
import { FormError, ReadOnlyField, TextField, SaveButton } from "~/ui/fields";
import { useSchemaForm } from "~/ui/schema-form";
import { Toast, toastOf } from "~/ui/toast";
import { readForm } from "~/lib/form.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Change Password · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  const { api, identity } = await requireRoute(args);
  const user = await loadUser(api, args.params.id ?? "");
  return json({ user: { id: user.id, email: user.email }, canWrite: can(identity.permissions, "users") });
}

export async function action(args: ActionFunctionArgs) {
  const { api } = await requirePermission(args, "users");
  const id = args.params.id ?? "";
  const submission = parseWithZod(await readForm(args.request), { schema: ChangePasswordSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  try {
    await users.update(api, { id, password: submission.value.password });
  } catch (error) {
    return failed(
      submission.reply({ formErrors: [PEOPLE.password.failed] }),
      failureToast(PEOPLE.toasts.updateFailed, error),
      statusOf(error),
    );
  }
  return toasts(args.context).redirectWithSuccess(`/people/${encodeURIComponent(id)}`, PEOPLE.password.changed);
}

export default function ChangePassword() {
  const { user, canWrite } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm(ChangePasswordSchema, { id: `password-${user.id}`, actionData });
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{PEOPLE.password.title}</h1>
      </div>
      <UserLinks id={user.id} />
      <Form method="post" {...getFormProps(form)} className="form-card">
        <ReadOnlyField id="email" label={PEOPLE.labels.email} value={user.email} />
        <TextField
          meta={fields.password}
          label={PEOPLE.labels.password}
          type="password"
          autoComplete="new-password"
          disabled={!canWrite}
        />
        {!canWrite ? <p className="muted">{PEOPLE.readOnlyNote}</p> : null}
        <FormError id={form.errorId} errors={form.errors} />
        <div className="form-actions">
          <Link to={`/people/${user.id}`} className="btn btn-secondary">
            {PEOPLE.back}
          </Link>
          {canWrite ? (
            <SaveButton form={form} label={PEOPLE.update} />
          ) : null}
        </div>
      </Form>
    </>
  );
}
