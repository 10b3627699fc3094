/**
 * The template's graph as tables (DESIGN.md "Heavy widgets"): the editor without JavaScript, and under the canvas
 * until it loads. A row's Edit (a link, no script needed) opens its forms in place; every form posts one graph
 * edit, which the action validates with the model and keeps in the draft.
 */
import { stageMark, stageOf, taskCountLabel, openTaskCount, type StepStatistics } from "@contract/graph";
import type { TemplateContent } from "@contract/milestone-templates";
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { LIST_TEXTS } from "~/ui/list";
import { STEP_TYPE_LABELS } from "./canvas/texts";
import { AlternativesForm } from "./forms/AlternativesForm";
import { ALTERNATIVE_FIELDS } from "./forms/alternatives";
import { DeleteButton, type FormReply } from "./forms/common";
import { FormPropertiesForm, PathForm, plain, stepLabel } from "./forms/PathForm";
import { PropertiesFacts, PropertiesForm } from "./forms/PropertiesForm";
import { StageForm } from "./forms/StageForm";
import { StepForm } from "./forms/StepForm";
import { TransitionsForm } from "./forms/TransitionsForm";
import { VariableForm } from "./forms/VariableForm";
import { EDITOR } from "./texts";

const C = EDITOR.columns;

/** Ids of the forms, from what they edit (kept to letters, digits and dashes: they are anchors too). */
const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);
export const formIds = {
  addStep: "add-step",
  step: (id: string) => `step-${safe(id)}`,
  transitions: (id: string) => `step-transitions-${safe(id)}`,
  addPath: "add-path",
  path: (from: string, to: string) => `path-${safe(from)}--${safe(to)}`,
  pathForm: (from: string, to: string) => `path-form-${safe(from)}--${safe(to)}`,
  alternatives: (from: string, to: string, field: string) => `path-alt-${field}-${safe(from)}--${safe(to)}`,
  addVariable: "add-variable",
  variable: (name: string) => `variable-${safe(name)}`,
  addStage: "add-stage",
  stage: (name: string) => `stage-${safe(name)}`,
  properties: "template-properties",
};

/** A row of a table: its header cell (a mark before it, by class), its other cells as text, and its Edit. */
type Row = {
  /** The row's form id: the Edit link's `?edit=` and, with `row-`, the row's anchor. */
  id: string;
  head: string;
  mark?: string;
  cells: readonly string[];
  /** The Edit link's accessible name. */
  label: string;
  /** Its forms are shown (`?edit=` it, or its last post was refused, with what was typed). */
  open: boolean;
  /** The row's forms and Delete, asked for only when it is open. */
  editor: () => ReactNode;
};

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
const editHref = (id: string) => `?edit=${encodeURIComponent(id)}#row-${id}`;

/**
 * Closed rows as markup, the same as RowView's: at 300 steps the tables hold ~900 rows, which as React elements were
 * most of the page's render on the server and of its hydration in the browser; as text they are neither. Their Edit is
 * a plain link (a GET of `?edit=` the row, no script needed).
 */
function rowsHtml(rows: readonly Row[], canWrite: boolean) {
  return rows
    .map((r) => {
      const mark = r.mark ? `<span class="${escape(r.mark)}" aria-hidden="true"></span> ` : "";
      const cells = r.cells.map((c) => `<td>${escape(c)}</td>`).join("");
      const edit = canWrite
        ? `<td class="row-actions"><a href="${escape(editHref(r.id))}" aria-label="${escape(r.label)}" class="btn btn-ghost btn-small">${escape(EDITOR.edit)}</a></td>`
        : "";
      return `<tr id="row-${escape(r.id)}"><th scope="row">${mark}${escape(r.head)}</th>${cells}${edit}</tr>`;
    })
    .join("");
}

/**
 * The row being edited: its cells with Cancel in place of Edit, then its forms and Delete in a row of their own
 * across the table, so that they start at the table's left edge rather than in its last column (off screen at 390 px).
 */
function RowView({ row, canWrite }: { row: Row; canWrite: boolean }) {
  return (
    <>
      <tr id={`row-${row.id}`}>
        <th scope="row">
          {row.mark ? (
            <>
              <span className={row.mark} aria-hidden="true" />{" "}
            </>
          ) : null}
          {row.head}
        </th>
        {row.cells.map((c, i) => (
          <td key={i}>{c}</td>
        ))}
        {canWrite ? (
          <td className="row-actions">
            <Link to={`.#row-${row.id}`} className="btn btn-ghost btn-small">
              {EDITOR.cancel}
            </Link>
          </td>
        ) : null}
      </tr>
      {canWrite ? (
        <tr className="row-editor-row">
          <td colSpan={row.cells.length + 2}>
            <div className="row-editor">{row.editor()}</div>
          </td>
        </tr>
      ) : null}
    </>
  );
}

