import { getFormProps } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import type { OrganizationOption } from "@contract/organizations";
import { CheckboxGroup, FieldErrors, FormError, ReadOnlyField, SaveButton, TextAreaField, TextField } from "~/ui/fields";
import { useSchemaForm } from "~/ui/schema-form";
import { ReportSchema } from "./schema";
import { REPORTS } from "./texts";

const L = REPORTS.labels;

export type ReportDefaults = { identifier: string; name: string; description: string; organizations: string[]; type: string };

/** The edit form (spec 2 §2, §3): identifier and type read-only; name, description, organizations. */
export function ReportForm({
  id,
  defaults,
  organizations,
  actionData,
  canWrite,
}: {
  id: string;
  defaults: ReportDefaults;
  organizations: OrganizationOption[];
  actionData: unknown;
  canWrite: boolean;
}) {
  const known = new Set(organizations.map((o) => o.id));
  const [form, fields] = useSchemaForm(ReportSchema, {
    id,
    actionData,
    defaultValue: {
      identifier: defaults.identifier,
      name: defaults.name,
      description: defaults.description,
      organizations: defaults.organizations.filter((o) => known.has(o)),
    },
  });
  const disabled = !canWrite;
  return (
    <Form method="post" {...getFormProps(form)} className="form-card">
      <ReadOnlyField id={fields.identifier.id} name={fields.identifier.name} label={L.identifier} value={defaults.identifier} />
      <FieldErrors id={fields.identifier.errorId} errors={fields.identifier.errors} />
      <ReadOnlyField id={`${id}-type`} label={L.type} value={defaults.type} />
      <TextField meta={fields.name} label={L.name} autoComplete="off" disabled={disabled} />
      <TextAreaField meta={fields.description} label={L.description} disabled={disabled} />
      <CheckboxGroup
        meta={fields.organizations}
        legend={L.organizations}
        options={organizations.map((o) => ({ value: o.id, label: o.name }))}
        empty={REPORTS.noOrganizations}
        disabled={disabled}
      />
      <p className="field-hint">{REPORTS.organizationsHint}</p>
      {disabled ? <p className="muted">{REPORTS.readOnlyNote}</p> : null}
      <FormError id={form.errorId} errors={form.errors} />
      <div className="form-actions">
        <Link to="/reports" className="btn btn-secondary">
          {REPORTS.cancel}
        </Link>
        {canWrite ? <SaveButton form={form} label={REPORTS.save} busyLabel="Saving…" intent="save" /> : null}
      </div>
    </Form>
  );
}
