import { getFormProps, getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { SPECIFICATION_TYPES } from "@contract/specifications";
import { CheckboxField, DefaultSubmit, FieldErrors, FormError, TextField, SaveButton, SelectField, TextAreaField, FirstErrorFocus } from "~/ui/fields";
import { useSchemaForm } from "~/ui/schema-form";
import { TagInput, joinTags } from "~/ui/tag-input";
import { SpecificationSchema } from "./schema";
import { SPECIFICATIONS } from "./texts";

const L = SPECIFICATIONS.labels;

export type SpecificationDefaults = {
  name: string;
  type: string;
  description: string;
  tags: string[];
  isPublic: boolean;
  template: string;
};

/** The empty form of a new specification. */
export const NEW_SPECIFICATION: SpecificationDefaults = { name: "", type: "", description: "", tags: [], isPublic: false, template: "" };

/** The create and edit form (spec 1 §2): name, type, description (3 rows), tags, public flag, template (12 rows). */
export function SpecificationForm({
  id,
  defaults,
  lastResult,
  canWrite,
  cancelTo,
  submitLabel,
  after,
}: {
  id: string;
  defaults: SpecificationDefaults;
  lastResult: SubmissionResult<string[]> | undefined;
  canWrite: boolean;
  cancelTo: string;
  submitLabel: string;
  after?: ReactNode;
}) {
  const [form, fields] = useSchemaForm(SpecificationSchema, {
    id,
    actionData: lastResult,
    defaultValue: {
      name: defaults.name,
      type: defaults.type,
      description: defaults.description,
      tags: joinTags(defaults.tags),
      isPublic: defaults.isPublic,
      template: defaults.template,
    },
  });
  const disabled = !canWrite;
  const { key: tplKey, ...tplProps } = getTextareaProps(fields.template);
  const submittedTags = typeof lastResult?.initialValue?.tags === "string" ? lastResult.initialValue.tags : null;
  return (
    <Form method="post" {...getFormProps(form)} className="form-card">
      <DefaultSubmit value="save" />
      <TextField meta={fields.name} label={L.name} autoComplete="off" disabled={disabled} />
      <SelectField
        meta={fields.type}
        label={L.type}
        placeholder={SPECIFICATIONS.chooseType}
        options={SPECIFICATION_TYPES.map((t) => ({ value: t, label: SPECIFICATIONS.types[t] }))}
        disabled={disabled}
      />
      <TextAreaField meta={fields.description} label={L.description} disabled={disabled} />
      <TagInput
        key={submittedTags ?? "tags"}
        id={fields.tags.id}
        name={fields.tags.name}
        label={L.tags}
        defaultValue={submittedTags !== null ? submittedTags.split(";").map((t) => t.trim()).filter(Boolean) : defaults.tags}
        suggestUrl="/specifications/suggest"
        errors={fields.tags.errors}
        errorId={fields.tags.errorId}
        disabled={disabled}
      />
      <CheckboxField meta={fields.isPublic} label={L.isPublic} disabled={disabled} />
      <div className="field">
        <label htmlFor={fields.template.id}>{L.template}</label>
        <FirstErrorFocus meta={fields.template}>
          {(autoFocus) => (
            <textarea key={tplKey} {...tplProps} rows={12} className="code" spellCheck={false} disabled={disabled} autoFocus={autoFocus} />
          )}
        </FirstErrorFocus>
        <FieldErrors id={fields.template.errorId} errors={fields.template.errors} />
      </div>
      {disabled ? <p className="muted">{SPECIFICATIONS.readOnlyNote}</p> : null}
      <FormError id={form.errorId} errors={form.errors} />
      <div className="form-actions">
        <Link to={cancelTo} className="btn btn-secondary">
          {SPECIFICATIONS.cancel}
        </Link>
        {canWrite ? (
          <SaveButton form={form} label={submitLabel} busyLabel="Saving…" intent="save" />
        ) : null}
      </div>
      {after}
    </Form>
  );
}