/** A table's body: runs of closed rows as markup, each open row (one at most, as a rule) as elements with its forms. */
function TableBody({ rows, canWrite }: { rows: readonly Row[]; canWrite: boolean }) {
  const parts: ReactNode[] = [];
  let closed: Row[] = [];
  const flush = () => {
    if (closed.length) parts.push(<tbody key={`rows-${parts.length}`} dangerouslySetInnerHTML={{ __html: rowsHtml(closed, canWrite) }} />);
    closed = [];
  };
  for (const row of rows) {
    if (!row.open || !canWrite) {
      closed.push(row);
      continue;
    }
    flush();
    parts.push(
      <tbody key={`row-${row.id}`}>
        <RowView row={row} canWrite={canWrite} />
      </tbody>,
    );
  }
  flush();
  return <>{parts}</>;
}

/** A field that is not a plain value holds conditional alternatives: the table says so (the row's forms show them). */
const orConditional = (value: unknown) => (value === undefined ? "" : EDITOR.alternatives.conditional);

export type TableEditorProps = {
  doc: TemplateContent;
  statistics: Readonly<Record<string, StepStatistics>>;
  canWrite: boolean;
  reply: FormReply;
  /** The row whose form is open (`?edit=`), else null. */
  editing: string | null;
};

/**
 * One of the editor's tables (steps, paths, variables, roadmap): its heading, the column headers (Actions for writers),
 * the rows or the empty text, then what follows the table (its Add form).
 */
function TableSection(props: {
  id: string;
  heading: string;
  columns: readonly string[];
  canWrite: boolean;
  empty: string;
  rows: readonly Row[];
  after: ReactNode;
}) {
  const { id, heading, columns, canWrite, empty, rows, after } = props;
  return (
    <section id={id} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{heading}</h2>
      {rows.length ? (
        <div className="table-wrap" role="region" aria-label={LIST_TEXTS.scrollRegion(heading)} tabIndex={0}>
          <table className="data-table">
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
                {canWrite ? <th scope="col">{C.actions}</th> : null}
              </tr>
            </thead>
            <TableBody rows={rows} canWrite={canWrite} />
          </table>
        </div>
      ) : (
        <p className="empty-state">{empty}</p>
      )}
      {after}
    </section>
  );
}

