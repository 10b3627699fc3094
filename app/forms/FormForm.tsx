import { getFormProps, type FieldMetadata } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useState } from "react";
import { FORM_DEFAULTS, FORM_TYPES, isPdfFormType, type FormType } from "@contract/forms";
import { splitFileName } from "@contract/templates";
import { CheckboxGroup, DefaultSubmit, FormError, SaveButton, SelectField, TextAreaField, TextField } from "~/ui/fields";
import { FileField, type CurrentFile } from "~/ui/file-field";
import { useHydrated } from "~/ui/hydrated";
import { useSchemaForm } from "~/ui/schema-form";
import { TagInput, joinTags } from "~/ui/tag-input";
import { Toast, toastOf } from "~/ui/toast";
import { UploadProgress, useUploadProgress } from "~/ui/upload-progress";
import { FormSchema } from "./schema";
import { FORMS } from "./texts";

const L = FORMS.labels;

export type FormDefaults = {
  name: string;
  type: string;
  description: string;
  fileNameTemplate: string;
  foreach: string;
  clients: string[];
  organizations: string[];
  tags: string[];
  formFile: CurrentFile;
  modelFile: CurrentFile;
};

/** A new form: no name (it comes from the form file) and no type until the user picks one. */
export const NEW_FORM: FormDefaults = { name: "", type: "", ...FORM_DEFAULTS };

/**
 * The create and edit form of a form (spec 2 §2, §5): type, form file (its name becomes the form's; the name field is
 * read-only), the model file for the PDF types, Filename Template, foreach, clients, organizations, tags. With
 * JavaScript the model file shows only for the PDF types and a large upload shows its progress.
 */
export function FormForm({
  id,
  defaults,
  organizations,
  actionData,
  canWrite,
  editing,
}: {
  id: string;
  defaults: FormDefaults;
  organizations: { id: string; name: string }[];
  actionData: unknown;
  canWrite: boolean;
  editing: boolean;
}) {
  const upload = useUploadProgress();
  const shown = upload.result ?? actionData;
  const [form, fields] = useSchemaForm(FormSchema, {
    id,
    actionData: shown,
    defaultValue: {
      type: defaults.type,
      description: defaults.description,
      fileNameTemplate: defaults.fileNameTemplate,
      foreach: defaults.foreach,
      clients: joinTags(defaults.clients),
      organizations: defaults.organizations,
      tags: joinTags(defaults.tags),
      currentType: editing ? defaults.type : "",
      hasModel: defaults.modelFile ? "yes" : "",
    },
    onValidSubmit: upload.submit,
  });
  const hydrated = useHydrated();
  const [derived, setDerived] = useState<string | null>(null);
  const type = (fields.type.value ?? defaults.type) as FormType | "";
  const pdfType = type !== "" && FORM_TYPES.includes(type) && isPdfFormType(type);
  const disabled = !canWrite;
  const submitted = (shown as { initialValue?: Record<string, unknown> } | undefined)?.initialValue;
  const listOf = (name: "clients" | "tags") =>
    typeof submitted?.[name] === "string" ? (submitted[name] as string).split(";").map((t) => t.trim()).filter(Boolean) : defaults[name];
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="form-card">
      <Toast toast={upload.result ? toastOf(upload.result) : null} />
      <DefaultSubmit value="save" />
      <input type="hidden" name={fields.currentType.name} value={editing ? defaults.type : ""} />
      <input type="hidden" name={fields.hasModel.name} value={defaults.modelFile ? "yes" : ""} />
      <SelectField
        meta={fields.type}
        label={L.type}
        placeholder={FORMS.chooseType}
        options={FORM_TYPES.map((t) => ({ value: t, label: FORMS.types[t] }))}
        disabled={disabled}
      />
      <FileField
        meta={fields.formFile as FieldMetadata<File | undefined>}
        label={L.formFile}
        accept={pdfType ? ".pdf" : hydrated && type ? ".docx,.docm" : ".pdf,.docx,.docm"}
        current={defaults.formFile}
        hint={FORMS.formFileHint(type)}
        disabled={disabled}
        onChosen={(file) => setDerived(file ? splitFileName(file.name).name : null)}
      />
      {!hydrated || pdfType ? (
        <FileField
          meta={fields.modelFile as FieldMetadata<File | undefined>}
          label={L.modelFile}
          accept={pdfType ? `.${type},.xml` : ".xfa,.xfah,.xfdf,.xml"}
          current={defaults.modelFile}
          hint={type ? FORMS.modelFileHint(type) : FORMS.modelFileHintUntyped}
          disabled={disabled}
        />
      ) : (
        <p className="field-hint">{FORMS.modelNotNeeded}</p>
      )}
      <div className="field">
        <label htmlFor={`${id}-name`}>{L.name}</label>
        <input id={`${id}-name`} value={derived ?? defaults.name} disabled readOnly aria-describedby={`${id}-name-hint`} />
        <p id={`${id}-name-hint`} className="field-hint">
          {FORMS.nameHint}
        </p>
      </div>
      <TextAreaField meta={fields.description} label={L.description} disabled={disabled} />
      <TextField meta={fields.fileNameTemplate} label={L.fileNameTemplate} autoComplete="off" disabled={disabled} />
      <TextField meta={fields.foreach} label={L.foreach} hint={FORMS.foreachHint} autoComplete="off" disabled={disabled} />
      <TagInput
        key={`clients-${String(submitted?.clients ?? "")}`}
        id={fields.clients.id}
        name={fields.clients.name}
        label={L.clients}
        hint={FORMS.clientsHint}
        defaultValue={listOf("clients")}
        errors={fields.clients.errors}
        errorId={fields.clients.errorId}
        disabled={disabled}
      />
      <CheckboxGroup
        meta={fields.organizations as FieldMetadata<string[] | undefined>}
        legend={L.organizations}
        options={organizations.map((o) => ({ value: o.id, label: o.name }))}
        empty={FORMS.noOrganizations}
        disabled={disabled}
      />
      <TagInput
        key={`tags-${String(submitted?.tags ?? "")}`}
        id={fields.tags.id}
        name={fields.tags.name}
        label={L.tags}
        defaultValue={listOf("tags")}
        errors={fields.tags.errors}
        errorId={fields.tags.errorId}
        disabled={disabled}
      />
      {disabled ? <p className="muted">{FORMS.readOnlyNote}</p> : null}
      <FormError id={form.errorId} errors={form.errors} />
      <UploadProgress progress={upload.progress} />
      <div className="form-actions">
        <Link to="/forms" className="btn btn-secondary">
          {FORMS.cancel}
        </Link>
        {canWrite ? <SaveButton form={{ dirty: form.dirty || upload.pending, valid: form.valid, allErrors: form.allErrors }} label={FORMS.save} busyLabel="Saving…" intent="save" /> : null}
      </div>
    </Form>
  );
}
