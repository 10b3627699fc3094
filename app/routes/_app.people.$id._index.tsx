import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { scriptOf } from "@contract/bots";
import { can } from "@contract/permissions";
import { requirePermission, requireRoute } from "~/auth/guard.server";
import { failed, failureToast, intentOf, isConfirmed, partialSuccess, statusOf } from "~/lib/actions.server";
import { toasts } from "~/lib/toast.server";
import { isUpstreamError } from "~/lib/upstream.server";
import { botStateOf } from "~/people/bots";
import { bots, resolveBotChoices } from "~/people/bots.server";
import { loadUser } from "~/people/load.server";
import { EditUserSchema, scriptKeyFor } from "~/people/schema";
import { PEOPLE } from "~/people/texts";
import { MembershipFieldset, NameFieldset } from "~/people/UserForm";
import { fullName } from "~/auth/names";
import { UserLinks } from "~/people/UserLinks";
import { users } from "~/people/users.server";
import { syncAssistants, teams } from "~/teams/teams.server";
import { ConfirmAction } from "~/ui/confirm";
import { FormError, ReadOnlyField, SaveButton } from "~/ui/fields";
import { useHydrated } from "~/ui/hydrated";
import { joinTags } from "~/ui/tag-input";
import { Toast, toastOf } from "~/ui/toast";
import { readForm, textOf } from "~/lib/form.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Edit User · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  const { api, identity, timeZone } = await requireRoute(args);
  const user = await loadUser(api, args.params.id ?? "");
  const [organizations, assistantsTeam, bot] = await Promise.all([
    users.organizations(api),
    teams.assistantsOf(api, user.id),
    resolveBotChoices(api, {
      isBot: user.isBot,
      email: user.email,
      script: scriptOf(user.scriptKey) ?? "",
      scriptKey: user.scriptKey ?? "",
      preselectFirst: false,
    }, timeZone),
  ]);
  return json({
    user,
    organizations,
    assistants: assistantsTeam?.members ?? [],
    bot: { ...bot, isBot: user.isBot },
    canWrite: can(identity.permissions, "users"),
    isSelf: user.id === identity.id,
  });
}

export async function action(args: ActionFunctionArgs) {
  const { api, identity, timeZone } = await requirePermission(args, "users");
  const id = args.params.id ?? "";
  const formData = await readForm(args.request);
  const intent = intentOf(formData);

  if (intent === "delete") {
    if (id === identity.id) return json({ confirm: null, toast: null, message: PEOPLE.ownAccount }, { status: 403 });
    if (!isConfirmed(formData)) return json({ confirm: "delete" as const, toast: null });
    try {
      await users.remove(api, id);
    } catch (error) {
      return failed({ confirm: null }, failureToast(PEOPLE.toasts.deleteFailed, error), statusOf(error));
    }
    return toasts(args.context).redirectWithSuccess("/people", PEOPLE.toasts.deleted);
  }

  if (intent === "upload") {
    const user = await loadUser(api, id);
    const file = formData.get("file");
    if (!(file instanceof File) || file.size === 0) {
      return json({ upload: { error: PEOPLE.bot.fileRequired }, toast: null }, { status: 400 });
    }
    const upload = new FormData();
    upload.set("file", file, file.name);
    upload.set("message", textOf(formData, "message"));
    upload.set("script", textOf(formData, "uploadScript"));
    try {
      await bots.upload(api, user.email, upload);
    } catch (error) {
      return failed(
        { upload: { error: isUpstreamError(error) ? error.message : PEOPLE.bot.uploadFailed } },
        failureToast(PEOPLE.bot.uploadFailed, error),
        statusOf(error),
      );
    }
    return toasts(args.context).redirectWithSuccess(`/people/${encodeURIComponent(id)}`, PEOPLE.bot.uploaded);
  }

  const submission = parseWithZod(formData, { schema: EditUserSchema });
  if (intent === "bot") {
    const user = await loadUser(api, id);
    const isBot = formData.get("isBot") === "on";
    const bot = await resolveBotChoices(api, {
      isBot,
      email: user.email,
      script: textOf(formData, "script"),
      scriptKey: textOf(formData, "scriptKey"),
      preselectFirst: false,
    }, timeZone);
    return json({ ...submission.reply(), error: undefined, bot: { ...bot, isBot } });
  }
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const { assistants, firstName, lastName, organizations, isBot } = submission.value;
  let user;
  try {
    user = await users.update(api, { id, firstName, lastName, organizations, isBot, scriptKey: scriptKeyFor(submission.value) });
  } catch (error) {
    return failed(
      submission.reply({ formErrors: [PEOPLE.inline.updateFailed] }),
      failureToast(PEOPLE.toasts.updateFailed, error),
      statusOf(error),
    );
  }
  try {
    await syncAssistants(api, user, assistants);
  } catch (error) {
    // The names were saved: say so, and what was not (back on this page, showing the team as it is).
    const here = `/people/${encodeURIComponent(id)}`;
    return partialSuccess(args.context, here, PEOPLE.toasts.updated, PEOPLE.toasts.assistantsFailed, error);
  }
  return toasts(args.context).redirectWithSuccess("/people", PEOPLE.toasts.updated);
}

