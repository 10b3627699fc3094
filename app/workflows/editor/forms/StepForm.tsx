import { STEP_TYPES, type StepType } from "@contract/workflow-constants";
import { stageOf } from "@contract/graph";
import type { Step, TemplateContent } from "@contract/milestone-templates";
import { EDITOR } from "../texts";
import { STEP_TYPE_LABELS } from "../canvas/texts";
import { useState } from "react";
import { RichTextField } from "../../wizard/rich-text";
import { Checkbox, EditForm, Input, Select, valueOf, type FormReply } from "./common";

const F = EDITOR.fields;
const NOTIFICATIONS = (["", "always", "never"] as const).map((value) => ({ value, label: EDITOR.notificationLabels[value]! }));
const EVENT_SOURCE_STEPS: readonly StepType[] = ["workflow-form", "workflow"];

/**
 * A step's form: Add step (with its type) or a row's Edit (title, duration, critical date, notification, roadmap
 * stage, instructions; an event source's code). Posts one edit (the stage a second, in the same post).
 */
export function StepForm({ doc, step, reply, id }: { doc: TemplateContent; step?: Step; reply: FormReply; id: string }) {
  const stages = [{ value: "", label: EDITOR.none }, ...doc.roadmap.map((s) => ({ value: s.name, label: s.name }))];
  return (
    <EditForm
      id={id}
      op={step ? "updateStep" : "addStep"}
      reply={reply}
      label={step ? EDITOR.editStep(step.title || step.id) : EDITOR.addStep}
      submit={step ? EDITOR.apply : EDITOR.addStep}
      hidden={step ? { id: step.id } : undefined}
    >
      <div className="form-grid">
        {step ? null : <Select formId={id} name="type" label={F.type} reply={reply} value="task" options={STEP_TYPES.map((t) => ({ value: t, label: STEP_TYPE_LABELS[t] }))} />}
        <Input formId={id} name="title" label={F.title} reply={reply} value={step?.title} />
        <Input formId={id} name="durationHours" label={F.duration} reply={reply} value={step?.durationHours} inputMode="decimal" />
        <Select formId={id} name="notification" label={F.notification} reply={reply} value={step?.options.notifications.email ?? ""} options={NOTIFICATIONS} />
        <Select formId={id} name="stage" label={F.stage} reply={reply} value={step ? stageOf(doc.roadmap, step.id) : ""} options={stages} />
        <Checkbox formId={id} name="isCriticalDate" label={F.criticalDate} reply={reply} checked={step?.isCriticalDate ?? false} />
        {!step || EVENT_SOURCE_STEPS.includes(step.type) ? <Input formId={id} name="code" label={F.code} reply={reply} value={step?.code} /> : null}
      </div>
      <Instructions key={valueOf(reply, id, "instructions", step?.options.instructions)} id={id} initial={valueOf(reply, id, "instructions", step?.options.instructions)} />
    </EditForm>
  );
}

/** The step's instructions (spec 3 §2.6: rich text; a textarea of HTML without JavaScript), what was typed kept on a refusal. */
function Instructions({ id, initial }: { id: string; initial: string }) {
  const [value, setValue] = useState(initial);
  return <RichTextField id={`${id}-instructions`} name="instructions" label={F.instructions} value={value} onChange={setValue} />;
}
