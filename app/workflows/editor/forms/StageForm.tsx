import { stageMark, stageOf } from "@contract/graph";
import type { TemplateContent } from "@contract/milestone-templates";
import { EDITOR } from "../texts";
import { stepLabel } from "./PathForm";
import { FORM_TEXTS } from "./texts";
import { EditForm, Input, Select, type FormReply } from "./common";

const F = EDITOR.fields;

/** A roadmap stage: Add stage, or a row's rename. Steps join a stage from their own form (one stage each). */
export function StageForm({ stage, reply, id }: { stage?: string; reply: FormReply; id: string }) {
  return (
    <EditForm
      id={id}
      op={stage === undefined ? "addStage" : "renameStage"}
      reply={reply}
      label={stage === undefined ? EDITOR.addStage : EDITOR.renameStage(stage)}
      submit={stage === undefined ? EDITOR.addStage : EDITOR.apply}
      hidden={stage === undefined ? undefined : { name: stage }}
    >
      <Input formId={id} name={stage === undefined ? "name" : "to"} label={stage === undefined ? F.stageName : F.newName} reply={reply} value={stage} required />
    </EditForm>
  );
}

/** A stage as a choice: its name and its mark (spec 3 §4.1: ok with steps, error when empty), in words. */
export const stageChoice = (stage: TemplateContent["roadmap"][number]) => FORM_TEXTS.stagePicker.option(stage.name, stageMark(stage));

/**
 * The roadmap stage picker (spec 3 §2.6): a step and the stage it belongs to (a step is in one stage at most, §5), each
 * stage offered with its mark. Posts one setStepStage edit.
 */
export function StagePickerForm({ doc, reply, id }: { doc: TemplateContent; reply: FormReply; id: string }) {
  const first = doc.steps[0]?.id;
  return (
    <EditForm id={id} op="setStepStage" reply={reply} label={FORM_TEXTS.stagePicker.label} submit={EDITOR.apply}>
      <div className="form-grid">
        <Select formId={id} name="step" label={FORM_TEXTS.stagePicker.step} reply={reply} value={first} options={doc.steps.map((s) => ({ value: s.id, label: stepLabel(doc, s.id) }))} />
        <Select
          formId={id}
          name="stage"
          label={F.stage}
          reply={reply}
          value={first ? (stageOf(doc.roadmap, first) ?? "") : ""}
          options={[{ value: "", label: EDITOR.none }, ...doc.roadmap.map((s) => ({ value: s.name, label: stageChoice(s) }))]}
        />
      </div>
    </EditForm>
  );
}
