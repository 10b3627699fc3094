/**
 * 'Overwrite draft?' (spec 3 §8) when a Dialog tab save met a newer draft than the page showed: who saved it and
 * when; Overwrite posts the same edit again over that draft (its version as the save token), Cancel — focused, the
 * safe choice — loads the page again, which shows the newer draft. Without JavaScript an inline step in the page; with
 * it a modal dialog (openModal), Escape being Cancel. The page's forms meanwhile show the edit as typed.
 */
import { Form, Link, useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useHydrated } from "~/ui/hydrated";
import { openModal } from "~/ui/modal";
import { CHAIN_VERSIONS as V } from "./texts";
import type { NewerDraftStep as Step } from "./versions.server";

export function NewerDraftStep({ step }: { step: Step }) {
  const hydrated = useHydrated();
  const dialog = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  const location = useLocation();
  // The page loaded again (a GET: the refused answer dropped, the newer draft shown). With JavaScript its own address,
  // which the unsaved changes' blocker lets by; without, the address the post went to less its `?index`.
  const search = new URLSearchParams(location.search);
  if (!hydrated) search.delete("index");
  const cancelTo = location.pathname + (search.size ? `?${search.toString()}` : "");
  useEffect(() => {
    if (hydrated) openModal(dialog.current);
  }, [hydrated, step]);
  const body = (inline: boolean) => (
    <>
      <h2 id="newer-draft-title">{V.overwriteTitle}</h2>
      <p id="newer-draft-text">{V.newerDraftMessage(step.author, step.date)}</p>
      <Form method="post" className="confirm-actions" preventScrollReset>
        {step.fields.map(([name, value], i) => (
          <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="draftVersion" value={step.version} />
        <button type="submit" className="btn btn-danger">
          {V.overwriteConfirm}
        </button>
        <Link to={cancelTo} className="btn btn-secondary" autoFocus={inline} data-initial-focus>
          {V.cancel}
        </Link>
      </Form>
    </>
  );
  if (!hydrated) {
    return (
      <section className="confirm-inline" role="alertdialog" aria-labelledby="newer-draft-title" aria-describedby="newer-draft-text">
        {body(true)}
      </section>
    );
  }
  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby="newer-draft-title"
      aria-describedby="newer-draft-text"
      onCancel={(event) => {
        event.preventDefault();
        navigate(cancelTo);
      }}
    >
      {body(false)}
    </dialog>
  );
}
