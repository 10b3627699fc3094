import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { MESSAGE_SAMPLE_CONTEXT, isRecipient } from "@contract/messages";
import { TemplateEditor } from "~/specifications/TemplateEditor";
import { DefaultSubmit, FieldErrors, FormError, SaveButton, TextAreaField, TextField } from "~/ui/fields";
import { useSchemaForm } from "~/ui/schema-form";
import { TagInput, splitTags } from "~/ui/tag-input";
import type { PreviewResult } from "./messages.server";
import { MessageSchema } from "./schema";
import { MESSAGES } from "./texts";

const L = MESSAGES.labels;

export type MessageDefaults = {
  name: string;
  description: string;
  tags: string[];
  subject: string;
  body: string;
  to: string[];
  cc: string[];
  bcc: string[];
};

export const NEW_MESSAGE: MessageDefaults = { name: "", description: "", tags: [], subject: "", body: "", to: [], cc: [], bcc: [] };

/** The dotted paths of the sample context, offered by the editor's completion. */
const CONTEXT_FIELDS = Object.entries(MESSAGE_SAMPLE_CONTEXT).flatMap(([key, value]) =>
  Array.isArray(value) || typeof value !== "object" ? [key] : Object.keys(value).map((k) => `${key}.${k}`),
);
const SAMPLE_JSON = JSON.stringify(MESSAGE_SAMPLE_CONTEXT, null, 2);

/** The preview of an action's answer, if it carries one. */
function previewOf(data: unknown): PreviewResult | null {
  return data && typeof data === "object" && "preview" in data ? (data.preview as PreviewResult) : null;
}

/** A list field as typed in the last post (kept after a failure without JavaScript), else the record's. */
function listOf(lastResult: SubmissionResult<string[]> | undefined, name: string, fallback: string[]): string[] {
  const sent = lastResult?.initialValue?.[name];
  return typeof sent === "string" ? splitTags(sent) : fallback;
}

/**
 * The create and edit form (spec 2 §2, §3, §5): name, description, tags, the recipient lists (e-mails or §9's
 * variables, suggestions of both), subject and the Handlebars body, and Preview (rendered on the server against the
 * sample context, with or without JavaScript).
 */
export function MessageForm({
  id,
  defaults,
  actionData,
  lastResult,
  canWrite,
}: {
  id: string;
  defaults: MessageDefaults;
  actionData: unknown;
  lastResult: SubmissionResult<string[]> | undefined;
  canWrite: boolean;
}) {
  const [form, fields] = useSchemaForm(MessageSchema, {
    id,
    actionData,
    defaultValue: { name: defaults.name, description: defaults.description, subject: defaults.subject, body: defaults.body },
  });
  const disabled = !canWrite;
  const sentBody = lastResult?.initialValue?.body;
  const preview = previewOf(actionData);
  const recipientField = (name: "to" | "cc" | "bcc") => {
    const field = fields[name];
    const values = listOf(lastResult, name, defaults[name]);
    return (
      <TagInput
        key={`${name}:${values.join(";")}`}
        id={field.id}
        name={field.name}
        label={L[name]}
        defaultValue={values}
        suggestUrl="/messages/recipients"
        validate={(r) => (isRecipient(r) ? null : MESSAGES.validation.badRecipient(r))}
        errors={field.errors}
        errorId={field.errorId}
        disabled={disabled}
        hint={MESSAGES.recipientsHint}
      />
    );
  };
  const tags = listOf(lastResult, "tags", defaults.tags);
  return (
    <Form method="post" {...getFormProps(form)} className="form-card">
      <DefaultSubmit value="save" />
      <TextField meta={fields.name} label={L.name} autoComplete="off" disabled={disabled} />
      <TextAreaField meta={fields.description} label={L.description} disabled={disabled} />
      <TagInput
        key={`tags:${tags.join(";")}`}
        id={fields.tags.id}
        name={fields.tags.name}
        label={L.tags}
        defaultValue={tags}
        errors={fields.tags.errors}
        errorId={fields.tags.errorId}
        disabled={disabled}
      />
      {recipientField("to")}
      {recipientField("cc")}
      {recipientField("bcc")}
      <TextField meta={fields.subject} label={L.subject} autoComplete="off" disabled={disabled} className="code" />
      <TemplateEditor
        id={fields.body.id}
        name={fields.body.name}
        defaultValue={typeof sentBody === "string" ? sentBody : defaults.body}
        readOnly={disabled}
        label={L.body}
        helpers={[]}
        contextFields={CONTEXT_FIELDS}
        describedBy={fields.body.errors?.length ? fields.body.errorId : undefined}
      />
      <FieldErrors id={fields.body.errorId} errors={fields.body.errors} />
      <details>
        <summary>{MESSAGES.sampleContext}</summary>
        <pre className="sample-context">{SAMPLE_JSON}</pre>
      </details>
      {disabled ? <p className="muted">{MESSAGES.readOnlyNote}</p> : null}
      <FormError id={form.errorId} errors={form.errors} />
      <div className="form-actions">
        <Link to="/messages" className="btn btn-secondary">
          {MESSAGES.cancel}
        </Link>
        {canWrite ? (
          <>
            <button type="submit" name="intent" value="preview" className="btn btn-secondary">
              {MESSAGES.preview}
            </button>
            <SaveButton form={form} label={MESSAGES.save} busyLabel="Saving…" intent="save" />
          </>
        ) : null}
      </div>
      {preview ? (
        <section className="preview" aria-labelledby={`${id}-preview`} aria-live="polite">
          <h2 id={`${id}-preview`}>{MESSAGES.previewTitle}</h2>
          {preview.error !== null ? (
            <p className="preview-error" role="alert">
              {MESSAGES.previewFailed} {preview.error}
            </p>
          ) : (
            <>
              <p>
                <strong>{L.subject}:</strong> {preview.subject}
              </p>
              <pre>{preview.body}</pre>
            </>
          )}
        </section>
      ) : null}
    </Form>
  );
}
