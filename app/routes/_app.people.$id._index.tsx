import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { can } from "../../upstream/contract/permissions";
import { notFound, requirePermission, requireRoute } from "~/auth/guard.server";
import { failed, failureToast, intentOf, isConfirmed, statusOf } from "~/lib/actions.server";
import { toasts } from "~/lib/toast.server";
import { isUpstreamError } from "~/lib/upstream.server";
import { EditUserSchema } from "~/people/schema";
import { PEOPLE } from "~/people/texts";
import { MembershipFieldset, NameFieldset } from "~/people/UserForm";
import { fullName } from "~/people/names";
import { users } from "~/people/users.server";
import { ConfirmAction } from "~/ui/confirm";
import { FormError, ReadOnlyField } from "~/ui/fields";
import { useHydrated } from "~/ui/hydrated";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Edit User · Backoffice" }];

async function loadUser(api: Parameters<typeof users.get>[0], id: string) {
  try {
    return await users.get(api, id);
  } catch (error) {
    if (isUpstreamError(error, 404) || isUpstreamError(error, 400)) throw notFound();
    throw error;
  }
}

export async function loader(args: LoaderFunctionArgs) {
  const { api, identity } = await requireRoute(args);
  const [user, organizations] = await Promise.all([loadUser(api, args.params.id ?? ""), users.organizations(api)]);
  return json({
    user,
    organizations,
    canWrite: can(identity.permissions, "users.write"),
    isSelf: user.id === identity.id,
  });
}

export async function action(args: ActionFunctionArgs) {
  const { api, identity } = await requirePermission(args, "users.write");
  const id = args.params.id ?? "";
  const formData = await args.request.formData();

  if (intentOf(formData) === "delete") {
    if (id === identity.id) return json({ confirm: null, toast: null, message: PEOPLE.ownAccount }, { status: 403 });
    if (!isConfirmed(formData)) return json({ confirm: "delete" as const, toast: null });
    try {
      await users.remove(api, id);
    } catch (error) {
      return failed({ confirm: null }, failureToast(PEOPLE.toasts.deleteFailed, error), statusOf(error));
    }
    return toasts(args.context).redirectWithSuccess("/people", PEOPLE.toasts.deleted);
  }

  const submission = parseWithZod(formData, { schema: EditUserSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  try {
    await users.update(api, { id, ...submission.value });
  } catch (error) {
    return failed(
      submission.reply({ formErrors: [PEOPLE.inline.updateFailed] }),
      failureToast(PEOPLE.toasts.updateFailed, error),
      statusOf(error),
    );
  }
  return toasts(args.context).redirectWithSuccess("/people", PEOPLE.toasts.updated);
}

export default function EditUser() {
  const { user, organizations, canWrite, isSelf } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle";
  const hydrated = useHydrated();
  const lastResult = actionData && "status" in actionData && !pending ? actionData : undefined;
  const [form, fields] = useForm({
    id: `edit-user-${user.id}`,
    lastResult,
    constraint: getZodConstraint(EditUserSchema),
    defaultValue: {
      firstName: user.firstName,
      lastName: user.lastName,
      organizations: user.organizations,
      isBot: user.isBot,
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: EditUserSchema }),
  });
  const confirming = !!actionData && "confirm" in actionData && actionData.confirm === "delete";

  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{PEOPLE.editTitle}</h1>
      </div>
      <Form method="post" {...getFormProps(form)} className="form-card">
        <ReadOnlyField id="email" label={PEOPLE.labels.email} value={user.email} />
        <NameFieldset fields={fields} disabled={!canWrite} />
        <MembershipFieldset fields={fields} organizations={organizations} disabled={!canWrite} />
        {!canWrite ? <p className="muted">{PEOPLE.readOnlyNote}</p> : null}
        <FormError id={form.errorId} errors={form.errors} />
        <div className="form-actions">
          <Link to="/people" className="btn btn-secondary">
            {PEOPLE.cancel}
          </Link>
          {canWrite ? (
            <button
              type="submit"
              name="intent"
              value="update"
              className="btn btn-primary"
              disabled={hydrated && (pending || (form.dirty && !form.valid))}
            >
              {pending && navigation.formData?.get("intent") === "update" ? "Updating…" : PEOPLE.update}
            </button>
          ) : null}
        </div>
      </Form>
      {canWrite ? (
        <section className="danger-zone" aria-label="Delete user">
          <ConfirmAction
            intent="delete"
            label={PEOPLE.delete}
            title={PEOPLE.confirmDelete.title}
            message={PEOPLE.confirmDelete.message(fullName(user), user.email)}
            confirmLabel={PEOPLE.confirmDelete.confirm}
            confirming={confirming}
            disabled={isSelf}
            disabledReason={isSelf ? PEOPLE.ownAccount : undefined}
          />
        </section>
      ) : null}
    </>
  );
}
