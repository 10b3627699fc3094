import { getFormProps } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import type { Organization } from "@contract/organizations";
import { OrganizationAiFields, type OrganizationAiChoices } from "~/ai-admin/OrganizationAiFields";
import type { OrganizationAiUpdateSchema } from "~/ai-admin/schema";
import { FormError, SaveButton, TextField } from "~/ui/fields";
import { useSchemaForm } from "~/ui/schema-form";
import { organizationSchemaOf } from "./schema";
import { ORGANIZATIONS } from "./texts";

/**
 * The new and edit form (spec 1 §2, spec 3 §3): the name, and for administrators (`ai`) speech to text, its service,
 * the post-processing model and the models allowed; read-only without `may.write`.
 */
export function OrganizationForm({
  id,
  record,
  ai,
  actionData,
  canWrite,
  mode,
}: {
  id: string;
  record: Organization | null;
  ai: OrganizationAiChoices | null;
  actionData: unknown;
  canWrite: boolean;
  mode: "new" | "edit";
}) {
  // Typed as the widest of the schemas: without `ai` its fields are neither shown nor validated.
  const schema = organizationSchemaOf(mode, ai !== null) as typeof OrganizationAiUpdateSchema;
  const [form, fields] = useSchemaForm(schema, {
    id,
    actionData,
    defaultValue: {
      name: record?.name ?? "",
      enableSpeechToText: record?.enableSpeechToText ?? false,
      speechToTextService: record?.speechToTextService?.id ?? "",
      speechPostProcessingModel: record?.speechPostProcessingModel?.id ?? "",
      models: record?.models ?? [],
    },
  });
  return (
    <Form method="post" {...getFormProps(form)} className="form-card">
      <TextField meta={fields.name} label={ORGANIZATIONS.labels.name} autoComplete="off" disabled={!canWrite} />
      {ai ? (
        <OrganizationAiFields choices={ai} fields={fields} disabled={!canWrite} />
      ) : (
        <p className="muted">{canWrite ? ORGANIZATIONS.aiNote : ORGANIZATIONS.readOnlyNote}</p>
      )}
      {ai && !canWrite ? <p className="muted">{ORGANIZATIONS.readOnlyNote}</p> : null}
      <FormError id={form.errorId} errors={form.errors} />
      <div className="form-actions">
        <Link to="/organizations" className="btn btn-secondary">
          {ORGANIZATIONS.cancel}
        </Link>
        {!canWrite ? null : mode === "new" ? (
          <SaveButton form={form} label={ORGANIZATIONS.save} busyLabel="Saving…" />
        ) : (
          <SaveButton form={form} label={ORGANIZATIONS.update} busyLabel="Updating…" intent="update" />
        )}
      </div>
    </Form>
  );
}
