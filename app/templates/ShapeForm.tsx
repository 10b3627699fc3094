import { getFormProps } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { DefaultSubmit, FormError, ReadOnlyField, SaveButton, TextAreaField, TextField } from "~/ui/fields";
import { useSchemaForm } from "~/ui/schema-form";
import { TagInput, joinTags } from "~/ui/tag-input";
import { ShapeSchema } from "./schema";
import { SHAPES } from "./texts";

const L = SHAPES.labels;

/** A shape's edit form: its thumbnail, name, description and tags; where it comes from (read-only). */
export function ShapeForm({
  id,
  shape,
  actionData,
  canWrite,
}: {
  id: string;
  shape: { name: string; description: string; tags: string[]; templateName: string; master: string; thumbnail: string };
  actionData: unknown;
  canWrite: boolean;
}) {
  const [form, fields] = useSchemaForm(ShapeSchema, {
    id,
    actionData,
    defaultValue: { name: shape.name, description: shape.description, tags: joinTags(shape.tags) },
  });
  const disabled = !canWrite;
  return (
    <Form method="post" {...getFormProps(form)} className="form-card">
      <DefaultSubmit value="save" />
      <img src={shape.thumbnail} alt={SHAPES.thumbnailAlt(shape.name)} width={96} height={96} className="shape-thumb" />
      <ReadOnlyField id={`${id}-template`} label={L.template} value={shape.templateName} />
      <ReadOnlyField id={`${id}-master`} label={L.master} value={shape.master} />
      <TextField meta={fields.name} label={L.name} autoComplete="off" disabled={disabled} />
      <TextAreaField meta={fields.description} label={L.description} disabled={disabled} />
      <TagInput id={fields.tags.id} name={fields.tags.name} label={L.tags} defaultValue={shape.tags} errors={fields.tags.errors} errorId={fields.tags.errorId} disabled={disabled} />
      {disabled ? <p className="muted">{SHAPES.readOnlyNote}</p> : null}
      <FormError id={form.errorId} errors={form.errors} />
      <div className="form-actions">
        <Link to="/shapes" className="btn btn-secondary">
          {SHAPES.cancel}
        </Link>
        {canWrite ? <SaveButton form={form} label={SHAPES.save} busyLabel="Saving…" intent="save" /> : null}
      </div>
    </Form>
  );
}
