import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { can } from "@contract/permissions";
import { requirePermission, requireRoute } from "~/auth/guard.server";
import { failed, failureToast, statusOf } from "~/lib/actions.server";
import { toasts } from "~/lib/toast.server";
import { AuthorizationSchema, customerProblem, registrationProblem } from "~/people/authorization";
import { authorizations } from "~/people/authorization.server";
import { loadUser } from "~/people/load.server";
import { PEOPLE } from "~/people/texts";
import { UserLinks } from "~/people/UserLinks";
import { FormError } from "~/ui/fields";
import { useHydrated } from "~/ui/hydrated";
import { TagInput, joinTags, splitTags } from "~/ui/tag-input";
import { Toast, toastOf } from "~/ui/toast";
import { readForm, requireFields } from "~/lib/form.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Authorization · Backoffice" }];

const A = PEOPLE.authorization;

/**
 * The per-user portfolio authorization (spec 1 §2, §3): the spec does not show this screen. It holds the user's
 * registration numbers and customer numbers (pair-authorizator, matched by email), each a tag input checked for its
 * number format, and Save.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { api, identity } = await requireRoute(args);
  const user = await loadUser(api, args.params.id ?? "");
  const current = await authorizations.get(api, user.id);
  return json({
    user: { id: user.id, email: user.email },
    registrationNumbers: current.registrationNumbers,
    customerNumbers: current.customerNumbers,
    canWrite: can(identity.permissions, "users"),
  });
}

export async function action(args: ActionFunctionArgs) {
  const { api } = await requirePermission(args, "users");
  const id = args.params.id ?? "";
  const formData = await readForm(args.request);
  requireFields(formData, ["registrationNumbers", "customerNumbers"]);
  const submission = parseWithZod(formData, { schema: AuthorizationSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  try {
    await authorizations.put(api, id, submission.value);
  } catch (error) {
    return failed(submission.reply({ formErrors: [A.failed] }), failureToast(A.failedTitle, error), statusOf(error));
  }
  return toasts(args.context).redirectWithSuccess(`/people/${encodeURIComponent(id)}/authorization`, A.saved);
}

export default function Authorization() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const pending = navigation.state !== "idle";
  const [form, fields] = useForm({
    id: `authorization-${data.user.id}`,
    lastResult: pending ? undefined : actionData,
    defaultValue: {
      registrationNumbers: joinTags(data.registrationNumbers),
      customerNumbers: joinTags(data.customerNumbers),
    },
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AuthorizationSchema }),
  });
  const initial = (v: unknown) => splitTags(typeof v === "string" ? v : "");

  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <div>
          <h1>{A.title}</h1>
          <p className="page-subtitle">{data.user.email}</p>
        </div>
      </div>
      <UserLinks id={data.user.id} />
      <Form method="post" {...getFormProps(form)} className="form-card">
        <p className="muted">{A.intro}</p>
        <TagInput
          id={fields.registrationNumbers.id}
          name={fields.registrationNumbers.name}
          label={A.registrationNumbers}
          defaultValue={initial(fields.registrationNumbers.initialValue)}
          validate={registrationProblem}
          errors={fields.registrationNumbers.errors}
          errorId={fields.registrationNumbers.errorId}
          disabled={!data.canWrite}
          hint={A.registrationHint}
        />
        <TagInput
          id={fields.customerNumbers.id}
          name={fields.customerNumbers.name}
          label={A.customerNumbers}
          defaultValue={initial(fields.customerNumbers.initialValue)}
          validate={customerProblem}
          errors={fields.customerNumbers.errors}
          errorId={fields.customerNumbers.errorId}
          disabled={!data.canWrite}
          hint={A.customerHint}
        />
        {!data.canWrite ? <p className="muted">{PEOPLE.readOnlyNote}</p> : null}
        <FormError id={form.errorId} errors={form.errors} />
        <div className="form-actions">
          <Link to={`/people/${data.user.id}`} className="btn btn-secondary">
            {PEOPLE.back}
          </Link>
          {data.canWrite ? (
            <button type="submit" className="btn btn-primary" disabled={hydrated && pending}>
              {A.save}
            </button>
          ) : null}
        </div>
      </Form>
    </>
  );
}
