/**
 * A chain template's import (spec 3 §2.9 "There is an import modal", §8): the paste field, the refusal ('Invalid import
 * string', or each 'Import failed') above it with the text kept, and Import. Without JavaScript the toolbar's Import is
 * a link to the import page, which holds this form; with it, a button opening a modal dialog on the chain page with the
 * same form, posted by a fetcher to the same action (`/chains/{id}/import`): a refusal comes back into the dialog,
 * success redirects to the chain page with 'Template imported succesfully'. Escape and Cancel close the dialog and
 * focus goes back to the button.
 */
import { Form, Link, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { useHydrated } from "~/ui/hydrated";
import { openModal } from "~/ui/modal";
import { CHAIN_VERSIONS as V } from "../versions/texts";
import { IMPORT_MAX_CHARS } from "./import-limit";
import type { ImportReply } from "./transfer.server";

/** The form's fields and refusal; `actions` are its buttons (Import, and Back or Cancel). */
function ImportFields({ reply, actions }: { reply: ImportReply | undefined; actions: ReactNode }) {
  return (
    <>
      {reply ? (
        <div className="form-error" role="alert" id="chain-import-errors">
          {reply.messages.length ? (
            <ul>
              {reply.messages.map((m, i) => (
                <li key={i}>
                  <strong>{reply.title}</strong>: {m}
                </li>
              ))}
            </ul>
          ) : (
            <p>{reply.title}</p>
          )}
        </div>
      ) : null}
      <div className="field">
        <label htmlFor="chain-import-json">{V.importLabel}</label>
        <p className="field-hint" id="chain-import-hint">
          {V.importHint}
        </p>
        <textarea
          // A new refusal shows the text it was given (the same, as the action keeps it).
          key={reply ? `${reply.title}:${reply.messages.join("\n")}` : "empty"}
          id="chain-import-json"
          name="template"
          rows={16}
          required
          maxLength={IMPORT_MAX_CHARS}
          spellCheck={false}
          className="code"
          defaultValue={reply?.typed ?? ""}
          aria-describedby={reply ? "chain-import-hint chain-import-errors" : "chain-import-hint"}
          aria-invalid={reply ? true : undefined}
        />
      </div>
      <div className="chain-toolbar">
        <button type="submit" className="btn btn-primary">
          {V.importSubmit}
        </button>
        {actions}
      </div>
    </>
  );
}

/** The import page's form (without JavaScript, or a direct visit). */
export function ImportPageForm({ reply, back }: { reply: ImportReply | undefined; back: string }) {
  return (
    <Form method="post" className="stack">
      <ImportFields
        reply={reply}
        actions={
          <Link to={back} className="btn btn-secondary">
            {V.back}
          </Link>
        }
      />
    </Form>
  );
}

/** The toolbar's Import: a link to the import page until the page runs its scripts, then the button and its dialog. */
export function ImportButton({ action }: { action: string }) {
  const hydrated = useHydrated();
  const dialog = useRef<HTMLDialogElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const fetcher = useFetcher<ImportReply>();
  const location = useLocation();
  // Success redirects to the chain page: the navigation it makes closes the dialog.
  useEffect(() => {
    dialog.current?.close();
  }, [location.key]);
  if (!hydrated) {
    return (
      <Link to={action} className="btn btn-secondary">
        {V.import}
      </Link>
    );
  }
  const reply = fetcher.data && "title" in fetcher.data ? fetcher.data : undefined;
  const busy = fetcher.state !== "idle";
  return (
    <>
      <button ref={button} type="button" className="btn btn-secondary" aria-haspopup="dialog" onClick={() => openModal(dialog.current)}>
        {V.import}
      </button>
      <dialog ref={dialog} className="url-dialog" aria-labelledby="chain-import-title" onClose={() => button.current?.focus()}>
        <h2 id="chain-import-title">{V.importTitle}</h2>
        <fetcher.Form method="post" action={action} className="stack" aria-busy={busy || undefined}>
          <ImportFields
            reply={reply}
            actions={
              <button type="button" className="btn btn-secondary" onClick={() => dialog.current?.close()}>
                {V.cancel}
              </button>
            }
          />
        </fetcher.Form>
      </dialog>
    </>
  );
}
