import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { FormError, SaveButton, TextField } from "~/ui/fields";
import { useSchemaForm } from "~/ui/schema-form";
import { TagInput, splitTags } from "~/ui/tag-input";
import { WorkflowSchema } from "./schema";
import { WORKFLOWS } from "./texts";

const W = WORKFLOWS;

/**
 * The new and edit form (spec 3 §2.2, §5): the title (required, trimmed) and the client codes (a tag list); read-only
 * without `workflows`. After a failed post the client codes are the ones typed (the tag input's text), not the record's.
 */
export function WorkflowForm({
  id,
  title,
  clientCodes,
  actionData,
  lastResult,
  canWrite,
}: {
  id: string;
  title: string;
  clientCodes: string[];
  actionData: unknown;
  lastResult: SubmissionResult<string[]> | undefined;
  canWrite: boolean;
}) {
  const [form, fields] = useSchemaForm(WorkflowSchema, { id, actionData, defaultValue: { title } });
  const sent = lastResult?.initialValue?.clientCodes;
  const codes = typeof sent === "string" ? splitTags(sent) : clientCodes;
  return (
    <Form method="post" {...getFormProps(form)} className="form-card">
      <TextField meta={fields.title} label={W.labels.title} autoComplete="off" disabled={!canWrite} />
      <TagInput
        key={`codes:${codes.join(";")}`}
        id={fields.clientCodes.id}
        name={fields.clientCodes.name}
        label={W.labels.clientCodes}
        defaultValue={codes}
        errors={fields.clientCodes.errors}
        errorId={fields.clientCodes.errorId}
        disabled={!canWrite}
        hint={W.clientCodesHint}
      />
      {canWrite ? null : <p className="muted">{W.readOnlyNote}</p>}
      <FormError id={form.errorId} errors={form.errors} />
      <div className="form-actions">
        <Link to="/workflows" className="btn btn-secondary">
          {W.cancel}
        </Link>
        {canWrite ? <SaveButton form={form} label={W.save} busyLabel="Saving…" intent="save" /> : null}
      </div>
    </Form>
  );
}
