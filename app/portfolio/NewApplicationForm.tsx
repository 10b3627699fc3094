import { getFormProps } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { NEW_APPLICATION_SAMPLE } from "@contract/portfolio-constants";
import { CodeEditor } from "~/ui/code-editor";
import { FieldErrors, FormError, SaveButton } from "~/ui/fields";
import { useSchemaForm } from "~/ui/schema-form";
import { NewApplicationSchema } from "./schema";
import { PORTFOLIO } from "./texts";

const A = PORTFOLIO.add;
const SAMPLE = JSON.stringify(NEW_APPLICATION_SAMPLE, null, 2);
const loadJsonEditor = () => import("~/ui/monaco.client").then((m) => m.MonacoJsonEditor);

/**
 * The JSON of a new application (spec 2 §2): Monaco in JSON mode once JavaScript runs (loaded by this route only), a
 * textarea without it; pre-filled with the spec's sample (an id and two tags). A refused save keeps the text typed.
 */
export function NewApplicationForm({ actionData }: { actionData: unknown }) {
  const [form, fields] = useSchemaForm(NewApplicationSchema, {
    id: "new-application",
    actionData,
    defaultValue: { application: SAMPLE },
  });
  const meta = fields.application;
  const typed = typeof meta.initialValue === "string" ? meta.initialValue : SAMPLE;
  return (
    <Form method="post" {...getFormProps(form)} className="form-card">
      <CodeEditor
        id={meta.id}
        name={meta.name}
        key={meta.key}
        defaultValue={typed}
        label={A.label}
        rows={18}
        invalid={!!meta.errors?.length}
        describedBy={`${meta.id}-hint ${meta.errorId}`}
        load={loadJsonEditor}
      />
      <p id={`${meta.id}-hint`} className="field-hint">
        {A.hint}
      </p>
      <FieldErrors id={meta.errorId} errors={meta.errors} />
      <FormError id={form.errorId} errors={form.errors} />
      <div className="form-actions">
        <Link to="/portfolio" className="btn btn-secondary">
          {A.cancel}
        </Link>
        <SaveButton form={form} label={A.save} busyLabel="Saving…" />
      </div>
    </Form>
  );
}
