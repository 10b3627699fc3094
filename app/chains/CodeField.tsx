import type { ChainDocument } from "@contract/chains";
import { outputVariable } from "@contract/chains-constants";
import type { HelperFunction } from "@contract/nlp";
import { CodeEditor } from "~/ui/code-editor";


/** What a code field completes: the variables in scope at its link and the Handlebars helpers. */
export type ChainCompletions = {
  /** Earlier links' outputs (`PROMPT_1_OUTPUT`) and earlier forms' variables: what the link may read. */
  variables: { name: string; detail: string }[];
  /** The context object's fields (open-ended: the run's context, not checked by a save). */
  contextFields: string[];
  /** The specification generator's helpers (its documentation; none when it is down). */
  helpers: HelperFunction[];
};

/**
 * The variables a link at `index` may read, as a save checks them (docs/decisions/chains.md): every earlier link's
 * output and every earlier form's variables. The chat (index = the number of links) reads them all.
 */
export function variablesInScope(doc: ChainDocument, index: number): ChainCompletions["variables"] {
  const seen = new Set<string>();
  const out: ChainCompletions["variables"] = [];
  const add = (name: string, detail: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    out.push({ name, detail });
  };
  doc.template.chain.slice(0, index).forEach((link, i) => {
    add(outputVariable(link.name), `output of link ${i + 1} (${link.name})`);
    if (link.type === "form") for (const v of link.variables) if (v.name) add(v.name, `form variable of link ${i + 1} (${link.name})`);
  });
  return out;
}

/** What the chain's Monaco editor needs beyond a code editor's props. */
export type ChainCodeProps = { language: "handlebars" | "sql"; completions: ChainCompletions };

const loadChainEditor = () => import("./monaco.client").then((m) => m.MonacoChainEditor);

/**
 * A code field of the chain editor (a message, a query's SQL, a template): the shared code editor — a server-rendered
 * textarea with the same name and value without JavaScript, the locally served Monaco once it runs (loaded lazily, so
 * only the chain page downloads it) writing into the same form field — with completion of what is in scope at its link.
 */
export function CodeField({
  id,
  name,
  defaultValue,
  label,
  rows,
  describedBy,
  invalid,
  language,
  completions,
}: {
  id: string;
  name: string;
  defaultValue: string;
  label: string;
  rows: number;
  describedBy?: string;
  invalid?: boolean;
  language: ChainCodeProps["language"];
  completions: ChainCompletions;
}) {
  return (
    <CodeEditor<ChainCodeProps>
      id={id}
      name={name}
      defaultValue={defaultValue}
      label={label}
      rows={rows}
      describedBy={describedBy}
      invalid={invalid}
      load={loadChainEditor}
      editorProps={{ language, completions }}
    />
  );
}
