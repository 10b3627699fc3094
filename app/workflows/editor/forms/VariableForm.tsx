import type { TemplateContent } from "@contract/milestone-templates";
import { EDITOR } from "../texts";
import { VARIABLE_TYPES } from "./choices";
import { Checkbox, EditForm, Input, Select, type FormReply } from "./common";

const F = EDITOR.fields;
type Variable = TemplateContent["variables"][number];

/** A milestone variable (spec 3 §3, §5): Add variable (an empty name becomes the next Var_N) or a row's Edit. */
export function VariableForm({ variable, reply, id }: { variable?: Variable; reply: FormReply; id: string }) {
  return (
    <EditForm
      id={id}
      op={variable ? "updateVariable" : "addVariable"}
      reply={reply}
      label={variable ? EDITOR.editVariable(variable.name) : EDITOR.addVariable}
      submit={variable ? EDITOR.apply : EDITOR.addVariable}
      hidden={variable ? { original: variable.name } : undefined}
    >
      <div className="form-grid">
        <Input formId={id} name="name" label={F.variableName} reply={reply} value={variable?.name} hint={variable ? undefined : F.variableNameHint} />
        <Select formId={id} name="variableType" label={F.variableType} reply={reply} value={variable?.type ?? "string"} options={VARIABLE_TYPES.map((t) => ({ value: t, label: t }))} />
        <Input formId={id} name="description" label={F.description} reply={reply} value={variable?.description} />
        <Checkbox formId={id} name="required" label={F.required} reply={reply} checked={variable?.required ?? false} />
      </div>
    </EditForm>
  );
}
