import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { requireRoute } from "~/auth/guard.server";
import { failed, failureToast, intentOf, statusOf } from "~/lib/actions.server";
import { toasts } from "~/lib/toast.server";
import { NewUserSchema, randomPassword } from "~/people/schema";
import { PEOPLE } from "~/people/texts";
import { MembershipFieldset, NameFieldset } from "~/people/UserForm";
import { users } from "~/people/users.server";
import { DefaultSubmit, FormError, TextField } from "~/ui/fields";
import { useHydrated } from "~/ui/hydrated";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "New User · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  const { api } = await requireRoute(args);
  return json({ organizations: await users.organizations(api) });
}

export async function action(args: ActionFunctionArgs) {
  const { api } = await requireRoute(args);
  const formData = await args.request.formData();
  const submission = parseWithZod(formData, { schema: NewUserSchema });

  if (intentOf(formData) === "randomize") {
    // Without JavaScript: the same form back with a fresh password, nothing typed lost, no errors yet.
    const reply = submission.reply();
    return json({ ...reply, error: undefined, initialValue: { ...reply.initialValue, password: randomPassword() } });
  }
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });

  try {
    await users.create(api, { ...submission.value, assistants: [], scriptKey: null });
  } catch (error) {
    return failed(
      submission.reply({ formErrors: [PEOPLE.inline.createFailed] }),
      failureToast(PEOPLE.toasts.createFailed, error),
      statusOf(error),
    );
  }
  return toasts(args.context).redirectWithSuccess("/people", PEOPLE.toasts.created);
}

export default function NewUser() {
  const { organizations } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle";
  const hydrated = useHydrated();
  const [form, fields] = useForm({
    id: "new-user",
    lastResult: pending ? undefined : lastResult,
    constraint: getZodConstraint(NewUserSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NewUserSchema }),
  });

  return (
    <>
      <Toast toast={toastOf(lastResult)} />
      <div className="page-header">
        <h1>{PEOPLE.newTitle}</h1>
      </div>
      <Form method="post" {...getFormProps(form)} className="form-card">
        <DefaultSubmit value="save" />
        <NameFieldset fields={fields} />
        <TextField meta={fields.email} label={PEOPLE.labels.email} type="email" autoComplete="off" />
        <TextField
          meta={fields.password}
          label={PEOPLE.labels.password}
          autoComplete="new-password"
          spellCheck={false}
          addon={
            <button
              type="submit"
              name="intent"
              value="randomize"
              formNoValidate
              className="btn btn-secondary"
              onClick={(e) => {
                e.preventDefault();
                form.update({ name: fields.password.name, value: randomPassword(), validated: true });
              }}
            >
              {PEOPLE.randomize}
            </button>
          }
        />
        <MembershipFieldset fields={fields} organizations={organizations} />
        <FormError id={form.errorId} errors={form.errors} />
        <div className="form-actions">
          <Link to="/people" className="btn btn-secondary">
            {PEOPLE.cancel}
          </Link>
          <button
            type="submit"
            name="intent"
            value="save"
            className="btn btn-primary"
            disabled={hydrated && (pending || (form.dirty && !form.valid))}
          >
            {pending && navigation.formData?.get("intent") === "save" ? "Saving…" : PEOPLE.save}
          </button>
        </div>
      </Form>
    </>
  );
}