export default function EditUser() {
  const { user, organizations, assistants, bot, canWrite, isSelf } = useLoaderData<typeof loader>();
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
      assistants: joinTags(assistants),
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: EditUserSchema }),
  });
  const confirming = !!actionData && "confirm" in actionData && actionData.confirm === "delete";
  const botState = botStateOf(actionData) ?? bot;
  const uploadError = actionData && "upload" in actionData ? actionData.upload.error : null;

  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{PEOPLE.editTitle}</h1>
      </div>
      <UserLinks id={user.id} />
      <Form method="post" {...getFormProps(form)} className="form-card">
        <ReadOnlyField id="email" label={PEOPLE.labels.email} value={user.email} />
        <NameFieldset fields={fields} disabled={!canWrite} />
        <MembershipFieldset
          fields={fields}
          organizations={organizations}
          bot={botState}
          mode="edit"
          email={user.email}
          disabled={!canWrite}
        />
        {!canWrite ? <p className="muted">{PEOPLE.readOnlyNote}</p> : null}
        <FormError id={form.errorId} errors={form.errors} />
        <div className="form-actions">
          <Link to="/people" className="btn btn-secondary">
            {PEOPLE.cancel}
          </Link>
          {canWrite ? (
            <SaveButton form={form} label={PEOPLE.update} busyLabel="Updating…" intent="update" />
          ) : null}
        </div>
      </Form>
      {canWrite && user.isBot ? (
        <Form method="post" encType="multipart/form-data" className="form-card upload-card" aria-labelledby="upload-title">
          <h2 id="upload-title">{PEOPLE.bot.uploadTitle}</h2>
          <div className="field">
            <label htmlFor="upload-script">{PEOPLE.bot.uploadScript}</label>
            <input
              id="upload-script"
              name="uploadScript"
              defaultValue={scriptOf(user.scriptKey) ?? user.email.split("@")[0]}
              aria-describedby="upload-script-hint"
              autoComplete="off"
            />
            <p id="upload-script-hint" className="field-hint">
              {PEOPLE.bot.uploadScriptHint}
            </p>
          </div>
          <div className="field">
            <label htmlFor="upload-file">{PEOPLE.bot.uploadFile}</label>
            <input
              id="upload-file"
              name="file"
              type="file"
              accept=".js,.mjs,.cjs,text/javascript,application/javascript"
              aria-describedby="upload-file-errors"
              aria-invalid={uploadError ? true : undefined}
            />
            <div id="upload-file-errors" className="field-errors" aria-live="polite">
              {uploadError ? <p className="field-error">{uploadError}</p> : null}
            </div>
          </div>
          <div className="field">
            <label htmlFor="upload-message">{PEOPLE.bot.uploadMessage}</label>
            <input id="upload-message" name="message" autoComplete="off" maxLength={500} />
          </div>
          <div className="form-actions">
            <button type="submit" name="intent" value="upload" className="btn btn-secondary" disabled={hydrated && pending}>
              {PEOPLE.bot.upload}
            </button>
          </div>
        </Form>
      ) : null}
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