export function TableEditor({ doc, statistics, canWrite, reply, editing }: TableEditorProps) {
  // Most pages open no row: then no row's form ids are worked out (several per path row, ~900 rows at 300 steps).
  const anyOpen = editing !== null || reply?.form !== undefined;
  const isOpen = (...ids: string[]) => ids.some((id) => editing === id || reply?.form === id || reply?.form === `${id}-delete`);
  return (
    <div className="table-editor" aria-label={EDITOR.tables} role="region">
      {canWrite ? <p className="muted">{EDITOR.draftNote}</p> : null}

      <TableSection
        id="steps"
        heading={EDITOR.steps}
        columns={[C.title, C.type, C.duration, C.criticalDate, C.notification, C.stage, C.tasks]}
        canWrite={canWrite}
        empty={EDITOR.noSteps}
        rows={doc.steps.map((s): Row => {
          const stats = statistics[s.id];
          const id = formIds.step(s.id);
          return {
            id,
            head: s.title || s.id,
            cells: [
              STEP_TYPE_LABELS[s.type],
              String(s.durationHours ?? ""),
              s.isCriticalDate ? EDITOR.yesMark : EDITOR.noMark,
              EDITOR.notificationLabels[s.options.notifications.email] ?? "",
              stageOf(doc.roadmap, s.id) ?? "",
              stats ? taskCountLabel(openTaskCount(stats)) : "",
            ],
            label: EDITOR.editStep(s.title || s.id),
            open: anyOpen && isOpen(id, formIds.transitions(s.id)),
            editor: () => (
              <>
                <StepForm doc={doc} step={s} reply={reply} id={id} />
                <TransitionsForm step={s} reply={reply} id={formIds.transitions(s.id)} />
                <DeleteButton id={`${id}-delete`} op="deleteStep" label={EDITOR.deleteStep(s.title || s.id)} hidden={{ id: s.id }} />
                {reply?.form === `${id}-delete` ? (
                  <p className="form-error" role="alert">
                    {reply.message}
                  </p>
                ) : null}
              </>
            ),
          };
        })}
        after={canWrite ? <StepForm doc={doc} reply={reply} id={formIds.addStep} /> : null}
      />

      <TableSection
        id="paths"
        heading={EDITOR.paths}
        columns={[C.from, C.port, C.to, C.taskTitle, C.assignees, C.due, C.form]}
        canWrite={canWrite}
        empty={EDITOR.noPaths}
        rows={doc.paths.map((p): Row => {
          const from = stepLabel(doc, p.from.step);
          const to = stepLabel(doc, p.to.step);
          const id = formIds.path(p.from.step, p.to.step);
          const due = plain(p.to.action.dueAt);
          const form = p.from.action.form;
          const pathForm = () => formIds.pathForm(p.from.step, p.to.step);
          return {
            id,
            head: from,
            cells: [
              p.from.port ?? EDITOR.portNone,
              to,
              plain(p.to.action.title) ?? orConditional(p.to.action.title),
              plain(p.to.action.assignees)?.join("; ") ?? orConditional(p.to.action.assignees),
              due ? `${due.amount} ${due.measures}` : orConditional(p.to.action.dueAt),
              form ? `${form.name || EDITOR.columns.form} (${form.properties.map((x) => x.name).join(", ")})` : "",
            ],
            label: EDITOR.editPath(from, to),
            open:
              anyOpen &&
              isOpen(
                id,
                pathForm(),
                ...ALTERNATIVE_FIELDS.map((f) => formIds.alternatives(p.from.step, p.to.step, f)),
                ...(form?.properties ?? []).map((_, i) => `${pathForm()}-property-${i}`),
              ),
            editor: () => (
              <>
                <PathForm doc={doc} path={p} reply={reply} id={id} />
                {ALTERNATIVE_FIELDS.map((f) => (
                  <AlternativesForm key={f} doc={doc} path={p} field={f} reply={reply} id={formIds.alternatives(p.from.step, p.to.step, f)} />
                ))}
                <FormPropertiesForm path={p} reply={reply} id={pathForm()} />
                <DeleteButton id={`${id}-delete`} op="deletePath" label={EDITOR.deletePath(from, to)} hidden={{ from: p.from.step, to: p.to.step }} />
              </>
            ),
          };
        })}
        after={canWrite && doc.steps.length > 1 ? <PathForm doc={doc} reply={reply} id={formIds.addPath} /> : null}
      />

      <TableSection
        id="variables"
        heading={EDITOR.variables}
        columns={[C.name, C.type, C.description, C.required]}
        canWrite={canWrite}
        empty={EDITOR.noVariables}
        rows={doc.variables.map((v): Row => {
          const id = formIds.variable(v.name);
          return {
            id,
            head: v.name,
            cells: [v.type, v.description, v.required ? EDITOR.yesMark : EDITOR.noMark],
            label: EDITOR.editVariable(v.name),
            open: anyOpen && isOpen(id),
            editor: () => (
              <>
                <VariableForm variable={v} reply={reply} id={id} />
                <DeleteButton id={`${id}-delete`} op="deleteVariable" label={EDITOR.deleteVariable(v.name)} hidden={{ name: v.name }} />
              </>
            ),
          };
        })}
        after={canWrite ? <VariableForm reply={reply} id={formIds.addVariable} /> : null}
      />

      <TableSection
        id="roadmap"
        heading={EDITOR.roadmap}
        columns={[C.name, C.steps]}
        canWrite={canWrite}
        empty={EDITOR.noStages}
        rows={doc.roadmap.map((stage): Row => {
          const id = formIds.stage(stage.name);
          return {
            id,
            head: stage.name,
            mark: `stage-mark stage-${stageMark(stage)}`,
            cells: [stage.steps.map((s) => stepLabel(doc, s)).join(", ")],
            label: EDITOR.renameStage(stage.name),
            open: anyOpen && isOpen(id),
            editor: () => (
              <>
                <StageForm stage={stage.name} reply={reply} id={id} />
                <DeleteButton id={`${id}-delete`} op="deleteStage" label={EDITOR.deleteStage(stage.name)} hidden={{ name: stage.name }} />
              </>
            ),
          };
        })}
        after={canWrite ? <StageForm reply={reply} id={formIds.addStage} /> : null}
      />

      <section id="properties" aria-labelledby="properties-heading">
        <h2 id="properties-heading">{EDITOR.properties}</h2>
        {canWrite ? (
          <PropertiesForm doc={doc} reply={reply} id={formIds.properties} />
        ) : (
          <PropertiesFacts doc={doc} />
        )}
      </section>
    </div>
  );
}
