import { Form, Link, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "~/ui/hydrated";
import { openModal } from "~/ui/modal";
import type { BulkAnswer } from "./bulk.server";
import { SELECTION_LIMIT } from "./params";
import { PORTFOLIO } from "./texts";

const S = PORTFOLIO.selection;

/** The form the results' checkboxes belong to (`form=` attribute: the cards hold forms of their own). */
const SELECTION_FORM = "portfolio-selection";

/** The action's answer to the selection form, if that is what it answered. */
export function bulkOf(actionData: unknown): BulkAnswer | null {
  if (!actionData || typeof actionData !== "object" || !("bulk" in actionData)) return null;
  return actionData as BulkAnswer;
}

/** A result's checkbox, in the selection form. Ticked again when the form comes back (a refusal, the confirmation). */
export function SelectBox({ id, checked }: { id: string; checked: boolean }) {
  return (
    <input
      type="checkbox"
      className="result-select"
      name="ids"
      value={id}
      form={SELECTION_FORM}
      defaultChecked={checked}
      aria-label={S.select(id)}
    />
  );
}

type RemoveTarget = { ids: string[]; tag: string };

/** The confirmation of removing a tag from the selection: the ticked ids and the tag, posted with `confirmed=yes`. */
function RemoveStep({ target, onCancel }: { target: RemoveTarget; onCancel?: () => void }) {
  const location = useLocation();
  return (
    <>
      <h2 id="bulk-remove-title">{S.confirmTitle}</h2>
      <p>{S.confirmMessage(target.tag, target.ids.length)}</p>
      <Form method="post" reloadDocument className="confirm-actions">
        <input type="hidden" name="intent" value="bulkRemoveTag" />
        <input type="hidden" name="confirmed" value="yes" />
        <input type="hidden" name="tag" value={target.tag} />
        {target.ids.map((id) => (
          <input key={id} type="hidden" name="ids" value={id} />
        ))}
        <button type="submit" className="btn btn-danger">
          {S.confirm}
        </button>
        {onCancel ? (
          <button data-initial-focus type="button" className="btn btn-secondary" onClick={onCancel}>
            {S.cancel}
          </button>
        ) : (
          // Focus on the safe choice: Enter right after the step appears must not remove.
          <Link to={location.pathname + location.search} className="btn btn-secondary" autoFocus>
            {S.cancel}
          </Link>
        )}
      </Form>
    </>
  );
}

/**
 * The selection's actions above the results: a tag (and score) to add to or remove from every ticked application,
 * and the ticked applications' CSV. A plain POST form (the whole page reloads: the export answers with a download,
 * which only a document navigation can take), so it works without JavaScript. Removing asks first: with JavaScript in
 * a dialog, without it in an inline step the action answers with; focus starts on Cancel either way.
 */
export function SelectionBar({ canWrite, answer }: { canWrite: boolean; answer: BulkAnswer | null }) {
  const hydrated = useHydrated();
  const dialog = useRef<HTMLDialogElement>(null);
  const [removing, setRemoving] = useState<RemoveTarget | null>(null);
  useEffect(() => {
    if (removing) openModal(dialog.current);
  }, [removing]);
  const error = answer?.error ?? null;
  return (
    <>
      <Form
        method="post"
        reloadDocument
        id={SELECTION_FORM}
        className="selection-bar"
        aria-labelledby="selection-legend"
        onSubmit={(e) => {
          const submitter = (e.nativeEvent as SubmitEvent).submitter;
          if (!hydrated || !(submitter instanceof HTMLButtonElement) || submitter.value !== "bulkRemoveTag") return;
          const data = new FormData(e.currentTarget);
          const ids = data.getAll("ids").filter((v): v is string => typeof v === "string");
          const tag = String(data.get("tag") ?? "").trim();
          // Nothing ticked or no tag: the action says what is missing, as without JavaScript.
          if (ids.length === 0 || ids.length > SELECTION_LIMIT || !tag) return;
          e.preventDefault();
          setRemoving({ ids, tag });
        }}
      >
        <p id="selection-legend" className="selection-legend">
          <strong>{S.legend}</strong> <span className="muted small">{S.hint(SELECTION_LIMIT)}</span>
        </p>
        {canWrite ? (
          <>
            <label className="selection-field">
              {S.tag}
              <input name="tag" defaultValue={answer?.tag ?? ""} autoComplete="off" />
            </label>
            <label className="selection-field selection-score">
              {S.score}
              <input name="score" inputMode="decimal" defaultValue={answer?.score ?? ""} autoComplete="off" />
            </label>
            <button type="submit" name="intent" value="bulkAddTag" className="btn btn-secondary btn-small">
              {S.addTag}
            </button>
            <button type="submit" name="intent" value="bulkRemoveTag" className="btn btn-secondary btn-small">
              {S.removeTag}
            </button>
          </>
        ) : null}
        <button type="submit" name="intent" value="bulkExport" className="btn btn-secondary btn-small">
          {S.export}
        </button>
        {error ? (
          <p className="field-error selection-error" role="alert">
            {error}
          </p>
        ) : null}
      </Form>
      {answer?.confirm === "bulkRemoveTag" && !removing ? (
        <section className="confirm-inline" role="alertdialog" aria-labelledby="bulk-remove-title">
          <RemoveStep target={{ ids: answer.ids, tag: answer.tag.trim() }} />
        </section>
      ) : null}
      {canWrite ? (
        <dialog ref={dialog} className="confirm-dialog" aria-labelledby="bulk-remove-title" onClose={() => setRemoving(null)}>
          {removing ? <RemoveStep target={removing} onCancel={() => dialog.current?.close()} /> : null}
        </dialog>
      ) : null}
    </>
  );
}
