/** The categorization page's saved-query picker: choose, create or delete a saved query. */
import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { openModal } from "~/ui/modal";
import type { QueryRow } from "./page.server";
import { CATEGORIZATION as C } from "./texts";

export function SelectQuery({
  queries,
  currentId,
  canWrite,
  asDialog,
  confirmDelete,
  onClose,
}: {
  queries: QueryRow[];
  currentId: string;
  canWrite: boolean;
  asDialog: boolean;
  confirmDelete: string | null;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [confirming, setConfirming] = useState<string | null>(confirmDelete);
  useEffect(() => {
    if (asDialog) openModal(ref.current);
  }, [asDialog]);
  const closeUrl = `/categorization?query=${encodeURIComponent(currentId)}`;
  const back = `${closeUrl}&select=1`;
  const body = (
    <>
      <div className="cat-heading">
        <h2 id="select-query-title">{C.selectQuery}</h2>
        <div className="cat-actions">
          {canWrite ? (
            <Form method="post" action={back} className="inline-form">
              <input type="hidden" name="queryId" value={currentId} />
              <button type="submit" name="intent" value="create" className="btn btn-primary btn-small">
                {C.createNew}
              </button>
            </Form>
          ) : null}
          {asDialog ? (
            <button data-initial-focus type="button" className="btn btn-secondary btn-small" onClick={() => ref.current?.close()}>
              {C.close}
            </button>
          ) : (
            <Link to={closeUrl} className="btn btn-secondary btn-small">
              {C.close}
            </Link>
          )}
        </div>
      </div>
      <div className="table-wrap">
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{C.columns.name}</th>
              <th scope="col">{C.columns.tags}</th>
              <th scope="col">{C.columns.updated}</th>
              {canWrite && queries.length > 1 ? (
                <th scope="col">
                  <span className="visually-hidden">{C.delete}</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {queries.map((q) => (
              <tr key={q.id} aria-current={q.id === currentId ? "true" : undefined}>
                <td>
                  <Link to={`/categorization?query=${encodeURIComponent(q.id)}`} onClick={() => ref.current?.close()}>
                    {q.name}
                  </Link>
                  {q.id === currentId ? <span className="muted small"> {C.current}</span> : null}
                </td>
                <td>{q.tags.join(", ")}</td>
                <td>
                  {q.updated}
                  {q.by ? (
                    <span className="muted small">
                      {" "}
                      {C.by} {q.by}
                    </span>
                  ) : null}
                </td>
                {canWrite && queries.length > 1 ? (
                  <td>
                    {confirming === q.id ? (
                      <div className="confirm-inline" role="alertdialog" aria-labelledby={`delete-${q.id}-title`}>
                        <p id={`delete-${q.id}-title`}>
                          <strong>{C.confirmDelete.title}</strong> {C.confirmDelete.message}
                        </p>
                        <Form method="post" action={back} className="confirm-actions">
                          <input type="hidden" name="queryId" value={currentId} />
                          <input type="hidden" name="id" value={q.id} />
                          <input type="hidden" name="confirmed" value="yes" />
                          <button type="submit" name="intent" value="delete" className="btn btn-danger btn-small">
                            {C.confirmDelete.confirm}
                          </button>
                          {asDialog ? (
                            <button type="button" className="btn btn-secondary btn-small" autoFocus onClick={() => setConfirming(null)}>
                              {C.cancel}
                            </button>
                          ) : (
                            <Link to={back} className="btn btn-secondary btn-small" autoFocus>
                              {C.cancel}
                            </Link>
                          )}
                        </Form>
                      </div>
                    ) : (
                      <Form
                        method="post"
                        action={back}
                        className="inline-form"
                        onSubmit={(e) => {
                          if (!asDialog) return;
                          e.preventDefault();
                          setConfirming(q.id);
                        }}
                      >
                        <input type="hidden" name="queryId" value={currentId} />
                        <input type="hidden" name="id" value={q.id} />
                        <button type="submit" name="intent" value="delete" className="btn btn-danger btn-small" aria-label={C.deleteQuery(q.name)}>
                          {C.delete}
                        </button>
                      </Form>
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
  if (asDialog) {
    return (
      <dialog ref={ref} className="cat-select-dialog" aria-labelledby="select-query-title" onClose={onClose}>
        {body}
      </dialog>
    );
  }
  return (
    <section id="select-query" className="cat-select-inline" role="region" aria-labelledby="select-query-title">
      {body}
    </section>
  );
}
