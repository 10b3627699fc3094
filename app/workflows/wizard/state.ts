/**
 * The creation wizard's state (spec 3 §2.4): what the six steps hold, as typed (strings, so that an invalid amount is
 * shown back as it was), read from the posted form, checked step by step, and turned into the contract's
 * `TemplateCreate`. The same functions run in the browser (Next, without a round trip) and in the action (the
 * authority, and the only path without JavaScript).
 */
import { z } from "zod";
import { TEXT_LIMITS } from "@contract/limits";
import { DEFAULT_MILESTONE_TITLE, DEFAULT_TEMPLATE_TITLE, UNIQUENESS, WORKFLOW_LIMITS, WORKFLOW_MESSAGES as M } from "@contract/workflow-constants";
import { type ContractField, type DueAt, EVENT_SOURCES, PLACEHOLDER } from "@contract/workflow-contracts";
import { type TemplateCreate } from "@contract/milestone-templates";
import { splitTags } from "~/ui/tag-input";
import { applyConditionIntent, dueOf, groupErrors, predicateOf, readConditions, withoutBlanks, type ConditionGroups, type DueDraft } from "../conditions/model";
import { WIZARD as W } from "./texts";

export const STEPS = [1, 2, 3, 4, 5, 6] as const;
export type Step = (typeof STEPS)[number];
export const LAST_STEP: Step = 6;

/** A date field of step 4: the base, amount and measures, the optional limits and calendar event. */
export type DueField = DueDraft & {
  daysMin: string;
  daysMax: string;
  hoursMin: string;
  hoursMax: string;
  calendar: boolean;
  /** The calendar event's categories, ";" between them. */
  categories: string;
  durationHours: string;
};

export type WizardState = {
  title: string;
  tags: string[];
  hidden: boolean;
  uniqueness: string;
  source: string;
  code: string;
  predicates: ConditionGroups;
  milestoneTitle: string;
  dueAt: DueField;
  clientDue: boolean;
  clientDueDate: DueField;
  assignees: string[];
  notes: string[];
};

export type WizardErrors = Record<string, string>;

const DUE_DEFAULT: DueField = {
  date: "{{now}}",
  amount: "1",
  measures: "Days",
  daysMin: "",
  daysMax: "",
  hoursMin: "",
  hoursMax: "",
  calendar: false,
  categories: "",
  durationHours: "1",
};

/** The wizard as it opens: the spec's defaults ('Default template title', 'New milestone', due 1 Days). */
export const NEW_TEMPLATE: WizardState = {
  title: DEFAULT_TEMPLATE_TITLE,
  tags: [],
  hidden: false,
  uniqueness: "repeatable",
  source: "",
  code: "",
  predicates: [],
  milestoneTitle: DEFAULT_MILESTONE_TITLE,
  dueAt: DUE_DEFAULT,
  clientDue: false,
  clientDueDate: DUE_DEFAULT,
  assignees: [],
  notes: [""],
};

/** Where the wizard comes from and goes back to: the workflow's template list. */
export const listPath = (workflowId: string) => `/workflows/${encodeURIComponent(workflowId)}/milestones`;

/** The event sources a template may be created from (spec 3 §9: canCreateMilestone). */
export const CREATION_SOURCES = EVENT_SOURCES.filter((s) => s.canCreateMilestone);

export const eventsOf = (source: string) => CREATION_SOURCES.find((s) => s.source === source)?.events ?? [];

/** The contract fields of the chosen event: what conditions, date variables and assignee variables may name. */
export const fieldsOf = (state: Pick<WizardState, "source" | "code">): ContractField[] =>
  eventsOf(state.source).find((e) => e.code === state.code)?.contract ?? [];

/** The `{{…}}` variables that may stand for assignees: the event's people and e-mail fields. */
export const assigneeVariables = (fields: readonly ContractField[]) =>
  fields.filter((f) => f.type === "people" || f.type === "email").map((f) => `{{${f.name}}}`);

/** Which step the posted `step` names (1 when missing or wrong). */
export function stepOf(value: unknown): Step {
  const n = Number(value);
  return (STEPS as readonly number[]).includes(n) ? (n as Step) : 1;
}

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};

function readDue(form: FormData, name: string): DueField {
  return {
    date: text(form, `${name}.date`) || DUE_DEFAULT.date,
    amount: text(form, `${name}.amount`),
    measures: text(form, `${name}.measures`) || DUE_DEFAULT.measures,
    daysMin: text(form, `${name}.daysMin`),
    daysMax: text(form, `${name}.daysMax`),
    hoursMin: text(form, `${name}.hoursMin`),
    hoursMax: text(form, `${name}.hoursMax`),
    calendar: form.get(`${name}.calendar`) === "on",
    categories: text(form, `${name}.categories`),
    durationHours: text(form, `${name}.durationHours`),
  };
}

