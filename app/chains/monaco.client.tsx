import type { Monaco } from "@monaco-editor/react";
import type { editor, languages, Position } from "monaco-editor";
import type { MonacoProps } from "~/ui/code-editor";
import { MonacoEditor } from "~/ui/monaco.client";
import type { ChainCodeProps, ChainCompletions } from "./CodeField";

/** Each editor's completion lists by its model's path: the chain page has many editors, each link its own scope. */
const byPath = new Map<string, ChainCompletions>();
const registered = new Set<string>();
const modelPath = (id: string) => `chain-code/${id}`;

/** The word being typed inside an open `{{ … }}` (Handlebars) or after `:` (a query's parameter), or null elsewhere. */
function where(model: editor.ITextModel, position: Position, language: string): "handlebars" | "param" | null {
  const line = model.getLineContent(position.lineNumber).slice(0, position.column - 1);
  if (language === "sql") return /(?<![:\w]):[A-Za-z0-9_]*$/.test(line) ? "param" : null;
  const open = line.lastIndexOf("{{");
  return open >= 0 && line.lastIndexOf("}}") < open ? "handlebars" : null;
}

/** Completion of the variables in scope at the link (and, inside {{ … }}, the helpers and context fields). */
function register(monaco: Monaco, language: string) {
  if (registered.has(language)) return;
  registered.add(language);
  monaco.languages.registerCompletionItemProvider(language, {
    triggerCharacters: language === "sql" ? [":"] : ["{", "(", " "],
    provideCompletionItems(model: editor.ITextModel, position: Position) {
      const at = where(model, position, language);
      const lists = byPath.get(model.uri.path.replace(/^\//, ""));
      if (!at || !lists) return { suggestions: [] };
      const word = model.getWordUntilPosition(position);
      const range = { startLineNumber: position.lineNumber, endLineNumber: position.lineNumber, startColumn: word.startColumn, endColumn: word.endColumn };
      const { Variable, Function, Field } = monaco.languages.CompletionItemKind;
      const suggestions: languages.CompletionItem[] = lists.variables.map((v) => ({ label: v.name, kind: Variable, detail: v.detail, insertText: v.name, range }));
      if (at === "handlebars") {
        for (const h of lists.helpers) {
          const documentation = `${h.description}\n\n**Example**\n\n\`${h.example.template}\` → \`${h.example.output}\``;
          suggestions.push({ label: h.name, kind: Function, detail: h.arguments.map((a) => a.name).join(" "), documentation: { value: documentation }, insertText: h.name, range });
        }
        for (const f of lists.contextFields) suggestions.push({ label: f, kind: Field, insertText: f, range });
      }
      return { suggestions };
    },
  });
}

/** Monaco for a chain's code field: Handlebars (messages, templates) or SQL (a query), completing what is in scope. */
export function MonacoChainEditor({ language, completions, ...props }: MonacoProps & ChainCodeProps) {
  const path = modelPath(props.id);
  byPath.set(path, completions);
  return <MonacoEditor {...props} language={language} path={path} height="220px" beforeMount={(monaco) => register(monaco, language)} />;
}
