import { useEffect, useRef, useState, type ComponentType } from "react";
import { useAdoptEarlyInput, useHydrated } from "./hydrated";
import { LEAVE_EDITOR_HINT } from "./leave-editor";

/** What a code editor (Monaco, loaded on the client) is given by `CodeEditor`. */
export type MonacoProps = {
  id: string;
  value: string;
  onChange: (value: string) => void;
  readOnly: boolean;
  label: string;
  /** Called once Monaco has mounted: only then does it replace the textarea. */
  onReady: () => void;
  /** The id of the hint saying how to leave the editor by keyboard. */
  hintId: string;
};

/**
 * A code field: a server-rendered textarea (works without JavaScript); once JavaScript runs, `load` brings the Monaco
 * editor (from the locally installed copy in /monaco, never a CDN; a dynamic import, so only the routes that use it
 * download it) and it replaces the textarea, the value travelling in a hidden field so the same form posts it. The
 * textarea stays until Monaco has really mounted: if its files cannot load, the user keeps a working editor.
 * Examples: the specification template (Handlebars), the portfolio's New Application (JSON).
 */
export function CodeEditor<P extends object = Record<never, never>>({
  id,
  name,
  defaultValue,
  readOnly = false,
  label,
  describedBy,
  invalid,
  rows = 16,
  load,
  editorProps,
  form,
}: {
  id: string;
  name: string;
  defaultValue: string;
  readOnly?: boolean;
  label: string;
  describedBy?: string;
  invalid?: boolean;
  rows?: number;
  /** The client-only Monaco component (`() => import("./monaco.client").then((m) => m.X)`). */
  load: () => Promise<ComponentType<MonacoProps & P>>;
  /** What else that component needs (completion lists, say). */
  editorProps?: P;
  /** The form the field belongs to when it sits outside it (the `form` attribute). */
  form?: string;
}) {
  const hydrated = useHydrated();
  const [value, setValue] = useState(defaultValue);
  const [Monaco, setMonaco] = useState<ComponentType<MonacoProps & P> | null>(null);
  const [ready, setReady] = useState(false);
  const hiddenRef = useRef<HTMLInputElement>(null);
  // What was typed in the textarea before the page hydrated is what Monaco opens with.
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  useAdoptEarlyInput(textareaRef, value, setValue);
  useEffect(() => setValue(defaultValue), [defaultValue]);
  // Monaco's edits reach the hidden field without an input event of its own: send one, so the form's validation
  // (conform listens for them) sees the text as it is now, as it does for the textarea.
  useEffect(() => {
    hiddenRef.current?.dispatchEvent(new Event("input", { bubbles: true }));
  }, [value]);
  useEffect(() => {
    if (!hydrated) return;
    let live = true;
    load()
      .then((component) => {
        if (live) setMonaco(() => component);
      })
      .catch(() => {
        // The textarea stays: the editor still works without Monaco.
      });
    return () => {
      live = false;
    };
    // `load` is a module-level import: loading once per mount is the point.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hydrated]);

  return (
    <div className="field template-editor">
      <label htmlFor={id} id={`${id}-label`}>
        {label}
      </label>
      {Monaco ? (
        <div hidden={!ready}>
          <Monaco
            {...(editorProps as P)}
            id={id}
            value={value}
            onChange={setValue}
            readOnly={readOnly}
            label={label}
            onReady={() => setReady(true)}
            hintId={`${id}-keys`}
          />
          <p id={`${id}-keys`} className="field-hint">
            {LEAVE_EDITOR_HINT}
          </p>
        </div>
      ) : null}
      {Monaco && ready ? (
        <input ref={hiddenRef} type="hidden" name={name} value={value} form={form} />
      ) : (
        <textarea
          ref={textareaRef}
          id={id}
          name={name}
          form={form}
          rows={rows}
          className="code"
          spellCheck={false}
          readOnly={readOnly}
          aria-readonly={readOnly || undefined}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
        />
      )}
    </div>
  );
}
