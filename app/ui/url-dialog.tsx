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
  panelClassName = "url-dialog-panel",
  dialogClassName = "url-dialog",
  panelHeading: PanelHeading = "h2",
  children,
}: {
  id: string;
  title: string;
  closeTo: string;
  openerId?: string;
  cancelLabel?: string;
  panelClassName?: string;
  dialogClassName?: string;
  /** The panel's heading level without JavaScript (h3 where the panel sits inside a card with its own h2). */
  panelHeading?: "h2" | "h3";
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
      <section className={panelClassName} aria-labelledby={titleId} id={id}>
        <PanelHeading id={titleId}>{title}</PanelHeading>
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
      className={dialogClassName}
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