/**
 * The wizard's state from a post: every step's fields travel in every post (the steps not shown are hidden sections of
 * the same form). `changed`: the post made a reset the user has not seen (a new event source picks its first event; a
 * condition's new field resets its function and value), so the step is shown again rather than left.
 */
export function readWizard(form: FormData): { state: WizardState; changed: boolean } {
  const source = text(form, "source");
  const events = eventsOf(source);
  let code = text(form, "code");
  let changed = false;
  if (source && !events.some((e) => e.code === code)) {
    changed = code !== "" || events.length > 1;
    code = events[0]?.code ?? "";
  }
  if (!source && code) code = "";
  const fields = fieldsOf({ source, code });
  const conditions = readConditions(form, "predicates", fields);
  const noteKeys = [...form.keys()].filter((k) => /^notes\.\d{1,3}$/.test(k)).sort((a, b) => Number(a.slice(6)) - Number(b.slice(6)));
  const state: WizardState = {
    title: text(form, "title"),
    tags: splitTags(text(form, "tags")),
    hidden: form.get("hidden") === "on",
    uniqueness: text(form, "uniqueness") || NEW_TEMPLATE.uniqueness,
    source,
    code,
    predicates: conditions.groups,
    milestoneTitle: text(form, "milestoneTitle"),
    dueAt: readDue(form, "dueAt"),
    clientDue: form.get("clientDue") === "on",
    clientDueDate: readDue(form, "clientDueDate"),
    assignees: splitTags(text(form, "assignees")),
    notes: [...new Set(noteKeys)].slice(0, WORKFLOW_LIMITS.notes).map((k) => text(form, k)),
  };
  return { state, changed: changed || conditions.changed };
}

const WHOLE = /^\d+$/;
const HOURS = /^\d+(\.\d+)?$/;

function dueErrors(due: DueField, name: string, fields: readonly ContractField[]): WizardErrors {
  const out: WizardErrors = {};
  const base = dueOf(due);
  if ("errors" in base) for (const [k, v] of Object.entries(base.errors)) out[`${name}.${k}`] = v;
  const days = (k: "daysMin" | "daysMax") => {
    const v = due[k].trim();
    if (v !== "" && (!WHOLE.test(v) || Number(v) > WORKFLOW_LIMITS.amount)) out[`${name}.${k}`] = W.daysLimit(WORKFLOW_LIMITS.amount);
  };
  const hours = (k: "hoursMin" | "hoursMax") => {
    const v = due[k].trim();
    if (v !== "" && (!HOURS.test(v) || Number(v) > 24)) out[`${name}.${k}`] = W.hoursLimit;
  };
  days("daysMin");
  days("daysMax");
  hours("hoursMin");
  hours("hoursMax");
  if (!out[`${name}.daysMax`] && due.daysMin.trim() && due.daysMax.trim() && Number(due.daysMin) > Number(due.daysMax)) out[`${name}.daysMax`] = W.maxBelowMin;
  if (!out[`${name}.hoursMax`] && due.hoursMin.trim() && due.hoursMax.trim() && Number(due.hoursMin) > Number(due.hoursMax)) out[`${name}.hoursMax`] = W.maxBelowMin;
  if (due.calendar) {
    const d = due.durationHours.trim();
    if (!HOURS.test(d) || Number(d) > 24 * 30) out[`${name}.durationHours`] = W.duration(24 * 30);
  }
  const known = due.date.trim() === "{{now}}" || fields.some((f) => `{{${f.name}}}` === due.date.trim());
  if (!out[`${name}.date`] && !known) out[`${name}.date`] = W.dateVariable;
  return out;
}

const EMAIL = z.string().email();
/** An assignee: an e-mail address or a `{{…}}` variable of the event (resolved when the milestone is created). */
export const isAssignee = (a: string) => PLACEHOLDER.test(a) || (a.length <= TEXT_LIMITS.email && EMAIL.safeParse(a).success);

