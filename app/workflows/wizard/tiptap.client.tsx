import { EditorContent, useEditor, useEditorState, type Editor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { useEffect, useRef } from "react";
import type { RichTextEditorProps } from "./rich-text";

type Mark = { label: string; active: (e: Editor) => boolean; run: (e: Editor) => void };

const TOOLS: readonly Mark[] = [
  { label: "Bold", active: (e) => e.isActive("bold"), run: (e) => e.chain().focus().toggleBold().run() },
  { label: "Italic", active: (e) => e.isActive("italic"), run: (e) => e.chain().focus().toggleItalic().run() },
  { label: "Underline", active: (e) => e.isActive("underline"), run: (e) => e.chain().focus().toggleUnderline().run() },
  { label: "Bulleted list", active: (e) => e.isActive("bulletList"), run: (e) => e.chain().focus().toggleBulletList().run() },
  { label: "Numbered list", active: (e) => e.isActive("orderedList"), run: (e) => e.chain().focus().toggleOrderedList().run() },
];

/**
 * TipTap (ProseMirror) over the starter kit, loaded only in the browser by RichTextField. `immediatelyRender: false`:
 * the editor is made after mount, never during a server render or hydration. A toolbar of toggle buttons (aria-pressed)
 * and the keyboard shortcuts of the starter kit (Ctrl+B, Ctrl+I, Ctrl+U; Tab indents in lists, else leaves).
 */
export function RichTextEditor({ id, labelId, value, onChange, describedBy, onReady }: RichTextEditorProps) {
  const changed = useRef(onChange);
  changed.current = onChange;
  const editor = useEditor({
    immediatelyRender: false,
    extensions: [StarterKit.configure({ heading: { levels: [3, 4] }, link: { openOnClick: false, autolink: true, protocols: ["http", "https", "mailto"] } })],
    content: value,
    editorProps: {
      attributes: {
        id,
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": labelId,
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
        class: "rich-text-input",
      },
    },
    onUpdate: ({ editor: e }) => changed.current(e.isEmpty ? "" : e.getHTML()),
  });
  const active = useEditorState({ editor, selector: ({ editor: e }) => (e ? TOOLS.map((t) => t.active(e)) : TOOLS.map(() => false)) });
  const ready = useRef(onReady);
  ready.current = onReady;
  useEffect(() => {
    if (editor) ready.current();
  }, [editor]);
  if (!editor) return null;
  return (
    <div className="rich-text">
      <div role="toolbar" aria-label="Formatting" aria-controls={id} className="rich-text-toolbar">
        {TOOLS.map((t, i) => (
          <button key={t.label} type="button" className="btn btn-secondary btn-small" aria-pressed={active?.[i] ?? false} onClick={() => t.run(editor)}>
            {t.label}
          </button>
        ))}
      </div>
      <EditorContent editor={editor} />
    </div>
  );
}
