import { getFormProps } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { FormError, SaveButton, TextField } from "~/ui/fields";
import { useSchemaForm } from "~/ui/schema-form";
import { OrganizationSchema } from "./schema";
import { ORGANIZATIONS } from "./texts";

/** The new and edit form (spec 1 §2): the name; read-only without `may.write`. */
export function OrganizationForm({
  id,
  name,
  actionData,
  canWrite,
  mode,
}: {
  id: string;
  name: string;
  actionData: unknown;
  canWrite: boolean;
  mode: "new" | "edit";
}) {
  const [form, fields] = useSchemaForm(OrganizationSchema, { id, actionData, defaultValue: { name } });
  return (
    <Form method="post" {...getFormProps(form)} className="form-card">
      <TextField meta={fields.name} label={ORGANIZATIONS.labels.name} autoComplete="off" disabled={!canWrite} />
      <p className="muted">{canWrite ? ORGANIZATIONS.aiNote : ORGANIZATIONS.readOnlyNote}</p>
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
