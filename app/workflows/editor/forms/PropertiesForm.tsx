import type { TemplateContent } from "@contract/milestone-templates";
import { UNIQUENESS, UNIQUENESS_LABELS } from "@contract/workflow-constants";
import { EDITOR } from "../texts";
import { Checkbox, EditForm, Input, Select, type FormReply } from "./common";

const F = EDITOR.fields;

/** The template's properties (spec 3 §2.6): title, uniqueness, tags, shadow milestone. Events are the wizard's editor's. */
export function PropertiesForm({ doc, reply, id }: { doc: TemplateContent; reply: FormReply; id: string }) {
  return (
    <EditForm id={id} op="setProperties" reply={reply} label={EDITOR.properties} submit={EDITOR.apply}>
      <div className="form-grid">
        <Input formId={id} name="title" label={F.templateTitle} reply={reply} value={doc.title} required />
        <Select formId={id} name="uniqueness" label={F.uniqueness} reply={reply} value={doc.uniqueness} options={UNIQUENESS.map((u) => ({ value: u, label: UNIQUENESS_LABELS[u] }))} />
        <Input formId={id} name="tags" label={F.tags} reply={reply} value={doc.tags.join("; ")} hint={F.tagsHint} />
        <Checkbox formId={id} name="hidden" label={F.hidden} reply={reply} checked={doc.hidden} />
      </div>
    </EditForm>
  );
}
