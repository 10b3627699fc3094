import { Form, Link, useNavigate, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { UNIQUENESS } from "@contract/workflow-constants";
import { type ContractField } from "@contract/workflow-contracts";
import { DefaultSubmit, FormError } from "~/ui/fields";
import { useHydrated } from "~/ui/hydrated";
import { openModal } from "~/ui/modal";
import { TagInput } from "~/ui/tag-input";
import type { ToastData } from "~/ui/toast";
import { ASSIGNEE_SUGGEST_URL } from "../assignees";
import { ConditionsEditor } from "../conditions/ConditionsEditor";
import { fieldOf } from "../conditions/model";
import { AutoFocusName, DueDateParts, InputField, SelectInput, idOf, type Errors } from "../conditions/widgets";
import { RichTextField } from "./rich-text";
import {
  CREATION_SOURCES,
  LAST_STEP,
  STEPS,
  assigneeVariables,
  eventsOf,
  fieldsOf,
  firstInvalid,
  isAssignee,
  stepErrors,
  type DueField,
  type Step,
  type WizardErrors,
  type WizardState,
} from "./state";
import { WIZARD as W } from "./texts";

const L = W.labels;

export type WizardReplyData = { state: WizardState; step: Step; errors: WizardErrors; stayed?: boolean; toast: ToastData | null };

/** The form name of a message's field as the page shows it: a condition's message sits on the Edit button with JS. */
function focusTarget(errors: WizardErrors, interactive: boolean): string | null {
  const first = Object.keys(errors)[0];
  if (!first) return null;
  if (interactive && first.startsWith("predicates.")) return "predicates-edit";
  return first;
}

/**
 * The creation wizard (spec 3 §2.4): six steps in one form. With JavaScript it is a modal dialog over the template list
 * (focus moved in, Escape or Cancel back to the list); Next checks the step in the browser and moves on, or shows the
 * step's messages and focuses the first. Without JavaScript it is a page: every post carries all six steps (the steps
 * not shown are hidden sections of the same form), and the action answers with the next step or the messages. The last
 * step's 'Create milestone template' posts everything; a failure keeps it all and says 'Milestone creation failed'.
 */
export function Wizard({
  workflowTitle,
  listUrl,
  initial,
  reply,
}: {
  workflowTitle: string;
  listUrl: string;
  initial: WizardState;
  reply: WizardReplyData | undefined;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  const dialogRef = useRef<HTMLDialogElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const [state, setState] = useState<WizardState>(reply?.state ?? initial);
  const [step, setStep] = useState<Step>(reply?.step ?? 1);
  const [errors, setErrors] = useState<WizardErrors>(reply?.errors ?? {});
  // Remounts the assignees' tag input when a variable is added to its tags from outside it.
  const [assigneesKey, setAssigneesKey] = useState(0);
  const focusNext = useRef<string | null>(null);

  // A new answer of the action (a failure, a step's messages) replaces what the browser held.
  useEffect(() => {
    if (!reply) return;
    setState(reply.state);
    setStep(reply.step);
    setErrors(reply.errors);
    focusNext.current = focusTarget(reply.errors, true) ?? "heading";
  }, [reply]);

  // The dialog: the server renders it open in the page (no JavaScript needed); once hydrated it becomes modal.
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!hydrated || !dialog) return;
    if (dialog.open && !dialog.matches(":modal")) dialog.close();
    openModal(dialog);
    const onCancel = (e: Event) => {
      if (e.target !== dialog) return;
      e.preventDefault();
      navigate(listUrl);
    };
    dialog.addEventListener("cancel", onCancel);
    return () => dialog.removeEventListener("cancel", onCancel);
  }, [hydrated, listUrl, navigate]);

  // Focus follows the step: its first message, else its heading (said by screen readers: "Step 2 of 6: …").
  useEffect(() => {
    const target = focusNext.current;
    if (!target || !hydrated) return;
    focusNext.current = null;
    const el = target === "heading" ? document.getElementById(`wz-step-${step}-title`) : document.getElementById(target === "predicates-edit" ? `${idOf("predicates")}-edit` : idOf(target));
    (el ?? document.getElementById(`wz-step-${step}-title`))?.focus();
  });

  const fields = fieldsOf(state);
  const set = (patch: Partial<WizardState>) => setState((s) => ({ ...s, ...patch }));
  const go = (next: Step) => {
    setStep(next);
    setErrors({});
    focusNext.current = "heading";
  };
  const refuse = (at: Step, found: WizardErrors) => {
    setStep(at);
    setErrors(found);
    focusNext.current = focusTarget(found, true);
  };

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    if (!hydrated) return;
    // Enter in a conditions dialog's field submits the wizard's form (the dialogs are inside it): it must not move
    // the step under an open dialog. The dialog's Done closes it.
    if (document.activeElement?.closest("dialog.conditions-dialog")) return e.preventDefault();
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const intent = submitter?.value ?? "next";
    if (intent === "next" || intent === "back") {
      e.preventDefault();
      if (intent === "back") return go(Math.max(1, step - 1) as Step);
      const found = stepErrors(state, step);
      if (Object.keys(found).length) return refuse(step, found);
      return go(Math.min(LAST_STEP, step + 1) as Step);
    }
    if (intent === "create") {
      if (pending) return e.preventDefault();
      const invalid = firstInvalid(state);
      if (invalid) {
        e.preventDefault();
        refuse(invalid.step, invalid.errors);
      }
    }
  };

  const setSource = (source: string) => {
    const events = eventsOf(source);
    setCode(events.some((ev) => ev.code === state.code) ? state.code : (events[0]?.code ?? ""), source);
  };
  const setCode = (code: string, source = state.source) => {
    const nextFields = fieldsOf({ source, code });
    const keepDate = (due: DueField) => (due.date === "{{now}}" || fieldOf(nextFields, due.date) ? due : { ...due, date: "{{now}}", measures: "Days" });
    set({
      source,
      code,
      // Conditions and dates naming fields the new event lacks go; the rest stays.
      predicates: state.predicates.map((g) => g.filter((c) => c.field === "" || fieldOf(nextFields, c.field))).filter((g) => g.length > 0),
      dueAt: keepDate(state.dueAt),
      clientDueDate: keepDate(state.clientDueDate),
    });
  };

  const toast = reply?.toast;
  const body = (
    <AutoFocusName.Provider value={hydrated ? null : focusTarget(errors, false)}>
      <div className="wizard-head">
        <h2 id="wz-heading">{W.title}</h2>
        <p className="field-hint">{workflowTitle}</p>
        <ol className="wizard-progress" aria-label={W.title}>
          {STEPS.map((s) => (
            <li key={s} aria-current={s === step ? "step" : undefined} className={s === step ? "current" : s < step ? "done" : undefined}>
              {W.steps[s - 1]}
            </li>
          ))}
        </ol>
      </div>
      <Form method="post" ref={formRef} noValidate onSubmit={onSubmit} className="wizard-form" aria-labelledby="wz-heading">
        <DefaultSubmit value={step === LAST_STEP ? "create" : "next"} />
        <input type="hidden" name="step" value={step} />
        {toast?.type === "error" ? <FormError id="wz-failure" errors={[toast.message, toast.description ?? ""].filter(Boolean)} /> : null}
        {reply?.stayed && !hydrated ? (
          <p className="field-hint" role="status">
            {W.stayed}
          </p>
        ) : null}

        <StepSection n={1} step={step}>
          <InputField name="title" label={L.title} value={state.title} onValue={(title) => set({ title })} errors={errors} autoComplete="off" data-initial-focus={step === 1 ? "" : undefined} />
          <TagInput id={idOf("tags")} name="tags" label={L.tags} defaultValue={state.tags} onChange={(tags) => set({ tags })} errors={errors.tags ? [errors.tags] : undefined} errorId={`${idOf("tags")}-error`} />
          <div className="field field-checkbox">
            <label>
              <input type="checkbox" name="hidden" id={idOf("hidden")} checked={state.hidden} onChange={(e) => set({ hidden: e.target.checked })} aria-describedby={`${idOf("hidden")}-hint`} />
              {L.hidden}
            </label>
            <p className="field-hint" id={`${idOf("hidden")}-hint`}>
              {W.hints.hidden}
            </p>
          </div>
        </StepSection>

        <StepSection n={2} step={step}>
          <SelectInput
            name="uniqueness"
            label={L.uniqueness}
            value={state.uniqueness}
            onValue={(uniqueness) => set({ uniqueness })}
            errors={errors}
            options={UNIQUENESS.map((u) => ({ value: u, label: W.uniqueness[u] }))}
          />
          <SelectInput
            name="source"
            label={L.source}
            value={state.source}
            onValue={setSource}
            errors={errors}
            placeholder={W.chooseSource}
            options={CREATION_SOURCES.map((s) => ({ value: s.source, label: s.source }))}
          />
          <SelectInput
            name="code"
            label={L.code}
            value={state.code}
            onValue={(code) => setCode(code)}
            errors={errors}
            placeholder={W.chooseEvent}
            options={eventsOf(state.source).map((ev) => ({ value: ev.code, label: `${ev.name} (${ev.code})` }))}
          />
          {state.code ? (
            <ConditionsEditor
              name="predicates"
              groups={state.predicates}
              onChange={(predicates) => set({ predicates })}
              fields={fields}
              errors={errors}
              interactive={hydrated}
            />
          ) : null}
        </StepSection>

        <StepSection n={3} step={step}>
          <InputField
            name="milestoneTitle"
            label={L.milestoneTitle}
            value={state.milestoneTitle}
            onValue={(milestoneTitle) => set({ milestoneTitle })}
            errors={errors}
            hint={W.hints.milestoneTitle}
            autoComplete="off"
          />
        </StepSection>

        <StepSection n={4} step={step}>
          <DueFieldset name="dueAt" legend={L.dueAt} value={state.dueAt} onChange={(dueAt) => set({ dueAt })} fields={fields} errors={errors} hydrated={hydrated} />
          <div className="field field-checkbox">
            <label>
              <input type="checkbox" name="clientDue" id={idOf("clientDue")} checked={state.clientDue} onChange={(e) => set({ clientDue: e.target.checked })} />
              {L.clientDue}
            </label>
          </div>
          {state.clientDue || !hydrated ? (
            <DueFieldset
              name="clientDueDate"
              legend={L.clientDueDate}
              value={state.clientDueDate}
              onChange={(clientDueDate) => set({ clientDueDate })}
              fields={fields}
              errors={errors}
              hydrated={hydrated}
            />
          ) : null}
        </StepSection>

        <StepSection n={5} step={step}>
          <TagInput
            key={assigneesKey}
            id={idOf("assignees")}
            name="assignees"
            label={L.assignees}
            defaultValue={state.assignees}
            onChange={(assignees) => set({ assignees })}
            suggestUrl={ASSIGNEE_SUGGEST_URL}
            validate={(a) => (isAssignee(a) ? null : W.assignee(a))}
            errors={errors.assignees ? [errors.assignees] : undefined}
            errorId={`${idOf("assignees")}-error`}
            hint={W.hints.assignees}
          />
          {assigneeVariables(fields).length ? (
            <div className="field-row wizard-variable">
              <SelectInput
                name="assigneeVariable"
                label={L.assigneeVariable}
                value=""
                onValue={(v) => {
                  if (!v || state.assignees.includes(v)) return;
                  set({ assignees: [...state.assignees, v] });
                  setAssigneesKey((k) => k + 1);
                }}
                errors={errors}
                placeholder=""
                options={assigneeVariables(fields).map((v) => ({ value: v, label: v }))}
              />
              {hydrated ? null : (
                <button type="submit" name="intent" value="addAssigneeVariable" className="btn btn-secondary">
                  {L.addAssigneeVariable}
                </button>
              )}
            </div>
          ) : null}
        </StepSection>

        <StepSection n={6} step={step}>
          <fieldset className="wizard-notes" aria-describedby={errors.notes ? `${idOf("notes")}-error` : undefined}>
            <legend>{L.notes}</legend>
            {state.notes.length === 0 ? <p className="field-hint">{W.hints.noNotes}</p> : null}
            {!hydrated ? <p className="field-hint">{W.hints.noteHtml}</p> : null}
            {state.notes.map((note, i) => (
              <div key={i} className="wizard-note">
                <RichTextField
                  id={idOf(`notes.${i}`)}
                  name={`notes.${i}`}
                  label={L.note(i + 1)}
                  value={note}
                  onChange={(html) => set({ notes: state.notes.map((n, j) => (j === i ? html : n)) })}
                />
                {hydrated ? (
                  <button type="button" className="btn btn-secondary btn-small" onClick={() => set({ notes: state.notes.filter((_, j) => j !== i) })}>
                    {L.removeNote(i + 1)}
                  </button>
                ) : (
                  <button type="submit" name="intent" value={`removeNote:${i}`} className="btn btn-secondary btn-small">
                    {L.removeNote(i + 1)}
                  </button>
                )}
              </div>
            ))}
            {hydrated ? (
              <button type="button" className="btn btn-secondary" onClick={() => set({ notes: [...state.notes, ""] })}>
                {L.addNote}
              </button>
            ) : (
              <button type="submit" name="intent" value="addNote" className="btn btn-secondary">
                {L.addNote}
              </button>
            )}
            <div id={`${idOf("notes")}-error`} className="field-errors">
              {errors.notes ? <p className="field-error">{errors.notes}</p> : null}
            </div>
          </fieldset>
        </StepSection>

        <div className="wizard-actions">
          {step > 1 ? (
            <button type="submit" name="intent" value="back" className="btn btn-secondary">
              {W.back}
            </button>
          ) : null}
          {step < LAST_STEP ? (
            <button type="submit" name="intent" value="next" className="btn btn-primary">
              {W.next}
            </button>
          ) : (
            <button type="submit" name="intent" value="create" className="btn btn-primary" aria-disabled={pending || undefined}>
              {pending ? W.creating : W.create}
            </button>
          )}
          <Link to={listUrl} className="btn btn-secondary">
            {W.cancel}
          </Link>
        </div>
      </Form>
    </AutoFocusName.Provider>
  );

  return (
    // Open in the page as the server renders it; modal once the page has hydrated (the effect above).
    <dialog ref={dialogRef} className="wizard" open={hydrated ? undefined : true} aria-labelledby="wz-heading">
      {body}
    </dialog>
  );
}

