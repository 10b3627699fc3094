import { NOWHERE_PORT } from "@contract/graph";
import { DUE_MEASURES, PROPERTY_TYPE_OPTIONS } from "./choices";
import type { FormProperty, Path, TemplateContent } from "@contract/milestone-templates";
import { EDITOR } from "../texts";
import { Checkbox, DeleteButton, EditForm, Input, Select, type FormReply } from "./common";

const F = EDITOR.fields;

/** A step's name in a choice: its title, else its id. */
export const stepLabel = (doc: TemplateContent, id: string) => {
  const s = doc.steps.find((x) => x.id === id);
  return s ? s.title || s.id : id;
};

/** A plain value of a field that may hold conditional alternatives (the table shows and edits the plain ones). */
export function plain<T>(value: T | { predicates: unknown; value: T }[] | undefined): T | undefined {
  return Array.isArray(value) && value.length > 0 && typeof value[0] === "object" && value[0] !== null && "predicates" in value[0] ? undefined : (value as T | undefined);
}

/**
 * A path's form: Add path (From, its port, To) or a row's Edit (the port, the to-action's task title, assignees and
 * due time, the form's name). Conditional alternatives and predicates are the canvas's connection editor's.
 */
export function PathForm({ doc, path, reply, id }: { doc: TemplateContent; path?: Path; reply: FormReply; id: string }) {
  const steps = doc.steps.map((s) => ({ value: s.id, label: stepLabel(doc, s.id) }));
  const action = path?.to.action;
  const due = plain(action?.dueAt);
  return (
    <EditForm
      id={id}
      op={path ? "updatePath" : "addPath"}
      reply={reply}
      label={path ? EDITOR.editPath(stepLabel(doc, path.from.step), stepLabel(doc, path.to.step)) : EDITOR.addPath}
      submit={path ? EDITOR.apply : EDITOR.addPath}
      hidden={path ? { from: path.from.step, to: path.to.step } : undefined}
    >
      <div className="form-grid">
        {path ? null : <Select formId={id} name="from" label={F.from} reply={reply} value={steps[0]?.value} options={steps} />}
        <Input formId={id} name="port" label={F.port} reply={reply} value={path?.from.port} hint={`'${NOWHERE_PORT}' needs a form.`} />
        {path ? null : <Select formId={id} name="to" label={F.to} reply={reply} value={steps[1]?.value} options={steps} />}
        <Input formId={id} name="taskTitle" label={F.taskTitle} reply={reply} value={plain(action?.title)} />
        <Input formId={id} name="assignees" label={F.assignees} reply={reply} value={plain(action?.assignees)?.join("; ")} hint={F.assigneesHint} />
        <Input formId={id} name="dueAmount" label={F.dueAmount} reply={reply} value={due?.amount} inputMode="numeric" />
        <Select formId={id} name="dueMeasures" label={F.dueMeasures} reply={reply} value={due?.measures ?? "Days"} options={DUE_MEASURES.map((m) => ({ value: m, label: m }))} />
        <Input formId={id} name="formName" label={F.formName} reply={reply} value={path?.from.action.form?.name} />
      </div>
    </EditForm>
  );
}

/**
 * A form property's details (spec 3 §3 Form, §5): type, description, save to, and for files the extensions, search
 * terms and multiple. Required is not offered for a boolean, Rich Text only for a string; a type change clears the
 * value (parse.ts applies both rules, so a post without JavaScript cannot break them).
 */
function PropertyDetailsForm({ property: p, index, hidden, reply, id }: { property: FormProperty; index: number; hidden: Record<string, string>; reply: FormReply; id: string }) {
  const P = EDITOR.property;
  return (
    <EditForm id={id} op="updateFormProperty" reply={reply} label={P.formLabel(p.name)} submit={EDITOR.apply} hidden={{ ...hidden, index: String(index) }}>
      <div className="form-grid">
        <Select formId={id} name="propertyType" label={F.propertyType} reply={reply} value={p.type} options={PROPERTY_TYPE_OPTIONS} />
        <Input formId={id} name="description" label={F.description} reply={reply} value={p.description} />
        <Input formId={id} name="saveTo" label={P.saveTo} reply={reply} value={p.saveTo} />
        {p.type === "boolean" ? null : <Checkbox formId={id} name="required" label={F.required} reply={reply} checked={p.required} />}
        {p.type === "string" ? <Checkbox formId={id} name="isRichText" label={P.richText} reply={reply} checked={p.isRichText} /> : null}
        {p.type === "file" ? (
          <>
            <Input formId={id} name="ext" label={P.ext} reply={reply} value={p.ext.join("; ")} hint={EDITOR.fields.tagsHint} />
            <Input formId={id} name="search" label={P.search} reply={reply} value={p.search.join("; ")} hint={EDITOR.fields.tagsHint} />
            <Checkbox formId={id} name="multiple" label={P.multiple} reply={reply} checked={p.multiple} />
          </>
        ) : null}
      </div>
    </EditForm>
  );
}

/** The form collected on a path: its properties, one Delete each, and Add property (name, type, Required). */
export function FormPropertiesForm({ path, reply, id }: { path: Path; reply: FormReply; id: string }) {
  const ref = { from: path.from.step, to: path.to.step };
  const properties = path.from.action.form?.properties ?? [];
  return (
    <div className="form-properties">
      {properties.length ? (
        <ul className="plain-list">
          {properties.map((p, i) => (
            <li key={`${p.property}-${i}`}>
              {p.name} <span className="muted">({p.type}{p.required ? `, ${F.required.toLowerCase()}` : ""})</span>{" "}
              <DeleteButton id={`${id}-delete-${i}`} op="deleteFormProperty" label={EDITOR.deleteProperty(p.name)} hidden={{ ...ref, index: String(i) }} />
              <PropertyDetailsForm property={p} index={i} hidden={ref} reply={reply} id={`${id}-property-${i}`} />
            </li>
          ))}
        </ul>
      ) : null}
      <EditForm id={id} op="addFormProperty" reply={reply} label={EDITOR.addProperty} submit={EDITOR.addProperty} hidden={ref}>
        <div className="form-grid">
          <Input formId={id} name="propertyName" label={F.propertyName} reply={reply} value="" />
          <Select formId={id} name="propertyType" label={F.propertyType} reply={reply} value="string" options={PROPERTY_TYPE_OPTIONS} />
          <Checkbox formId={id} name="required" label={F.required} reply={reply} checked={false} />
        </div>
      </EditForm>
    </div>
  );
}
