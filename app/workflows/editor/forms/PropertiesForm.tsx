import { useState } from "react";
import type { TemplateContent } from "@contract/milestone-templates";
import { UNIQUENESS, UNIQUENESS_LABELS } from "@contract/workflow-constants";
import { useHydrated } from "~/ui/hydrated";
import { ConditionsEditor } from "../../conditions/ConditionsEditor";
import { InputField, SelectInput, type Errors } from "../../conditions/widgets";
import { WIZARD } from "../../wizard/texts";
import { RichTextField } from "../../wizard/rich-text";
import { EDITOR } from "../texts";
import { formDataOf } from "./alternatives";
import { Checkbox, EditForm, Input, Select, type FormReply } from "./common";
import { EVENT_CODE_OPTIONS, EVENT_COUNT, EVENT_OUTCOMES, EVENT_TYPES, eventDraftsOf, eventErrors, eventName, fieldsOfCode, newEvent, readEvents, type EventDraft } from "./events";
import { FORM_TEXTS } from "./texts";

const F = EDITOR.fields;
const E = FORM_TEXTS.events;

/** The template's properties as a reader sees them (no `workflows` permission): the table's and the canvas's panel. */
export function PropertiesFacts({ doc }: { doc: TemplateContent }) {
  return (
    <dl className="template-facts">
      <dt>{F.templateTitle}</dt>
      <dd>{doc.title}</dd>
      <dt>{F.uniqueness}</dt>
      <dd>{doc.uniqueness}</dd>
      <dt>{F.tags}</dt>
      <dd>{doc.tags.join("; ")}</dd>
    </dl>
  );
}

/**
 * The template's properties (spec 3 §2.6): title, uniqueness, tags, shadow milestone, and its events (each one's
 * type, event, conditions in the conditions editor of §2.5, milestone title and notes). One setProperties edit.
 */
export function PropertiesForm({ doc, reply, id }: { doc: TemplateContent; reply: FormReply; id: string }) {
  const fromReply = reply?.form === id && reply.values && EVENT_COUNT in reply.values ? readEvents(formDataOf(reply.values)) : null;
  return (
    <EditForm id={id} op="setProperties" reply={reply} label={EDITOR.properties} submit={EDITOR.apply}>
      <div className="form-grid">
        <Input formId={id} name="title" label={F.templateTitle} reply={reply} value={doc.title} required />
        <Select formId={id} name="uniqueness" label={F.uniqueness} reply={reply} value={doc.uniqueness} options={UNIQUENESS.map((u) => ({ value: u, label: UNIQUENESS_LABELS[u] }))} />
        <Input formId={id} name="tags" label={F.tags} reply={reply} value={doc.tags.join("; ")} hint={F.tagsHint} />
        <Checkbox formId={id} name="hidden" label={F.hidden} reply={reply} checked={doc.hidden} />
      </div>
      {/* A new answer of the action (a structural post, a refusal) starts the events again from what it carries. */}
      <EventsFields key={JSON.stringify(reply?.form === id ? reply.values : null)} initial={fromReply ?? eventDraftsOf(doc.events)} showErrors={reply?.form === id && !!reply.message} />
    </EditForm>
  );
}

/**
 * The events: with JavaScript Add and Remove change the list in the page and the conditions are edited in the
 * conditions editor's dialogs; without it those buttons post and the form comes back edited (parse.ts).
 */
function EventsFields({ initial, showErrors }: { initial: EventDraft[]; showErrors: boolean }) {
  const hydrated = useHydrated();
  const [drafts, setDrafts] = useState(initial);
  const errors: Errors = showErrors ? eventErrors(drafts) : {};
  const set = (i: number, d: Partial<EventDraft>) => setDrafts(drafts.map((x, j) => (j === i ? { ...x, ...d } : x)));
  /** A structural button: in the page with JavaScript, else a post naming it. */
  const button = (intent: string, label: string, change: () => void) =>
    hydrated ? (
      <button type="button" className="btn btn-secondary btn-small" onClick={change}>
        {label}
      </button>
    ) : (
      <button type="submit" name="intent" value={intent} className="btn btn-secondary btn-small">
        {label}
      </button>
    );
  return (
    <fieldset className="template-events">
      <legend>{E.legend}</legend>
      <input type="hidden" name={EVENT_COUNT} value={drafts.length} />
      {drafts.length === 0 ? <p className="field-hint">{E.none}</p> : null}
      <ol className="plain-list">
        {drafts.map((d, i) => {
          const name = eventName(i);
          return (
            <li key={i} className="template-event">
              <h3>{E.event(i + 1)}</h3>
              <input type="hidden" name={`${name}.origin`} value={d.origin} />
              <div className="form-grid">
                <SelectInput
                  name={`${name}.type`}
                  label={E.type}
                  value={d.type}
                  onValue={(v) => set(i, { type: v as EventDraft["type"] })}
                  errors={errors}
                  options={EVENT_TYPES.map((t) => ({ value: t, label: E.types[t] }))}
                />
                <SelectInput name={`${name}.code`} label={E.code} value={d.code} onValue={(code) => set(i, { code })} errors={errors} options={EVENT_CODE_OPTIONS} placeholder={E.chooseCode} />
                <InputField name={`${name}.title`} label={E.title} value={d.title} onValue={(title) => set(i, { title })} errors={errors} hint={WIZARD.hints.milestoneTitle} />
                <SelectInput
                  name={`${name}.outcome`}
                  label={E.outcome}
                  value={d.outcome}
                  onValue={(v) => set(i, { outcome: v as EventDraft["outcome"] })}
                  errors={errors}
                  options={EVENT_OUTCOMES.map((o) => ({ value: o, label: E.outcomes[o] }))}
                  hint={E.outcomeHint}
                />
              </div>
              <ConditionsEditor name={name} groups={d.groups} onChange={(groups) => set(i, { groups })} fields={fieldsOfCode(d.code)} errors={errors} interactive={hydrated} />
              <fieldset className="wizard-notes">
                <legend>{WIZARD.labels.notes}</legend>
                {d.notes.length === 0 ? <p className="field-hint">{WIZARD.hints.noNotes}</p> : null}
                {d.notes.map((note, n) => (
                  <div key={n} className="wizard-note">
                    <RichTextField
                      id={`${name}-note-${n}`}
                      name={`${name}.notes.${n}`}
                      label={WIZARD.labels.note(n + 1)}
                      value={note}
                      onChange={(html) => set(i, { notes: d.notes.map((x, k) => (k === n ? html : x)) })}
                    />
                    {button(`${name}:removeNote:${n}`, WIZARD.labels.removeNote(n + 1), () => set(i, { notes: d.notes.filter((_, k) => k !== n) }))}
                  </div>
                ))}
                {button(`${name}:addNote`, WIZARD.labels.addNote, () => set(i, { notes: [...d.notes, ""] }))}
              </fieldset>
              {button(`events:remove:${i}`, E.remove(i + 1), () => setDrafts(drafts.filter((_, j) => j !== i)))}
            </li>
          );
        })}
      </ol>
      {button("events:add", E.add, () => setDrafts([...drafts, newEvent()]))}
    </fieldset>
  );
}
