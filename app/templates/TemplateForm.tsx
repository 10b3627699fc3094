import { getFormProps, type FieldMetadata } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useState } from "react";
import type { z } from "zod";
import type { HelperFunction } from "@contract/nlp";
import { splitFileName } from "@contract/templates";
import { TemplateEditor } from "~/specifications/TemplateEditor";
import { CheckboxField, DefaultSubmit, FieldErrors, FormError, SaveButton, TextAreaField } from "~/ui/fields";
import { FileField, type CurrentFile } from "~/ui/file-field";
import { useSchemaForm } from "~/ui/schema-form";
import { TagInput, joinTags } from "~/ui/tag-input";
import { Toast, toastOf } from "~/ui/toast";
import { UploadProgress, useUploadProgress } from "~/ui/upload-progress";
import type { TemplateTexts } from "./texts";

export type TemplateDefaults = {
  name: string;
  description: string;
  tags: string[];
  isPublic?: boolean;
  isStyleMaster?: boolean;
  textTemplate?: string;
};

type TemplateField = "fileTemplate" | "description" | "tags" | "isPublic" | "isStyleMaster" | "textTemplate";
type AnySchema = z.ZodType<Record<string, unknown>, z.ZodTypeDef, Record<string, unknown>>;

/**
 * The create and edit form of Word, Visio and drawing templates (spec 2 §2, §5): the file (its name and extension
 * become the record's; the name field is disabled and shows it), description, tags, the kind's flags, and for drawings
 * the Handlebars text template in the specifications' code editor (textarea without JavaScript). With JavaScript a
 * large upload shows its progress.
 */
export function TemplateForm({
  id,
  schema,
  texts,
  accept,
  defaults,
  current,
  actionData,
  canWrite,
  cancelTo,
  flags,
  editor,
}: {
  id: string;
  schema: AnySchema;
  texts: TemplateTexts;
  accept: string;
  defaults: TemplateDefaults;
  current: CurrentFile;
  actionData: unknown;
  canWrite: boolean;
  cancelTo: string;
  flags: readonly ("isPublic" | "isStyleMaster")[];
  editor?: { helpers: HelperFunction[]; contextFields: string[] };
}) {
  const upload = useUploadProgress();
  const shown = upload.result ?? actionData;
  const [form, anyFields] = useSchemaForm(schema, {
    id,
    actionData: shown,
    defaultValue: {
      description: defaults.description,
      tags: joinTags(defaults.tags),
      isPublic: defaults.isPublic ? "on" : undefined,
      isStyleMaster: defaults.isStyleMaster ? "on" : undefined,
      textTemplate: defaults.textTemplate,
    },
    onValidSubmit: upload.submit,
  });
  const [derived, setDerived] = useState<string | null>(null);
  // One form for three schemas: the fields all of them have (flags and text template per kind).
  const fields = anyFields as unknown as Record<TemplateField, FieldMetadata<string | undefined>>;
  const submitted = (shown as { initialValue?: Record<string, unknown> } | undefined)?.initialValue;
  const submittedTags = typeof submitted?.tags === "string" ? submitted.tags : null;
  const disabled = !canWrite;
  const L = texts.labels;
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="form-card">
      <Toast toast={upload.result ? toastOf(upload.result) : null} />
      <DefaultSubmit value="save" />
      <FileField
        meta={fields.fileTemplate as never}
        label={L.file}
        accept={accept}
        current={current}
        hint={texts.fileHint}
        disabled={disabled}
        onChosen={(file) => setDerived(file ? splitFileName(file.name).name : null)}
      />
      <div className="field">
        <label htmlFor={`${id}-name`}>{L.name}</label>
        <input id={`${id}-name`} value={derived ?? defaults.name} disabled aria-describedby={`${id}-name-hint`} readOnly />
        <p id={`${id}-name-hint`} className="field-hint">
          {texts.nameHint}
        </p>
      </div>
      <TextAreaField meta={fields.description} label={L.description} disabled={disabled} />
      <TagInput
        key={submittedTags ?? "tags"}
        id={fields.tags.id}
        name={fields.tags.name}
        label={L.tags}
        defaultValue={submittedTags !== null ? submittedTags.split(";").map((t) => t.trim()).filter(Boolean) : defaults.tags}
        errors={fields.tags.errors}
        errorId={fields.tags.errorId}
        disabled={disabled}
      />
      {flags.map((flag) => (
        <CheckboxField key={flag} meta={fields[flag] as never} label={L[flag]} disabled={disabled} />
      ))}
      {editor ? (
        <>
          <TemplateEditor
            id={`${id}-text-template`}
            name="textTemplate"
            defaultValue={typeof submitted?.textTemplate === "string" ? submitted.textTemplate : (defaults.textTemplate ?? "")}
            readOnly={disabled}
            label={L.textTemplate}
            helpers={editor.helpers}
            contextFields={editor.contextFields}
            describedBy={`${id}-text-template-help`}
          />
          <details id={`${id}-text-template-help`} className="field-hint">
            <summary>Handlebars helpers ({editor.helpers.length})</summary>
            <ul>
              {editor.helpers.map((h) => (
                <li key={h.name}>
                  <code>{h.name}</code> — {h.description}
                </li>
              ))}
            </ul>
          </details>
          <FieldErrors id={`${id}-text-template-errors`} errors={fields.textTemplate.errors} />
        </>
      ) : null}
      {disabled ? <p className="muted">{texts.readOnlyNote}</p> : null}
      <FormError id={form.errorId} errors={form.errors} />
      <UploadProgress progress={upload.progress} />
      <div className="form-actions">
        <Link to={cancelTo} className="btn btn-secondary">
          {texts.cancel}
        </Link>
        {canWrite ? (
          <SaveButton form={{ dirty: form.dirty || upload.pending, valid: form.valid, allErrors: form.allErrors }} label={texts.save} busyLabel="Saving…" intent="save" />
        ) : null}
      </div>
    </Form>
  );
}
