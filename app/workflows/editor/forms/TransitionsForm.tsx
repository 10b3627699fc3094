import type { Step } from "@contract/milestone-templates";
import { EDITOR } from "../texts";
import { Checkbox, EditForm, Input, type FormReply } from "./common";

const T = EDITOR.transitions;

/**
 * A step's transitions (spec 3 §3 Transition: current, next, enabled, label, description): one row each, and an empty
 * row to add one (a row left without current, next and label is not kept); Remove drops a row on Apply. One
 * updateStep edit carries the whole list, so the form works without JavaScript.
 */
export function TransitionsForm({ step, reply, id }: { step: Step; reply: FormReply; id: string }) {
  const typed = reply?.form === id && reply.values ? Number(reply.values.count) : NaN;
  const count = Number.isInteger(typed) && typed > 0 ? typed : step.transitions.length + 1;
  const rows = Array.from({ length: count }, (_, i) => step.transitions[i]);
  return (
    <EditForm id={id} op="setTransitions" reply={reply} label={T.formLabel(step.title || step.id)} submit={EDITOR.apply} hidden={{ id: step.id, count: String(count) }}>
      <ol className="plain-list transitions">
        {rows.map((t, i) => (
          <li key={i}>
            <fieldset className="form-grid">
              <legend>{t ? T.row(i + 1) : T.newRow}</legend>
              <Input formId={id} name={`t.${i}.current`} label={T.current} reply={reply} value={t?.current} />
              <Input formId={id} name={`t.${i}.next`} label={T.next} reply={reply} value={t?.next} />
              <Input formId={id} name={`t.${i}.label`} label={T.label} reply={reply} value={t?.label} />
              <Input formId={id} name={`t.${i}.description`} label={T.description} reply={reply} value={t?.description} />
              <Checkbox formId={id} name={`t.${i}.enabled`} label={T.enabled} reply={reply} checked={t ? t.enabled : true} />
              {t ? <Checkbox formId={id} name={`t.${i}.remove`} label={T.remove(i + 1)} reply={reply} checked={false} /> : null}
            </fieldset>
          </li>
        ))}
      </ol>
    </EditForm>
  );
}
