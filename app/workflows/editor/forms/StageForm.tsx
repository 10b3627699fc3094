import { EDITOR } from "../texts";
import { EditForm, Input, type FormReply } from "./common";

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
