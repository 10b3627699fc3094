import { useEffect, useRef, useState } from "react";
import { useHydrated } from "~/ui/hydrated";
import type { Path, TemplateContent } from "@contract/milestone-templates";
import { ConditionsEditor } from "../../conditions/ConditionsEditor";
import { DueDateParts, InputField, type Errors } from "../../conditions/widgets";
import { EDITOR } from "../texts";
import {
  alternativeErrors,
  altName,
  applyAlternativesIntent,
  conditionFields,
  draftsOf,
  formDataOf,
  isDateField,
  readAlternatives,
  type AlternativeDraft,
  type AlternativeField,
} from "./alternatives";
import { EditForm, type FormReply } from "./common";

const A = EDITOR.alternatives;

/**
 * One field of a path's to-action (task title, assignees, due, start, notes) as a list of conditional alternatives
 * (spec 3 §3 Path): each alternative's conditions in the conditions editor (§2.5) and its value; the last one is the
 * 'else', without conditions. With JavaScript, Add and Remove change the list in the page and the conditions are edited
 * in the conditions editor's dialogs; without it they post the form (the action answers it edited, nothing kept).
 * Apply posts the field as one updatePath edit. The form starts from what a refused or structural post carried.
 */
export function AlternativesForm({ doc, path, field, reply, id }: { doc: TemplateContent; path: Path; field: AlternativeField; reply: FormReply; id: string }) {
  const fields = conditionFields(doc.events);
  const fromReply = reply?.form === id && reply.values ? readAlternatives(formDataOf(reply.values), field, fields) : null;
  const initial = fromReply ?? draftsOf(field, path.to.action);
  // A new answer of the action (a structural post) starts the form again from what it carries.
  return <AlternativesFields key={JSON.stringify(reply?.form === id ? reply.values : null)} {...{ doc, path, field, reply, id, fields, initial }} />;
}

function AlternativesFields({
  path,
  field,
  reply,
  id,
  fields,
  initial,
}: {
  path: Path;
  field: AlternativeField;
  reply: FormReply;
  id: string;
  fields: ReturnType<typeof conditionFields>;
  initial: AlternativeDraft[];
}) {
  const hydrated = useHydrated();
  const [drafts, setDrafts] = useState(initial);
  const errors: Errors = reply?.form === id && reply.message ? alternativeErrors(field, drafts, fields) : {};
  const list = useRef<HTMLFieldSetElement>(null);
  /** Where focus goes after a change in the page: the added alternative's first field, or Add after a removal. */
  const focusAfter = useRef<number | "add" | null>(null);
  useEffect(() => {
    const at = focusAfter.current;
    focusAfter.current = null;
    if (at === null || !list.current) return;
    const target =
      at === "add"
        ? list.current.querySelector<HTMLElement>(":scope > .alternatives-add")
        : list.current.querySelectorAll<HTMLElement>(":scope > ol > li")[at]?.querySelector<HTMLElement>("button, input:not([type=hidden]), select, textarea");
    target?.focus();
  }, [drafts]);
  /** A structural button (the same intent the post names without JavaScript), applied in the page. */
  const change = (intent: string, focus: number | "add") => (event: { preventDefault: () => void }) => {
    if (!hydrated) return;
    event.preventDefault();
    const next = applyAlternativesIntent(drafts, [intent], field);
    if (!next || next === drafts) return;
    focusAfter.current = focus;
    setDrafts(next);
  };
  const set = (i: number, d: AlternativeDraft) => setDrafts(drafts.map((x, j) => (j === i ? d : x)));
  const label = A.fields[field];
  return (
    <EditForm id={id} op="setAlternatives" reply={reply} label={A.formLabel(label)} submit={EDITOR.apply} hidden={{ from: path.from.step, to: path.to.step, field, count: String(drafts.length) }}>
      <fieldset className="alternatives" ref={list}>
        <legend>{A.formLabel(label)}</legend>
        <ol className="plain-list">
          {drafts.map((d, i) => {
            const name = altName(field, i);
            const isElse = i === drafts.length - 1;
            return (
              <li key={i} className="alternative">
                <h4>{isElse ? (drafts.length > 1 ? A.otherwise : A.value) : A.alternative(i + 1)}</h4>
                {isElse ? null : (
                  <ConditionsEditor name={name} groups={d.groups} onChange={(groups) => set(i, { ...d, groups })} fields={fields} errors={errors} interactive={hydrated} />
                )}
                {isDateField(field) ? (
                  <DueDateParts name={`${name}.due`} value={d.due} onChange={(due) => set(i, { ...d, due })} fields={fields} errors={errors} />
                ) : field === "notes" ? (
                  <div className="field">
                    <label htmlFor={`${id}-${i}-value`}>{label}</label>
                    <textarea id={`${id}-${i}-value`} name={`${name}.value`} rows={3} value={d.value} onChange={(e) => set(i, { ...d, value: e.currentTarget.value })} aria-describedby={`${id}-${i}-hint`} />
                    <p id={`${id}-${i}-hint`} className="field-hint">
                      {A.notesHint}
                    </p>
                  </div>
                ) : (
                  <InputField name={`${name}.value`} label={label} value={d.value} onValue={(value) => set(i, { ...d, value })} errors={errors} hint={field === "assignees" ? EDITOR.fields.assigneesHint : undefined} autoComplete="off" />
                )}
                {isElse ? null : (
                  <button type="submit" name="intent" value={`${field}:remove:${i}`} className="btn btn-secondary btn-small" onClick={change(`${field}:remove:${i}`, "add")}>
                    {A.remove(i + 1)}
                  </button>
                )}
              </li>
            );
          })}
        </ol>
        <button type="submit" name="intent" value={`${field}:add`} className="btn btn-secondary btn-small alternatives-add" onClick={change(`${field}:add`, drafts.length - 1)}>
          {A.add}
        </button>
      </fieldset>
    </EditForm>
  );
}
