import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireRoute } from "~/auth/guard.server";
import { failed, failureToast, intentOf, partialSuccess, statusOf } from "~/lib/actions.server";
import { toasts } from "~/lib/toast.server";
import { botChoices, botStateOf } from "~/people/bots";
import { resolveBotChoices } from "~/people/bots.server";
import { NewUserSchema, randomPassword, scriptKeyFor } from "~/people/schema";
import { PEOPLE } from "~/people/texts";
import { MembershipFieldset, NameFieldset } from "~/people/UserForm";
import { users } from "~/people/users.server";
import { syncAssistants } from "~/teams/teams.server";
import { DefaultSubmit, FormError, TextField, SaveButton } from "~/ui/fields";
import { useSchemaForm } from "~/ui/schema-form";
import { Toast, toastOf } from "~/ui/toast";
import { readForm, textOf } from "~/lib/form.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "New User · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  const { api } = await requireRoute(args);
  return json({ organizations: await users.organizations(api) });
}

export async function action(args: ActionFunctionArgs) {
  const { api, timeZone } = await requireRoute(args);
  const formData = await readForm(args.request);
  const submission = parseWithZod(formData, { schema: NewUserSchema });
  const intent = intentOf(formData);

  if (intent === "randomize") {
    // Without JavaScript: the same form back with a fresh password, nothing typed lost, no errors yet.
    const reply = submission.reply();
    return json({ ...reply, error: undefined, initialValue: { ...reply.initialValue, password: randomPassword() } });
  }
  if (intent === "bot") {
    // Without JavaScript: Is Bot switched on or a script chosen; the scripts, candidate and versions come back.
    const bot = await resolveBotChoices(api, {
      isBot: formData.get("isBot") === "on",
      email: textOf(formData, "email"),
      script: textOf(formData, "script"),
      scriptKey: textOf(formData, "scriptKey"),
      preselectFirst: true,
    }, timeZone);
    return json({ ...submission.reply(), error: undefined, bot: { ...bot, isBot: formData.get("isBot") === "on" } });
  }
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });

  const { assistants, firstName, lastName, email, password, organizations, isBot } = submission.value;
  let user;
  try {
    user = await users.create(api, {
      firstName,
      lastName,
      email,
      password,
      organizations,
      isBot,
      assistants,
      scriptKey: scriptKeyFor(submission.value),
    });
  } catch (error) {
    return failed(
      submission.reply({ formErrors: [PEOPLE.inline.createFailed] }),
      failureToast(PEOPLE.toasts.createFailed, error),
      statusOf(error),
    );
  }
  try {
    if (assistants.length) await syncAssistants(api, user, assistants);
  } catch (error) {
    // The user exists: say so, and open it to fix the team (a second "create" would answer "already exists").
    const saved = `/people/${encodeURIComponent(user.id)}`;
    return partialSuccess(args.context, saved, PEOPLE.toasts.created, PEOPLE.toasts.assistantsFailed, error);
  }
  return toasts(args.context).redirectWithSuccess("/people", PEOPLE.toasts.created);
}

export default function NewUser() {
  const { organizations } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm(NewUserSchema, { id: "new-user", actionData });
  const bot = botStateOf(actionData) ?? { ...botChoices.off(), isBot: false };

  return (
    <>
      <Toast toast={toastOf(actionData)} />
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
        <MembershipFieldset
          fields={fields}
          organizations={organizations}
          bot={bot}
          mode="create"
          email={() => {
            const input = document.getElementById(fields.email.id);
            return input instanceof HTMLInputElement ? input.value : "";
          }}
        />
        <FormError id={form.errorId} errors={form.errors} />
        <div className="form-actions">
          <Link to="/people" className="btn btn-secondary">
            {PEOPLE.cancel}
          </Link>
          <SaveButton form={form} label={PEOPLE.save} busyLabel="Saving…" intent="save" />
        </div>
      </Form>
    </>
  );
}
