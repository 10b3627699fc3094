import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { requireRoute } from "~/auth/guard.server";
import { failed, failureToast, statusOf } from "~/lib/actions.server";
import { toasts } from "~/lib/toast.server";
import { organizations } from "~/organizations/organizations.server";
import { OrganizationSchema } from "~/organizations/schema";
import { ORGANIZATIONS } from "~/organizations/texts";
import { FormError, TextField, SaveButton } from "~/ui/fields";
import { Toast, toastOf } from "~/ui/toast";
import { readForm } from "~/lib/form.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "New Organization · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireRoute(args);
  return json({});
}

export async function action(args: ActionFunctionArgs) {
  const { api } = await requireRoute(args);
  const submission = parseWithZod(await readForm(args.request), { schema: OrganizationSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  try {
    await organizations.create(api, submission.value);
  } catch (error) {
    return failed(
      submission.reply({ formErrors: [ORGANIZATIONS.inline.saveFailed] }),
      failureToast(ORGANIZATIONS.toasts.createFailed, error),
      statusOf(error),
    );
  }
  return toasts(args.context).redirectWithSuccess("/organizations", ORGANIZATIONS.toasts.created);
}

export default function NewOrganization() {
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle";
  const [form, fields] = useForm({
    id: "new-organization",
    lastResult: pending ? undefined : lastResult,
    constraint: getZodConstraint(OrganizationSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: OrganizationSchema }),
  });
  return (
    <>
      <Toast toast={toastOf(lastResult)} />
      <div className="page-header">
        <h1>{ORGANIZATIONS.newTitle}</h1>
      </div>
      <Form method="post" {...getFormProps(form)} className="form-card">
        <TextField meta={fields.name} label={ORGANIZATIONS.labels.name} autoComplete="off" />
        <p className="muted">{ORGANIZATIONS.aiNote}</p>
        <FormError id={form.errorId} errors={form.errors} />
        <div className="form-actions">
          <Link to="/organizations" className="btn btn-secondary">
            {ORGANIZATIONS.cancel}
          </Link>
          <SaveButton form={form} label={ORGANIZATIONS.save} busyLabel="Saving…" />
        </div>
      </Form>
    </>
  );
}
