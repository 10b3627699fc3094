/**
 * What the header's Variables, Define/Edit roadmap and Properties open on the canvas (spec 3 §2.6 modals): the table
 * editor's own forms (VariableForm, StageForm and the stage picker, PropertiesForm), each submit read by the canvas
 * as the edits the server would make of it. Without JavaScript the same links lead to the anchored tables.
 */
import { stageMark } from "@contract/graph";
import type { TemplateContent } from "@contract/milestone-templates";
import type { ReactNode } from "react";
import { EDITOR } from "../texts";
import { DeleteButton, type FormReply } from "../forms/common";
import { stepLabel } from "../forms/PathForm";
import { PropertiesFacts, PropertiesForm } from "../forms/PropertiesForm";
import { StageForm, StagePickerForm } from "../forms/StageForm";
import { FORM_TEXTS } from "../forms/texts";
import { VariableForm } from "../forms/VariableForm";

export const PANELS = ["variables", "roadmap", "properties"] as const;
export type Panel = (typeof PANELS)[number];

/** The header link (its `#anchor`) that opens each panel. */
export const panelOfHash = (href: string | null): Panel | null => {
  const name = href?.startsWith("#") ? href.slice(1) : "";
  return (PANELS as readonly string[]).includes(name) ? (name as Panel) : null;
};

/** A panel's title: what it edits, the tables' headings (the roadmap's link says Define or Edit; the panel keeps one name). */
export const panelTitle = (panel: Panel) => (panel === "variables" ? EDITOR.variables : panel === "roadmap" ? EDITOR.roadmap : EDITOR.properties);

/** Form ids inside the modal (the tables are gone while the canvas runs; these never meet theirs). */
export const panelIds = {
  variable: (i: number) => `canvas-variable-${i}`,
  addVariable: "canvas-add-variable",
  stage: (i: number) => `canvas-stage-${i}`,
  addStage: "canvas-add-stage",
  stagePicker: "canvas-stage-picker",
  properties: "canvas-properties",
};

type PanelProps = { doc: TemplateContent; reply: FormReply; canWrite: boolean };

/** A row's forms behind its name (a <details>, open while its last post was refused). */
function Row({ ids, reply, summary, children }: { ids: readonly string[]; reply: FormReply; summary: ReactNode; children: ReactNode }) {
  return (
    <li>
      <details open={ids.some((id) => reply?.form === id || reply?.form === `${id}-delete`)}>
        <summary>{summary}</summary>
        {children}
      </details>
    </li>
  );
}

function VariablesPanel({ doc, reply, canWrite }: PanelProps) {
  return (
    <>
      {doc.variables.length ? (
        <ul className="plain-list canvas-panel-list">
          {doc.variables.map((v, i) => {
            const summary = (
              <>
                {v.name} <span className="muted">({[v.type, v.required ? EDITOR.columns.required.toLowerCase() : ""].filter(Boolean).join(", ")})</span>
              </>
            );
            return canWrite ? (
              <Row key={v.name} ids={[panelIds.variable(i)]} reply={reply} summary={summary}>
                <VariableForm variable={v} reply={reply} id={panelIds.variable(i)} />
                <DeleteButton id={`${panelIds.variable(i)}-delete`} op="deleteVariable" label={EDITOR.deleteVariable(v.name)} hidden={{ name: v.name }} />
              </Row>
            ) : (
              <li key={v.name}>
                {summary} {v.description}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="empty-state">{EDITOR.noVariables}</p>
      )}
      {canWrite ? <VariableForm reply={reply} id={panelIds.addVariable} /> : null}
    </>
  );
}

function RoadmapPanel({ doc, reply, canWrite }: PanelProps) {
  return (
    <>
      {doc.roadmap.length ? (
        <ul className="plain-list canvas-panel-list">
          {doc.roadmap.map((stage, i) => {
            const mark = stageMark(stage);
            const summary = (
              <>
                <span className={`stage-mark stage-${mark}`} aria-hidden="true" /> {stage.name}{" "}
                <span className="muted">
                  ({stage.steps.length ? stage.steps.map((s) => stepLabel(doc, s)).join(", ") : FORM_TEXTS.stagePicker.mark[mark]})
                </span>
              </>
            );
            return canWrite ? (
              <Row key={stage.name} ids={[panelIds.stage(i)]} reply={reply} summary={summary}>
                <StageForm stage={stage.name} reply={reply} id={panelIds.stage(i)} />
                <DeleteButton id={`${panelIds.stage(i)}-delete`} op="deleteStage" label={EDITOR.deleteStage(stage.name)} hidden={{ name: stage.name }} />
              </Row>
            ) : (
              <li key={stage.name}>{summary}</li>
            );
          })}
        </ul>
      ) : (
        <p className="empty-state">{EDITOR.noStages}</p>
      )}
      {canWrite && doc.roadmap.length && doc.steps.length ? <StagePickerForm doc={doc} reply={reply} id={panelIds.stagePicker} /> : null}
      {canWrite ? <StageForm reply={reply} id={panelIds.addStage} /> : null}
    </>
  );
}

function PropertiesPanel({ doc, reply, canWrite }: PanelProps) {
  if (canWrite) return <PropertiesForm doc={doc} reply={reply} id={panelIds.properties} />;
  return <PropertiesFacts doc={doc} />;
}

export function PanelContent({ panel, ...props }: PanelProps & { panel: Panel }) {
  return panel === "variables" ? <VariablesPanel {...props} /> : panel === "roadmap" ? <RoadmapPanel {...props} /> : <PropertiesPanel {...props} />;
}
