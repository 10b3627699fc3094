import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { can } from "../../upstream/contract/permissions";
import { requirePermission, requireRoute } from "~/auth/guard.server";
import { failed, failureToast, intentOf, isConfirmed, statusOf } from "~/lib/actions.server";
import { toasts } from "~/lib/toast.server";
import { organizations } from "~/organizations/organizations.server";
import { OrganizationSchema } from "~/organizations/schema";
import { ORGANIZATIONS } from "~/organizations/texts";
import { ConfirmAction } from "~/ui/confirm";
import { FormError, TextField, SaveButton } from "~/ui/fields";
import { Toast, toastOf } from "~/ui/toast";
import { readForm } from "~/lib/form.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Edit Organization · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  const { api, identity } = await requireRoute(args);
  const organization = await organizations.getOr404(api, args.params.id ?? "");
  return json({ organization, canWrite: can(identity.permissions, "organizations.write") });
}

export async function action(args: ActionFunctionArgs) {
  const { api } = await requirePermission(args, "organizations.write");
  const id = args.params.id ?? "";
  const formData = await readForm(args.request);
  if (intentOf(formData) === "delete") {
    if (!isConfirmed(formData)) return json({ confirm: "delete" as const, toast: null });
    try {
      await organizations.remove(api, id);
    } catch (error) {
      return failed({ confirm: null }, failureToast(ORGANIZATIONS.toasts.deleteFailed, error), statusOf(error));
    }
    return toasts(args.context).redirectWithSuccess("/organizations", ORGANIZATIONS.toasts.deleted);
  }
  const submission = parseWithZod(formData, { schema: OrganizationSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  try {
    await organizations.update(api, id, submission.value);
  } catch (error) {
    return failed(
      submission.reply({ formErrors: [ORGANIZATIONS.inline.saveFailed] }),
      failureToast(ORGANIZATIONS.toasts.updateFailed, error),
      statusOf(error),
    );
  }
  return toasts(args.context).redirectWithSuccess("/organizations", ORGANIZATIONS.toasts.updated);
}

export default function EditOrganization() {
  const { organization, canWrite } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle";
  const lastResult = actionData && "status" in actionData && !pending ? actionData : undefined;
  const [form, fields] = useForm({
    id: `edit-organization-${organization.id}`,
    lastResult,
    constraint: getZodConstraint(OrganizationSchema),
    defaultValue: { name: organization.name },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: OrganizationSchema }),
  });
  const confirming = !!actionData && "confirm" in actionData && actionData.confirm === "delete";
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{ORGANIZATIONS.editTitle}</h1>
      </div>
      <Form method="post" {...getFormProps(form)} className="form-card">
        <TextField meta={fields.name} label={ORGANIZATIONS.labels.name} autoComplete="off" disabled={!canWrite} />
        <p className="muted">{canWrite ? ORGANIZATIONS.aiNote : ORGANIZATIONS.readOnlyNote}</p>
        <FormError id={form.errorId} errors={form.errors} />
        <div className="form-actions">
          <Link to="/organizations" className="btn btn-secondary">
            {ORGANIZATIONS.cancel}
          </Link>
          {canWrite ? (
            <SaveButton form={form} label={ORGANIZATIONS.update} busyLabel="Updating…" intent="update" />
          ) : null}
        </div>
      </Form>
      {canWrite ? (
        <section className="danger-zone" aria-label="Delete organization">
          <ConfirmAction
            intent="delete"
            label={ORGANIZATIONS.delete}
            title={ORGANIZATIONS.confirmDelete.title}
            message={ORGANIZATIONS.confirmDelete.message(organization.name)}
            confirmLabel={ORGANIZATIONS.confirmDelete.confirm}
            confirming={confirming}
          />
        </section>
      ) : null}
    </>
  );
}
