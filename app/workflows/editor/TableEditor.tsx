/**
 * The template's graph as tables (DESIGN.md "Heavy widgets"): the editor without JavaScript, and under the canvas
 * until it loads. Every row opens its editing form in a <details> (no script needed); every form posts one graph
 * edit, which the action validates with the model and keeps in the draft.
 */
import { stageMark, stageOf, taskCountLabel, openTaskCount, type StepStatistics } from "@contract/graph";
import type { TemplateContent } from "@contract/milestone-templates";
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { STEP_TYPE_LABELS } from "./canvas/texts";
import { AlternativesForm } from "./forms/AlternativesForm";
import { ALTERNATIVE_FIELDS } from "./forms/alternatives";
import { DeleteButton, type FormReply } from "./forms/common";
import { FormPropertiesForm, PathForm, plain, stepLabel } from "./forms/PathForm";
import { PropertiesForm } from "./forms/PropertiesForm";
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

/**
 * A row's Edit: a link (`?edit=` the row) that opens its form and its Delete in place, a GET that works without
 * JavaScript. Only the row being edited renders them (forms in every row of a 300-step template were megabytes of
 * HTML); the row stays open when its last post was refused, with what was typed.
 */
function RowEditor({ id, open, label, children }: { id: string; open: boolean; label: string; children: ReactNode }) {
  if (!open) {
    return (
      <Link to={`?edit=${encodeURIComponent(id)}#row-${id}`} aria-label={label} preventScrollReset className="btn btn-ghost btn-small">
        {EDITOR.edit}
      </Link>
    );
  }
  return (
    <div className="row-editor">
      {children}
      <Link to={`.#row-${id}`} className="btn btn-ghost btn-small">
        {EDITOR.cancel}
      </Link>
    </div>
  );
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
  rows: number;
  after: ReactNode;
  children: ReactNode;
}) {
  const { id, heading, columns, canWrite, empty, rows, after, children } = props;
  return (
    <section id={id} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{heading}</h2>
      {rows ? (
        <div className="table-wrap">
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
            <tbody>{children}</tbody>
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
        rows={doc.steps.length}
        after={canWrite ? <StepForm doc={doc} reply={reply} id={formIds.addStep} /> : null}
      >
        {doc.steps.map((s) => {
          const stats = statistics[s.id];
          const id = formIds.step(s.id);
          return (
            <tr key={s.id} id={`row-${id}`}>
              <th scope="row">{s.title || s.id}</th>
              <td>{STEP_TYPE_LABELS[s.type]}</td>
              <td>{s.durationHours ?? ""}</td>
              <td>{s.isCriticalDate ? EDITOR.yesMark : EDITOR.noMark}</td>
              <td>{EDITOR.notificationLabels[s.options.notifications.email]}</td>
              <td>{stageOf(doc.roadmap, s.id) ?? ""}</td>
              <td>{stats ? taskCountLabel(openTaskCount(stats)) : ""}</td>
              {canWrite ? (
                <td className="row-actions">
                  <RowEditor id={id} open={isOpen(id, formIds.transitions(s.id))} label={EDITOR.editStep(s.title || s.id)}>
                    <StepForm doc={doc} step={s} reply={reply} id={id} />
                    <TransitionsForm step={s} reply={reply} id={formIds.transitions(s.id)} />
                    <DeleteButton id={`${id}-delete`} op="deleteStep" label={EDITOR.deleteStep(s.title || s.id)} hidden={{ id: s.id }} />
                  </RowEditor>
                  {reply?.form === `${id}-delete` ? (
                    <p className="form-error" role="alert">
                      {reply.message}
                    </p>
                  ) : null}
                </td>
              ) : null}
            </tr>
          );
        })}
      </TableSection>

      <TableSection
        id="paths"
        heading={EDITOR.paths}
        columns={[C.from, C.port, C.to, C.taskTitle, C.assignees, C.due, C.form]}
        canWrite={canWrite}
        empty={EDITOR.noPaths}
        rows={doc.paths.length}
        after={canWrite && doc.steps.length > 1 ? <PathForm doc={doc} reply={reply} id={formIds.addPath} /> : null}
      >
        {doc.paths.map((p) => {
          const from = stepLabel(doc, p.from.step);
          const to = stepLabel(doc, p.to.step);
          const id = formIds.path(p.from.step, p.to.step);
          const due = plain(p.to.action.dueAt);
          const form = p.from.action.form;
          return (
            <tr key={`${p.from.step}->${p.to.step}`} id={`row-${id}`}>
              <th scope="row">{from}</th>
              <td>{p.from.port ?? EDITOR.portNone}</td>
              <td>{to}</td>
              <td>{plain(p.to.action.title) ?? orConditional(p.to.action.title)}</td>
              <td>{plain(p.to.action.assignees)?.join("; ") ?? orConditional(p.to.action.assignees)}</td>
              <td>{due ? `${due.amount} ${due.measures}` : orConditional(p.to.action.dueAt)}</td>
              <td>{form ? `${form.name || EDITOR.columns.form} (${form.properties.map((x) => x.name).join(", ")})` : ""}</td>
              {canWrite ? (
                <td className="row-actions">
                  <RowEditor
                    id={id}
                    open={isOpen(
                      id,
                      formIds.pathForm(p.from.step, p.to.step),
                      ...ALTERNATIVE_FIELDS.map((f) => formIds.alternatives(p.from.step, p.to.step, f)),
                      ...(form?.properties ?? []).map((_, i) => `${formIds.pathForm(p.from.step, p.to.step)}-property-${i}`),
                    )}
                    label={EDITOR.editPath(from, to)}
                  >
                    <PathForm doc={doc} path={p} reply={reply} id={id} />
                    {ALTERNATIVE_FIELDS.map((f) => (
                      <AlternativesForm key={f} doc={doc} path={p} field={f} reply={reply} id={formIds.alternatives(p.from.step, p.to.step, f)} />
                    ))}
                    <FormPropertiesForm path={p} reply={reply} id={formIds.pathForm(p.from.step, p.to.step)} />
                    <DeleteButton id={`${id}-delete`} op="deletePath" label={EDITOR.deletePath(from, to)} hidden={{ from: p.from.step, to: p.to.step }} />
                  </RowEditor>
                </td>
              ) : null}
            </tr>
          );
        })}
      </TableSection>

      <TableSection
        id="variables"
        heading={EDITOR.variables}
        columns={[C.name, C.type, C.description, C.required]}
        canWrite={canWrite}
        empty={EDITOR.noVariables}
        rows={doc.variables.length}
        after={canWrite ? <VariableForm reply={reply} id={formIds.addVariable} /> : null}
      >
        {doc.variables.map((v) => {
          const id = formIds.variable(v.name);
          return (
            <tr key={v.name} id={`row-${id}`}>
              <th scope="row">{v.name}</th>
              <td>{v.type}</td>
              <td>{v.description}</td>
              <td>{v.required ? EDITOR.yesMark : EDITOR.noMark}</td>
              {canWrite ? (
                <td className="row-actions">
                  <RowEditor id={id} open={isOpen(id)} label={EDITOR.editVariable(v.name)}>
                    <VariableForm variable={v} reply={reply} id={id} />
                    <DeleteButton id={`${id}-delete`} op="deleteVariable" label={EDITOR.deleteVariable(v.name)} hidden={{ name: v.name }} />
                  </RowEditor>
                </td>
              ) : null}
            </tr>
          );
        })}
      </TableSection>

      <TableSection
        id="roadmap"
        heading={EDITOR.roadmap}
        columns={[C.name, C.steps]}
        canWrite={canWrite}
        empty={EDITOR.noStages}
        rows={doc.roadmap.length}
        after={canWrite ? <StageForm reply={reply} id={formIds.addStage} /> : null}
      >
        {doc.roadmap.map((stage) => {
          const id = formIds.stage(stage.name);
          return (
            <tr key={stage.name} id={`row-${id}`}>
              <th scope="row">
                <span className={`stage-mark stage-${stageMark(stage)}`} aria-hidden="true" /> {stage.name}
              </th>
              <td>{stage.steps.map((s) => stepLabel(doc, s)).join(", ")}</td>
              {canWrite ? (
                <td className="row-actions">
                  <RowEditor id={id} open={isOpen(id)} label={EDITOR.renameStage(stage.name)}>
                    <StageForm stage={stage.name} reply={reply} id={id} />
                    <DeleteButton id={`${id}-delete`} op="deleteStage" label={EDITOR.deleteStage(stage.name)} hidden={{ name: stage.name }} />
                  </RowEditor>
                </td>
              ) : null}
            </tr>
          );
        })}
      </TableSection>

      <section id="properties" aria-labelledby="properties-heading">
        <h2 id="properties-heading">{EDITOR.properties}</h2>
        {canWrite ? (
          <PropertiesForm doc={doc} reply={reply} id={formIds.properties} />
        ) : (
          <dl className="template-facts">
            <dt>{EDITOR.fields.templateTitle}</dt>
            <dd>{doc.title}</dd>
            <dt>{EDITOR.fields.uniqueness}</dt>
            <dd>{doc.uniqueness}</dd>
            <dt>{EDITOR.fields.tags}</dt>
            <dd>{doc.tags.join("; ")}</dd>
          </dl>
        )}
      </section>
    </div>
  );
}
