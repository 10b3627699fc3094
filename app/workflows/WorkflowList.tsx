import { getFormProps } from "@conform-to/react";
import { Form, Link, useSearchParams } from "@remix-run/react";
import { ConfirmAction } from "~/ui/confirm";
import { isConfirming } from "~/ui/editor";
import { CheckboxGroup, FormError, SaveButton, TextField } from "~/ui/fields";
import { Icon } from "~/ui/icons";
import { Stamp, tagsCell, type Column } from "~/ui/list";
import { useSchemaForm } from "~/ui/schema-form";
import { UrlDialog } from "~/ui/url-dialog";
import type { CloneDialog as CloneDialogData } from "./list.server";
import { DIALOG_PARAMS, listAddress } from "./addresses";
import { CloneSchema } from "./schema";
import { WORKFLOWS } from "./texts";

const W = WORKFLOWS;
const A = W.actions;

export type WorkflowRow = {
  id: string;
  name: string;
  clientCodes: string[];
  isDefault: boolean;
  createdAt: string;
  createdBy: string | null;
};

/** The list's address with one parameter set (a dialog opened) and the others kept. */
function withParam(params: URLSearchParams, name: string, value: string): string {
  const next = new URLSearchParams(params);
  next.set(name, value);
  return `?${next.toString()}`;
}

/** Whether the action answered with the confirmation step of `intent` for this row. */
const confirmingRow = (actionData: unknown, intent: string, id: string) =>
  isConfirming(actionData, intent) && (actionData as { id?: unknown }).id === id;

/** A row's actions (spec 3 §2.2): Make default (not on the default), Export, Edit, Clone, Delete; writes need `workflows`. */
function RowActions({ row, canWrite, actionData }: { row: WorkflowRow; canWrite: boolean; actionData: unknown }) {
  const [params] = useSearchParams();
  return (
    <div className="row-actions workflow-actions">
      {canWrite && !row.isDefault ? (
        <ConfirmAction
          id={`make-default-${row.id}`}
          intent="makeDefault"
          label={A.makeDefault}
          title={W.makeDefault.title}
          message={W.makeDefault.message(row.name)}
          confirmLabel={W.makeDefault.confirm}
          confirming={confirmingRow(actionData, "makeDefault", row.id)}
          danger={false}
          fields={{ id: row.id }}
          ariaLabel={W.actionOn(A.makeDefault, row.name)}
          buttonClassName="btn btn-secondary btn-small"
        />
      ) : null}
      {/* A download: a document request (no client-side routing), which either saves the file or comes back here
          with the 'Export failed' toast. */}
      <a href={`/workflows/${row.id}/export`} className="btn btn-secondary btn-small" aria-label={W.actionOn(A.export, row.name)}>
        {A.export}
      </a>
      <Link to={`/workflows/${row.id}/edit`} className="btn btn-secondary btn-small" aria-label={W.actionOn(A.edit, row.name)}>
        {A.edit}
      </Link>
      {canWrite ? (
        <>
          <Link
            id={`clone-${row.id}`}
            to={withParam(params, DIALOG_PARAMS.clone, row.id)}
            className="btn btn-secondary btn-small"
            aria-label={W.actionOn(A.clone, row.name)}
            preventScrollReset
          >
            {A.clone}
          </Link>
          <ConfirmAction
            id={`delete-${row.id}`}
            intent="delete"
            label={A.delete}
            title={W.confirmDelete.title}
            message={W.confirmDelete.message(row.name)}
            confirmLabel={W.confirmDelete.confirm}
            confirming={confirmingRow(actionData, "delete", row.id)}
            fields={{ id: row.id }}
            disabled={row.isDefault}
            disabledReason={row.isDefault ? W.defaultNotDeletable : undefined}
            ariaLabel={W.actionOn(A.delete, row.name)}
            buttonClassName="btn btn-danger btn-small"
          />
        </>
      ) : null}
    </div>
  );
}

/** The workflows table (spec 3 §2.2): the title links to the workflow's templates; the default is marked. */
export const workflowColumns = (canWrite: boolean, actionData: unknown): Column<WorkflowRow>[] => [
  {
    header: W.columns.name,
    cell: (w) => (
      <span className="workflow-title">
        <Link to={`/workflows/${w.id}`}>{w.name}</Link>
        {w.isDefault ? <span className="badge">{W.defaultBadge}</span> : null}
      </span>
    ),
  },
  { header: W.columns.clientCodes, cell: (w) => tagsCell(w.clientCodes) },
  { header: W.columns.createdAt, cell: (w) => <Stamp at={w.createdAt} by={w.createdBy} /> },
  { header: W.columns.actions, className: "actions", cell: (w) => <RowActions row={w} canWrite={canWrite} actionData={actionData} /> },
];

/** The list's Import workflow link: it opens the import dialog (`?import=1`). */
export function ImportLink() {
  const [params] = useSearchParams();
  return (
    <Link id="import-workflow" to={withParam(params, DIALOG_PARAMS.import, "1")} className="btn btn-secondary" preventScrollReset>
      <Icon name="download" /> {A.importWorkflow}
    </Link>
  );
}

/**
 * The clone dialog (spec 3 §2.2): the title (the original's plus ' (clone)') and the references the clone takes
 * over, each with its count of matters; at least one. Errors come back with what was chosen.
 */
export function CloneDialog({ clone, actionData }: { clone: CloneDialogData; actionData: unknown }) {
  const [params] = useSearchParams();
  const C = W.clone;
  const [form, fields] = useSchemaForm(CloneSchema, {
    id: `clone-${clone.id}-form`,
    actionData,
    defaultValue: { id: clone.id, title: C.defaultTitle(clone.title), references: [] },
  });
  return (
    <UrlDialog id="clone-dialog" title={C.title(clone.title)} closeTo={listAddress(params)} openerId={`clone-${clone.id}`}>
      {(cancel) => (
        <Form method="post" {...getFormProps(form)} className="dialog-form" preventScrollReset>
          <input type="hidden" name="id" value={clone.id} />
          <TextField meta={fields.title} label={C.titleLabel} autoComplete="off" data-initial-focus />
          {clone.references.length === 0 ? (
            <p className="field-hint">{C.noReferences}</p>
          ) : (
            <>
              <CheckboxGroup
                meta={fields.references}
                legend={C.references}
                options={clone.references.map((r) => ({ value: r.reference, label: C.reference(r.reference, r.count) }))}
                empty={C.noReferences}
              />
              <p className="field-hint">{C.referencesHint}</p>
            </>
          )}
          <FormError id={form.errorId} errors={form.errors} />
          <div className="form-actions">
            {cancel}
            {clone.references.length ? <SaveButton form={form} label={C.submit} busyLabel={C.busy} intent="clone" /> : null}
          </div>
        </Form>
      )}
    </UrlDialog>
  );
}

