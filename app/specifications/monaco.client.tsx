import type { Monaco } from "@monaco-editor/react";
import type { editor, Position } from "monaco-editor";
import type { HelperFunction } from "@contract/nlp";
import type { MonacoProps } from "~/ui/code-editor";
import { MonacoEditor } from "~/ui/monaco.client";
import type { TemplateCompletions } from "./TemplateEditor";

let completionsFor: { helpers: HelperFunction[]; fields: string[] } = { helpers: [], fields: [] };
let registered = false;

/** Completion of the helper functions and the context object's fields inside {{ … }} (Handlebars). */
function registerCompletion(monaco: Monaco) {
  if (registered) return;
  registered = true;
  monaco.languages.registerCompletionItemProvider("handlebars", {
    triggerCharacters: ["{", "(", " "],
    provideCompletionItems(model: editor.ITextModel, position: Position) {
      const line = model.getLineContent(position.lineNumber).slice(0, position.column - 1);
      const open = line.lastIndexOf("{{");
      if (open < 0 || line.lastIndexOf("}}") > open) return { suggestions: [] };
      const word = model.getWordUntilPosition(position);
      const range = {
        startLineNumber: position.lineNumber,
        endLineNumber: position.lineNumber,
        startColumn: word.startColumn,
        endColumn: word.endColumn,
      };
      return {
        suggestions: [
          ...completionsFor.helpers.map((h) => ({
            label: h.name,
            kind: monaco.languages.CompletionItemKind.Function,
            detail: h.arguments.map((a) => a.name).join(" "),
            documentation: { value: `${h.description}\n\n**Example**\n\n\`${h.example.template}\` → \`${h.example.output}\`` },
            insertText: h.name,
            range,
          })),
          ...completionsFor.fields.map((f) => ({
            label: f,
            kind: monaco.languages.CompletionItemKind.Field,
            insertText: f,
            range,
          })),
        ],
      };
    },
  });
}

export function MonacoTemplateEditor({ helpers, contextFields, ...props }: MonacoProps & TemplateCompletions) {
  completionsFor = { helpers, fields: contextFields };
  return <MonacoEditor {...props} language="handlebars" beforeMount={registerCompletion} />;
}
