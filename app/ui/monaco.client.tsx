import Editor, { loader, type BeforeMount } from "@monaco-editor/react";
import { useEffect, useRef } from "react";
import type { MonacoProps } from "./code-editor";
import { leaveByEscapeThenTab } from "./leave-editor";

/** The copy of monaco-editor/min/vs that `scripts/copy-monaco.mjs` puts in public/: same origin, no CDN. */
loader.config({ paths: { vs: "/monaco/vs" } });

/** Monaco with the back office's options, in `language`; imported only by `CodeEditor`'s `load` (client side). */
export function MonacoEditor({
  id,
  value,
  onChange,
  readOnly,
  label,
  onReady,
  language,
  beforeMount,
  hintId,
  path,
  height = "360px",
}: MonacoProps & {
  language: string;
  beforeMount?: BeforeMount;
  /** The model's name, when completion differs between editors of one page (the provider tells them apart by it). */
  path?: string;
  height?: string;
}) {
  const frame = useRef<HTMLDivElement>(null);
  useEffect(() => (frame.current ? leaveByEscapeThenTab(frame.current) : undefined), []);
  return (
    <div ref={frame} className="monaco-frame" data-testid="monaco-editor" id={`${id}-monaco`}>
      <Editor
        height={height}
        language={language}
        path={path}
        value={value}
        onChange={(v) => onChange(v ?? "")}
        beforeMount={beforeMount}
        onMount={(editor) => {
          // Screen readers hear how to leave (the hint under the editor) with the editor's name.
          // (The focused element is a textbox div with the EditContext API, else a textarea.)
          editor
            .getDomNode()
            ?.querySelectorAll('[role="textbox"], textarea:not([aria-hidden="true"])')
            .forEach((el) => el.setAttribute("aria-describedby", hintId));
          onReady();
        }}
        loading={<p className="muted">Loading the editor…</p>}
        options={{
          readOnly,
          domReadOnly: readOnly,
          ariaLabel: label,
          minimap: { enabled: false },
          wordWrap: "on",
          fontSize: 14,
          lineHeight: 19,
          scrollBeyondLastLine: false,
          automaticLayout: true,
          tabSize: 2,
          accessibilitySupport: "auto",
        }}
      />
    </div>
  );
}

/** JSON in Monaco (the portfolio's New Application). */
export function MonacoJsonEditor(props: MonacoProps) {
  return <MonacoEditor {...props} language="json" />;
}
