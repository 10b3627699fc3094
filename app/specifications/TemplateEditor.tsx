import { useEffect, useState, type ComponentType } from "react";
import type { HelperFunction } from "../../upstream/contract/nlp";
import { useHydrated } from "../ui/hydrated";

export type MonacoProps = {
  id: string;
  value: string;
  onChange: (value: string) => void;
  readOnly: boolean;
  label: string;
  helpers: HelperFunction[];
  contextFields: string[];
  /** Called once Monaco has mounted: only then does it replace the textarea. */
  onReady: () => void;
};

/**
 * The template editor: a server-rendered textarea (works without JavaScript); once JavaScript runs, Monaco (from the
 * locally installed copy in /monaco, never a CDN) is loaded for this route only and replaces it, the value travelling
 * in a hidden field so the same form posts it.
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
  const hydrated = useHydrated();
  const [value, setValue] = useState(defaultValue);
  const [Monaco, setMonaco] = useState<ComponentType<MonacoProps> | null>(null);
  // The textarea stays until Monaco has really mounted: if its files cannot load, the user keeps a working editor.
  const [ready, setReady] = useState(false);
  useEffect(() => setValue(defaultValue), [defaultValue]);
  useEffect(() => {
    if (!hydrated) return;
    let live = true;
    import("./monaco.client")
      .then((m) => {
        if (live) setMonaco(() => m.MonacoTemplateEditor);
      })
      .catch(() => {
        // The textarea stays: the editor still works without Monaco.
      });
    return () => {
      live = false;
    };
  }, [hydrated]);

  return (
    <div className="field template-editor">
      <label htmlFor={id} id={`${id}-label`}>
        {label}
      </label>
      {Monaco ? (
        <div hidden={!ready}>
          <Monaco
            id={id}
            value={value}
            onChange={setValue}
            readOnly={readOnly}
            label={label}
            helpers={helpers}
            contextFields={contextFields}
            onReady={() => setReady(true)}
          />
        </div>
      ) : null}
      {Monaco && ready ? (
        <input type="hidden" name={name} value={value} />
      ) : (
        <textarea
          id={id}
          name={name}
          rows={16}
          className="code"
          spellCheck={false}
          readOnly={readOnly}
          aria-readonly={readOnly || undefined}
          aria-describedby={describedBy}
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
        />
      )}
    </div>
  );
}
