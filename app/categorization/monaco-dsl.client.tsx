import type { BeforeMount } from "@monaco-editor/react";
import type * as Monaco from "monaco-editor";
import { useEffect } from "react";
import type { MonacoProps } from "~/ui/code-editor";
import { MonacoEditor } from "~/ui/monaco.client";
import { DSL_SNIPPETS } from "./dsl";

type Disposable = { dispose(): void };
let provider: Disposable | null = null;
let users = 0;

/** Registers the DSL completion for JSON while a categorization editor is mounted (other JSON editors stay plain). */
const register: BeforeMount = (monaco) => {
  if (provider) return;
  provider = monaco.languages.registerCompletionItemProvider("json", {
    triggerCharacters: ['"'],
    provideCompletionItems(model: Monaco.editor.ITextModel, position: Monaco.Position) {
      const word = model.getWordUntilPosition(position);
      const line = model.getLineContent(position.lineNumber);
      // Replace the quotes around what is typed too: the snippet brings its own.
      const start = line.charAt(word.startColumn - 2) === '"' ? word.startColumn - 1 : word.startColumn;
      const end = line.charAt(word.endColumn - 1) === '"' ? word.endColumn + 1 : word.endColumn;
      const range = { startLineNumber: position.lineNumber, endLineNumber: position.lineNumber, startColumn: start, endColumn: end };
      return {
        suggestions: DSL_SNIPPETS.map((s) => ({
          label: s.label,
          detail: s.detail,
          kind: monaco.languages.CompletionItemKind.Snippet,
          insertText: s.insertText,
          insertTextRules: monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet,
          range,
        })),
      };
    },
  });
};

/** The query editor: Monaco in JSON mode with the DSL's clauses as completions (loaded only on /categorization). */
export function MonacoDslEditor(props: MonacoProps) {
  useEffect(() => {
    users++;
    return () => {
      users--;
      if (users === 0) {
        provider?.dispose();
        provider = null;
      }
    };
  }, []);
  return <MonacoEditor {...props} language="json" beforeMount={register} />;
}