/** The messages of one step, by form name: what blocks Next (spec 3 §2.4: the step's required value, and what is wrong). */
export function stepErrors(state: WizardState, step: Step): WizardErrors {
  const fields = fieldsOf(state);
  switch (step) {
    case 1: {
      const out: WizardErrors = {};
      if (state.title.trim() === "") out.title = M.templateTitleRequired;
      else if (state.title.trim().length > WORKFLOW_LIMITS.title) out.title = W.tooLong(WORKFLOW_LIMITS.title);
      if (state.tags.length > WORKFLOW_LIMITS.tags || state.tags.some((t) => t.length > TEXT_LIMITS.tag)) out.tags = W.tags(WORKFLOW_LIMITS.tags, TEXT_LIMITS.tag);
      return out;
    }
    case 2: {
      const out: WizardErrors = {};
      if (!(UNIQUENESS as readonly string[]).includes(state.uniqueness)) out.uniqueness = W.uniquenessRequired;
      if (!state.source) out.source = W.sourceRequired;
      if (!state.code) out.code = M.eventCodeRequired;
      return { ...out, ...(state.code ? groupErrors(state.predicates, fields, "predicates") : {}) };
    }
    case 3:
      if (state.milestoneTitle.trim() === "") return { milestoneTitle: M.milestoneTitleRequired };
      return state.milestoneTitle.trim().length > WORKFLOW_LIMITS.title ? { milestoneTitle: W.tooLong(WORKFLOW_LIMITS.title) } : {};
    case 4:
      return { ...dueErrors(state.dueAt, "dueAt", fields), ...(state.clientDue ? dueErrors(state.clientDueDate, "clientDueDate", fields) : {}) };
    case 5: {
      if (state.assignees.length > WORKFLOW_LIMITS.assignees) return { assignees: W.tooManyAssignees(WORKFLOW_LIMITS.assignees) };
      const bad = state.assignees.find((a) => !isAssignee(a));
      return bad ? { assignees: W.assignee(bad) } : {};
    }
    case 6:
      return state.notes.some((n) => n.length > WORKFLOW_LIMITS.note) ? { notes: W.noteTooLong(WORKFLOW_LIMITS.note) } : {};
  }
}

/** The first step with a message, and its messages; null when every step is complete. */
export function firstInvalid(state: WizardState): { step: Step; errors: WizardErrors } | null {
  for (const step of STEPS) {
    const errors = stepErrors(state, step);
    if (Object.keys(errors).length) return { step, errors };
  }
  return null;
}

function dueValue(due: DueField): DueAt {
  const base = dueOf(due);
  if (!("value" in base)) throw new Error("dueValue of an invalid due date");
  const num = (v: string) => (v.trim() === "" ? null : Number(v));
  const limits = { daysMin: num(due.daysMin), daysMax: num(due.daysMax), hoursMin: num(due.hoursMin), hoursMax: num(due.hoursMax) };
  return {
    ...base.value,
    ...(Object.values(limits).some((v) => v !== null) ? { limits } : {}),
    calendar: due.calendar ? { categories: splitTags(due.categories), durationHours: Number(due.durationHours) } : null,
  };
}

/**
 * The contract's body for a complete state (`firstInvalid` is null). `note` makes each note safe to store (the
 * server's sanitizer); notes it leaves empty are dropped (spec 3 §2.4).
 */
export function toTemplateCreate(state: WizardState, workflowId: string, note: (html: string) => string): TemplateCreate {
  const fields = fieldsOf(state);
  return {
    workflowId,
    data: {
      title: state.title.trim(),
      uniqueness: state.uniqueness as TemplateCreate["data"]["uniqueness"],
      tags: state.tags,
      hidden: state.hidden,
      events: [
        {
          type: "create",
          code: state.code,
          predicates: withoutBlanks(state.predicates).map((g) => g.map((c) => predicateOf(c, fields))),
          action: {
            title: state.milestoneTitle.trim(),
            dueAt: dueValue(state.dueAt),
            clientDueDate: state.clientDue ? dueValue(state.clientDueDate) : null,
            assignees: state.assignees,
            notes: state.notes.map(note).filter((n) => n !== ""),
          },
        },
      ],
    },
  };
}

/**
 * The edits that the buttons of a page without JavaScript post (with JavaScript they happen in the browser): the
 * conditions editor's, Add and Remove note, Add variable (an assignee). Null when `intent` is none of them.
 */
export function applyIntent(state: WizardState, intent: string, form: FormData): WizardState | null {
  const predicates = applyConditionIntent(state.predicates, intent, "predicates");
  if (predicates) return { ...state, predicates };
  if (intent === "addNote") return state.notes.length < WORKFLOW_LIMITS.notes ? { ...state, notes: [...state.notes, ""] } : state;
  const remove = /^removeNote:(\d{1,3})$/.exec(intent);
  if (remove) return { ...state, notes: state.notes.filter((_, i) => i !== Number(remove[1])) };
  if (intent === "addAssigneeVariable") {
    const v = text(form, "assigneeVariable");
    const allowed = assigneeVariables(fieldsOf(state));
    return allowed.includes(v) && !state.assignees.includes(v) ? { ...state, assignees: [...state.assignees, v] } : state;
  }
  return null;
}
