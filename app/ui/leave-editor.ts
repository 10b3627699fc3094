/**
 * Leaving a code editor by keyboard. In Monaco, Tab indents (as in any code editor), so it cannot also move focus.
 * The product's rule, stated under every code editor: **Esc, then Tab** (or Shift+Tab) moves to the next (or
 * previous) control, the text unchanged. CodeMirror uses the same pair; Esc alone keeps its usual meaning (closing
 * the suggestions) and any other key in between cancels it. docs/decisions/code-editor-keyboard.md.
 */
export const LEAVE_EDITOR_HINT = "Tab indents here: press Esc, then Tab (or Shift+Tab), to leave the editor.";

const TABBABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]';

/** The control Tab (`step` 1) or Shift+Tab (-1) reaches from outside `container`, in document order. */
function neighbourOf(container: Element, step: 1 | -1): HTMLElement | null {
  const all = [...container.ownerDocument.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (el) => !container.contains(el) && el.tabIndex >= 0 && !el.closest("[hidden], [inert]") && el.getClientRects().length > 0,
  );
  const after = (el: HTMLElement) => (container.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  return step === 1 ? (all.find(after) ?? null) : ([...all].reverse().find((el) => !after(el)) ?? null);
}

/**
 * Listens on `container` (the editor's frame) in the capture phase, before the editor sees the key: Escape arms,
 * Tab or Shift+Tab right after it moves focus out. Returns the function that stops listening.
 */
export function leaveByEscapeThenTab(container: HTMLElement): () => void {
  let armed = false;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") {
      armed = true;
      return;
    }
    if (event.key === "Tab" && armed && !event.ctrlKey && !event.altKey && !event.metaKey) {
      // The editor never sees this Tab. With no control beyond it, the browser's own Tab leaves the page.
      event.stopPropagation();
      const target = neighbourOf(container, event.shiftKey ? -1 : 1);
      if (target) {
        event.preventDefault();
        target.focus();
      }
      armed = false;
      return;
    }
    if (event.key !== "Shift") armed = false;
  };
  const disarm = () => (armed = false);
  container.addEventListener("keydown", onKeyDown, true);
  container.addEventListener("focusout", disarm);
  return () => {
    container.removeEventListener("keydown", onKeyDown, true);
    container.removeEventListener("focusout", disarm);
  };
}