function StepSection({ n, step, children }: { n: Step; step: Step; children: ReactNode }) {
  return (
    <section className="wizard-step" hidden={n !== step} aria-labelledby={`wz-step-${n}-title`}>
      <h3 id={`wz-step-${n}-title`} tabIndex={-1}>
        {`${W.stepOf(n, LAST_STEP)}: ${W.steps[n - 1]}`}
      </h3>
      {children}
    </section>
  );
}

/** A date field of step 4 (spec 3 §2.4): base, amount, measures; optional day and hour limits; a calendar event. */
function DueFieldset({
  name,
  legend,
  value,
  onChange,
  fields,
  errors,
  hydrated,
}: {
  name: string;
  legend: string;
  value: DueField;
  onChange: (v: DueField) => void;
  fields: readonly ContractField[];
  errors: Errors;
  hydrated: boolean;
}) {
  const set = (patch: Partial<DueField>) => onChange({ ...value, ...patch });
  return (
    <fieldset className="due-field">
      <legend>{legend}</legend>
      <DueDateParts name={name} value={value} onChange={(parts) => onChange({ ...value, ...parts })} fields={fields} errors={errors} />
      <fieldset className="due-limits">
        <legend>{L.limits}</legend>
        <InputField name={`${name}.daysMin`} label={L.daysMin} value={value.daysMin} onValue={(daysMin) => set({ daysMin })} errors={errors} inputMode="numeric" autoComplete="off" />
        <InputField name={`${name}.daysMax`} label={L.daysMax} value={value.daysMax} onValue={(daysMax) => set({ daysMax })} errors={errors} inputMode="numeric" autoComplete="off" />
        <InputField name={`${name}.hoursMin`} label={L.hoursMin} value={value.hoursMin} onValue={(hoursMin) => set({ hoursMin })} errors={errors} hint={W.hints.hours} inputMode="decimal" autoComplete="off" />
        <InputField name={`${name}.hoursMax`} label={L.hoursMax} value={value.hoursMax} onValue={(hoursMax) => set({ hoursMax })} errors={errors} hint={W.hints.hours} inputMode="decimal" autoComplete="off" />
      </fieldset>
      <div className="field field-checkbox">
        <label>
          <input type="checkbox" name={`${name}.calendar`} id={idOf(`${name}.calendar`)} checked={value.calendar} onChange={(e) => set({ calendar: e.target.checked })} />
          {L.calendar}
        </label>
      </div>
      {value.calendar || !hydrated ? (
        <div className="due-calendar">
          <TagInput
            id={idOf(`${name}.categories`)}
            name={`${name}.categories`}
            label={L.categories}
            defaultValue={value.categories ? value.categories.split(";").map((c) => c.trim()).filter(Boolean) : []}
            onChange={(tags) => set({ categories: tags.join("; ") })}
          />
          <InputField
            name={`${name}.durationHours`}
            label={L.durationHours}
            value={value.durationHours}
            onValue={(durationHours) => set({ durationHours })}
            errors={errors}
            inputMode="decimal"
            autoComplete="off"
          />
        </div>
      ) : null}
    </fieldset>
  );
}

