import { useEffect, useState, type ComponentType } from "react";
import { useHydrated } from "~/ui/hydrated";

/** What the client-only editor (tiptap.client.tsx) is given. */
export type RichTextEditorProps = {
  id: string;
  labelId: string;
  value: string;
  onChange: (html: string) => void;
  describedBy?: string;
  /** Called once the editor has mounted: only then does it replace the textarea. */
  onReady: () => void;
};

/**
 * A rich text field: a server-rendered textarea of HTML or plain text (works without JavaScript); once JavaScript runs,
 * TipTap is loaded (a dynamic import: only the pages using this field download it) and replaces the textarea when it
 * has mounted, the HTML travelling in a hidden field of the same name. The server sanitizes whatever arrives
 * (app/lib/rich-text.server.ts).
 */
export function RichTextField({
  id,
  name,
  label,
  value,
  onChange,
  describedBy,
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  onChange: (html: string) => void;
  describedBy?: string;
}) {
  const hydrated = useHydrated();
  const [Editor, setEditor] = useState<ComponentType<RichTextEditorProps> | null>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!hydrated) return;
    let live = true;
    import("./tiptap.client")
      .then((m) => {
        if (live) setEditor(() => m.RichTextEditor);
      })
      .catch(() => {
        // The textarea stays: the note can still be written.
      });
    return () => {
      live = false;
    };
  }, [hydrated]);
  const labelId = `${id}-label`;
  return (
    <div className="field rich-text-field">
      <label htmlFor={ready ? undefined : id} id={labelId}>
        {label}
      </label>
      {Editor ? (
        <div hidden={!ready}>
          <Editor id={id} labelId={labelId} value={value} onChange={onChange} describedBy={describedBy} onReady={() => setReady(true)} />
        </div>
      ) : null}
      {Editor && ready ? (
        <input type="hidden" name={name} value={value} />
      ) : (
        <textarea id={id} name={name} rows={5} value={value} onChange={(e) => onChange(e.currentTarget.value)} aria-describedby={describedBy} />
      )}
    </div>
  );
}
