import type { FieldMetadata } from "@conform-to/react";
import { CodeEditor } from "~/ui/code-editor";
import { FieldErrors } from "~/ui/fields";

const loadJsonEditor = () =>
  import("~/ui/monaco.client").then((m) => m.MonacoJsonEditor);

/**
 * A model's or a service's config JSON: Monaco with JavaScript, a textarea without; the hint, and where the JSON does
 * not parse under it, with what was typed kept (the field's value, else the spec's sample config).
 */
export function ConfigField({
  meta,
  label,
  hint,
  sample,
  rows,
}: {
  meta: FieldMetadata<string | undefined>;
  label: string;
  hint: string;
  sample: string;
  rows: number;
}) {
  return (
    <>
      <CodeEditor
        id={meta.id}
        name={meta.name}
        key={meta.key}
        defaultValue={
          typeof meta.initialValue === "string" ? meta.initialValue : sample
        }
        label={label}
        rows={rows}
        invalid={!!meta.errors?.length}
        describedBy={`${meta.id}-hint ${meta.errorId}`}
        load={loadJsonEditor}
      />
      <p id={`${meta.id}-hint`} className="field-hint">
        {hint}
      </p>
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </>
  );
}
