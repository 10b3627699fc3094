/**
 * The confirmation of 'Remove tags' (a destructive job on the saved query): a dialog with JavaScript, an inline step
 * without. Both post the saved values again, which the action compares with the saved query.
 */
import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { joinTags } from "~/ui/tag-input";
import { openModal } from "~/ui/modal";
import type { QueryValues } from "./rules";
import { CATEGORIZATION as C } from "./texts";

/** The saved values, posted again with a confirmation (the action compares them with the saved query). */
function SavedFields({ saved, queryId }: { saved: QueryValues; queryId: string }) {
  return (
    <>
      <input type="hidden" name="queryId" value={queryId} />
      <input type="hidden" name="name" value={saved.name} />
      <input type="hidden" name="tags" value={joinTags(saved.tags)} />
      <input type="hidden" name="text" value={saved.text} />
    </>
  );
}

export function RemoveStep({ saved, queryId, inline, onCancel }: { saved: QueryValues; queryId: string; inline?: boolean; onCancel?: () => void }) {
  const R = C.confirmRemove;
  const body = (
    <>
      <h2 id="cat-remove-title">{R.title}</h2>
      <p>{R.message(saved.tags.join(", "))}</p>
      <Form method="post" className="confirm-actions" preventScrollReset onSubmit={() => window.setTimeout(() => onCancel?.(), 0)}>
        <SavedFields saved={saved} queryId={queryId} />
        <input type="hidden" name="confirmed" value="yes" />
        <button type="submit" name="intent" value="remove" className="btn btn-danger">
          {R.confirm}
        </button>
        {onCancel ? (
          <button data-initial-focus type="button" className="btn btn-secondary" onClick={onCancel}>
            {C.cancel}
          </button>
        ) : (
          <Link to={`/categorization?query=${encodeURIComponent(queryId)}`} className="btn btn-secondary" autoFocus>
            {C.cancel}
          </Link>
        )}
      </Form>
    </>
  );
  if (inline) {
    return (
      <section className="confirm-inline" role="alertdialog" aria-labelledby="cat-remove-title">
        {body}
      </section>
    );
  }
  return body;
}

export function RemoveDialog({ open, saved, queryId, onClose }: { open: boolean; saved: QueryValues; queryId: string; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const navigation = useNavigation();
  useEffect(() => {
    if (open) openModal(ref.current);
  }, [open]);
  useEffect(() => {
    if (navigation.state === "idle" && !open) ref.current?.close();
  }, [navigation.state, open]);
  return (
    <dialog ref={ref} className="confirm-dialog" aria-labelledby="cat-remove-title" onClose={onClose}>
      {open ? <RemoveStep saved={saved} queryId={queryId} onCancel={() => ref.current?.close()} /> : null}
    </dialog>
  );
}

