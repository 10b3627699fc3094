import type { HelperFunction } from "@contract/nlp";
import { CodeEditor } from "~/ui/code-editor";

/** What the Handlebars editor needs beyond a code editor's props: the completion lists. */
export type TemplateCompletions = { helpers: HelperFunction[]; contextFields: string[] };

const loadTemplateEditor = () => import("./monaco.client").then((m) => m.MonacoTemplateEditor);

/**
 * The template editor: the shared code editor (`app/ui/code-editor.tsx`: a textarea without JavaScript, Monaco once it
 * runs) in Handlebars, with completion of the helper functions and the context object's fields.
 */
export function TemplateEditor({
  id,
  name,
  defaultValue,
  readOnly,
  label,
  helpers,
  contextFields,
  describedBy,
}: {
  id: string;
  name: string;
  defaultValue: string;
  readOnly: boolean;
  label: string;
  helpers: HelperFunction[];
  contextFields: string[];
  describedBy?: string;
}) {
  return (
    <CodeEditor<TemplateCompletions>
      id={id}
      name={name}
      defaultValue={defaultValue}
      readOnly={readOnly}
      label={label}
      describedBy={describedBy}
      load={loadTemplateEditor}
      editorProps={{ helpers, contextFields }}
    />
  );
}
