import { Link, useNavigate } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { useHydrated } from "./hydrated";
import { openModal } from "./modal";

/**
 * A dialog whose state is the URL (`?clone=id`, `?import=1`): a link opens it, so it works without JavaScript and
 * its form posts to the page's action with that URL, which re-renders it with the errors and what was typed. Without
 * JavaScript it is a section in the page flow (Cancel is a link to `closeTo`); with JavaScript a modal `<dialog>`
 * (Cancel or Escape closes it and goes back to `closeTo`, focus back on the element `openerId` names, if any). The
 * pattern of the portfolio's add-tag and edit-fields forms (app/portfolio/Dialogs.tsx), for any page.
 */
export function UrlDialog({
  id,
  title,
  closeTo,
  openerId,
  cancelLabel = "Cancel",
  children,
}: {
  id: string;
  title: string;
  closeTo: string;
  openerId?: string;
  cancelLabel?: string;
  /** The dialog's body, given its Cancel control to place among its buttons. */
  children: (cancel: ReactNode) => ReactNode;
}) {
  const hydrated = useHydrated();
  const ref = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  useEffect(() => {
    if (hydrated) openModal(ref.current);
  }, [hydrated]);
  const titleId = `${id}-title`;
  if (!hydrated) {
    const cancel = (
      <Link to={closeTo} className="btn btn-secondary" preventScrollReset>
        {cancelLabel}
      </Link>
    );
    return (
      <section className="url-dialog-panel" aria-labelledby={titleId} id={id}>
        <h2 id={titleId}>{title}</h2>
        {children(cancel)}
      </section>
    );
  }
  const cancel = (
    <button type="button" className="btn btn-secondary" onClick={() => ref.current?.close()}>
      {cancelLabel}
    </button>
  );
  return (
    <dialog
      ref={ref}
      id={id}
      className="url-dialog"
      aria-labelledby={titleId}
      onClose={() => {
        navigate(closeTo, { replace: true, preventScrollReset: true });
        if (openerId) document.getElementById(openerId)?.focus();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children(cancel)}
    </dialog>
  );
}
