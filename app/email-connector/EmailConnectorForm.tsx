import { getFormProps } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { z } from "zod";
import { CheckboxField, FormError, SaveButton } from "~/ui/fields";
import { lastResultOf } from "~/ui/editor";
import { useSchemaForm } from "~/ui/schema-form";
import { TagInput, splitTags } from "~/ui/tag-input";
import { EmailConnectorSchema } from "./schema";
import { EMAIL_CONNECTOR } from "./texts";

const L = EMAIL_CONNECTOR.labels;
const wellFormed = z.string().email();

/** The e-mail connector's maintenance settings: the fast-lane switch and its addresses. */
export function EmailConnectorForm({
  settings,
  actionData,
  canWrite,
}: {
  settings: { fastLaneCheckUpdates: boolean; fastLaneEmails: string[] };
  actionData: unknown;
  canWrite: boolean;
}) {
  const [form, fields] = useSchemaForm(EmailConnectorSchema, {
    id: "email-connector",
    actionData,
    defaultValue: { fastLaneCheckUpdates: settings.fastLaneCheckUpdates },
  });
  const sent = lastResultOf(actionData)?.initialValue?.fastLaneEmails;
  const emails = typeof sent === "string" ? splitTags(sent) : settings.fastLaneEmails;
  return (
    <Form method="post" {...getFormProps(form)} className="form-card">
      <CheckboxField meta={fields.fastLaneCheckUpdates} label={L.fastLaneCheckUpdates} hint={EMAIL_CONNECTOR.hints.fastLaneCheckUpdates} disabled={!canWrite} />
      <TagInput
        key={emails.join(";")}
        id={fields.fastLaneEmails.id}
        name={fields.fastLaneEmails.name}
        label={L.fastLaneEmails}
        defaultValue={emails}
        validate={(e) => (wellFormed.safeParse(e).success ? null : EMAIL_CONNECTOR.validation.badEmail(e))}
        errors={fields.fastLaneEmails.errors}
        errorId={fields.fastLaneEmails.errorId}
        disabled={!canWrite}
        hint={EMAIL_CONNECTOR.hints.fastLaneEmails}
      />
      {canWrite ? null : <p className="muted">{EMAIL_CONNECTOR.readOnlyNote}</p>}
      <FormError id={form.errorId} errors={form.errors} />
      {canWrite ? (
        <div className="form-actions">
          <SaveButton form={form} label={EMAIL_CONNECTOR.save} busyLabel="Saving…" />
        </div>
      ) : null}
    </Form>
  );
}
