import { getFormProps } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { FormError, SaveButton, TextAreaField } from "~/ui/fields";
import { useSchemaForm } from "~/ui/schema-form";
import { UrlDialog } from "~/ui/url-dialog";
import { importSchema } from "./schema";
import { WORKFLOWS } from "./texts";

/** An import dialog: the 'Paste import string' field, Cancel and Import (workflows here; templates on their page). */
export function ImportDialog({
  id,
  title,
  hint,
  required,
  closeTo,
  openerId,
  actionData,
}: {
  id: string;
  title: string;
  hint: string;
  required: string;
  closeTo: string;
  openerId: string;
  actionData: unknown;
}) {
  const [form, fields] = useSchemaForm(importSchema(required), { id: `${id}-form`, actionData, defaultValue: { importString: "" } });
  return (
    <UrlDialog id={id} title={title} closeTo={closeTo} openerId={openerId}>
      {(cancel) => (
        // Multipart: the text travels as its UTF-8 bytes, which the route's body bound (IMPORT_BODY_BYTES) counts on;
        // urlencoded, JSON's quotes and braces would each take three.
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="dialog-form" preventScrollReset>
          <TextAreaField meta={fields.importString} label={WORKFLOWS.import.label} hint={hint} rows={10} className="code" data-initial-focus spellCheck={false} />
          <FormError id={form.errorId} errors={form.errors} />
          <div className="form-actions">
            {cancel}
            <SaveButton form={form} label={WORKFLOWS.import.submit} busyLabel={WORKFLOWS.import.busy} intent="import" />
          </div>
        </Form>
      )}
    </UrlDialog>
  );
}
