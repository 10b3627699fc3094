import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { requireRoute, requireWrite } from "~/auth/guard.server";
import { failed, failureToast, intentOf, isConfirmed, statusOf } from "~/lib/actions.server";
import { orNotFound } from "~/lib/resource.server";
import { toasts } from "~/lib/toast.server";
import { isUpstreamError, type Api } from "~/lib/upstream.server";
import { memberSchema } from "~/teams/schema";
import { teams } from "~/teams/teams.server";
import { TEAMS } from "~/teams/texts";
import { ConfirmAction } from "~/ui/confirm";
import { FormError, ReadOnlyField, TextField } from "~/ui/fields";
import { useHydrated } from "~/ui/hydrated";
import { Icon } from "~/ui/icons";
import { Toast, toastOf } from "~/ui/toast";
import { readForm } from "~/lib/form.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Edit Team · Backoffice" }];

const loadTeam = (api: Api, id: string) => orNotFound(teams.get(api, id));

export async function loader(args: LoaderFunctionArgs) {
  const { api, may } = await requireRoute(args);
  const team = await loadTeam(api, args.params.id ?? "");
  return json({ team, canWrite: may.write });
}

export async function action(args: ActionFunctionArgs) {
  const { api } = await requireWrite(args);
  const id = args.params.id ?? "";
  const formData = await readForm(args.request);
  const intent = intentOf(formData);
  const here = `/teams/${encodeURIComponent(id)}`;

  if (intent === "delete") {
    if (!isConfirmed(formData)) return json({ confirm: "delete" as const, toast: null });
    try {
      await teams.remove(api, id);
    } catch (error) {
      return failed({ confirm: null }, failureToast(TEAMS.toasts.deleteFailed, error), statusOf(error));
    }
    return toasts(args.context).redirectWithSuccess("/teams", TEAMS.toasts.deleted);
  }

  if (intent === "remove") {
    const email = formData.get("email");
    try {
      await teams.removeMember(api, id, typeof email === "string" ? email : "");
    } catch (error) {
      return failed({ confirm: null }, failureToast(TEAMS.toasts.memberRemoveFailed, error), statusOf(error));
    }
    return toasts(args.context).redirectWithSuccess(here, TEAMS.toasts.memberRemoved);
  }

  const team = await loadTeam(api, id);
  const schema = memberSchema(team.members);
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  try {
    await teams.addMember(api, id, submission.value.email);
  } catch (error) {
    const message = isUpstreamError(error, 409)
      ? TEAMS.validation.emailTaken
      : isUpstreamError(error, 400)
        ? TEAMS.validation.emailInvalid
        : TEAMS.inline.memberAddFailed;
    return failed(
      submission.reply({ fieldErrors: { email: [message] } }),
      failureToast(TEAMS.toasts.memberAddFailed, error),
      statusOf(error),
    );
  }
  return toasts(args.context).redirectWithSuccess(here, TEAMS.toasts.memberAdded);
}

export default function EditTeam() {
  const { team, canWrite } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle";
  const hydrated = useHydrated();
  const schema = memberSchema(team.members);
  const lastResult = actionData && "status" in actionData && !pending ? actionData : undefined;
  const [form, fields] = useForm({
    id: `add-member-${team.id}-${team.members.length}`,
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const confirming = !!actionData && "confirm" in actionData && actionData.confirm === "delete";

  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{TEAMS.editTitle}</h1>
      </div>
      <div className="form-card">
        <ReadOnlyField id="team-name" label={TEAMS.labels.name} value={team.name} />
        <ReadOnlyField id="team-assistants" label={TEAMS.labels.assistantsTeam} value={team.assistantsTeam ? TEAMS.yes : TEAMS.no} />
        <section aria-labelledby="members-title">
          <h2 id="members-title">{TEAMS.members}</h2>
          {team.members.length === 0 ? (
            <p className="muted">{TEAMS.noMembers}</p>
          ) : (
            <ul className="member-list">
              {team.members.map((email) => (
                <li key={email}>
                  <span>{email}</span>
                  {canWrite ? (
                    <Form method="post" className="inline-form">
                      <input type="hidden" name="email" value={email} />
                      <button
                        type="submit"
                        name="intent"
                        value="remove"
                        className="icon-button"
                        aria-label={TEAMS.remove(email)}
                        title={TEAMS.remove(email)}
                        disabled={hydrated && pending}
                      >
                        <Icon name="close" />
                      </button>
                    </Form>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </section>
        {canWrite ? (
          <Form method="post" {...getFormProps(form)} className="add-member" aria-labelledby="add-member-title">
            <h2 id="add-member-title">{TEAMS.addMember}</h2>
            <TextField meta={fields.email} label={TEAMS.labels.email} type="email" autoComplete="off" />
            <FormError id={form.errorId} errors={form.errors} />
            <button type="submit" name="intent" value="add" className="btn btn-primary" disabled={hydrated && pending}>
              {TEAMS.add}
            </button>
          </Form>
        ) : (
          <p className="muted">{TEAMS.readOnlyNote}</p>
        )}
        <div className="form-actions">
          <Link to="/teams" className="btn btn-secondary">
            {TEAMS.back}
          </Link>
        </div>
      </div>
      {canWrite ? (
        <section className="danger-zone" aria-label="Delete team">
          <ConfirmAction
            intent="delete"
            label={TEAMS.delete}
            title={TEAMS.confirmDelete.title}
            message={TEAMS.confirmDelete.message(team.name)}
            confirmLabel={TEAMS.confirmDelete.confirm}
            confirming={confirming}
          />
        </section>
      ) : null}
    </>
  );
}
