/**
 * A path action's fields as lists of conditional alternatives (spec 3 §3 Path: each alternative is predicates and a
 * value, the last one the 'else'), as the table editor's form holds them: drafts of strings (what was typed stays),
 * read from a post, written back as the values a re-rendered form starts from, and made the contract's field once
 * valid. Pure, shared by the form, the action and the tests.
 */
import type { PathAction } from "@contract/milestone-templates";
import { EVENT_SOURCES, type ContractField, type Predicate } from "@contract/workflow-contracts";
import { WORKFLOW_LIMITS } from "@contract/workflow-constants";
import {
  EMPTY_DUE,
  applyConditionIntent,
  draftOf,
  dueOf,
  groupErrors,
  listOf,
  predicateOf,
  readConditions,
  withoutBlanks,
  type ConditionGroups,
  type DueDraft,
} from "../../conditions/model";

/** The to-action's fields that may be conditional, and how each value is typed. */
export const ALTERNATIVE_FIELDS = ["title", "assignees", "dueAt", "startAt", "notes"] as const;
export type AlternativeField = (typeof ALTERNATIVE_FIELDS)[number];
export const isDateField = (f: AlternativeField) => f === "dueAt" || f === "startAt";

/** One alternative as typed: its condition groups (none for the else) and its value (text, or a due date's parts). */
export type AlternativeDraft = { groups: ConditionGroups; value: string; due: DueDraft };

/** The form names of alternative `i` of `field`: its conditions post under `${field}.${i}` (the conditions editor's). */
export const altName = (field: AlternativeField, i: number) => `${field}.${i}`;

/** The contract fields a path's conditions may name: those of the template's creation event. */
export function conditionFields(events: readonly { code: string }[]): ContractField[] {
  for (const e of events) {
    for (const s of EVENT_SOURCES) {
      const found = s.events.find((x) => x.code === e.code);
      if (found) return found.contract;
    }
  }
  return [];
}

type Alternatives<T> = T | { predicates: Predicate[][]; value: T }[] | undefined;

function valueText(field: AlternativeField, v: unknown): { value: string; due: DueDraft } {
  if (isDateField(field)) {
    const d = (v ?? {}) as { date?: string; amount?: number; measures?: string };
    return { value: "", due: v ? { date: d.date ?? EMPTY_DUE.date, amount: String(d.amount ?? 0), measures: d.measures ?? "Days" } : EMPTY_DUE };
  }
  if (Array.isArray(v)) return { value: v.map(String).join(field === "notes" ? "\n" : "; "), due: EMPTY_DUE };
  return { value: v === undefined || v === null ? "" : String(v), due: EMPTY_DUE };
}

/** The drafts of a saved field: its alternatives, or its plain value as the one 'else'. */
export function draftsOf(field: AlternativeField, action: PathAction | undefined): AlternativeDraft[] {
  const current = action?.[field] as Alternatives<unknown>;
  const isList = Array.isArray(current) && current.length > 0 && typeof current[0] === "object" && current[0] !== null && "predicates" in current[0];
  if (!isList) return [{ groups: [], ...valueText(field, current) }];
  return (current as { predicates: Predicate[][]; value: unknown }[]).map((a) => ({
    groups: a.predicates.map((g) => g.map(draftOf)),
    ...valueText(field, a.value),
  }));
}

const get = (form: FormData, key: string) => {
  const v = form.get(key);
  return typeof v === "string" ? v : "";
};

/** The drafts a post carries (`count` alternatives; the last one's conditions are not read: it is the else). */
export function readAlternatives(form: FormData, field: AlternativeField, fields: readonly ContractField[]): AlternativeDraft[] {
  const count = Math.min(Math.max(Number(get(form, "count")) || 1, 1), WORKFLOW_LIMITS.alternatives);
  return Array.from({ length: count }, (_, i) => {
    const name = altName(field, i);
    return {
      groups: i === count - 1 ? [] : readConditions(form, name, fields).groups,
      value: get(form, `${name}.value`),
      due: { date: get(form, `${name}.due.date`) || EMPTY_DUE.date, amount: get(form, `${name}.due.amount`).trim(), measures: get(form, `${name}.due.measures`) || "Days" },
    };
  });
}

/** The drafts as form values: what a form re-rendered after a structural post (Add alternative, Add group) starts from. */
export function alternativeValues(field: AlternativeField, drafts: readonly AlternativeDraft[]): Record<string, string> {
  const out: Record<string, string> = { count: String(drafts.length) };
  drafts.forEach((d, i) => {
    const name = altName(field, i);
    out[`${name}.value`] = d.value;
    out[`${name}.due.date`] = d.due.date;
    out[`${name}.due.amount`] = d.due.amount;
    out[`${name}.due.measures`] = d.due.measures;
    d.groups.forEach((g, gi) =>
      g.forEach((c, ci) => {
        const at = `${name}.${gi}.${ci}`;
        Object.assign(out, { [`${at}.field`]: c.field, [`${at}.prevField`]: c.field, [`${at}.function`]: c.function, [`${at}.prevFunction`]: c.function, [`${at}.value`]: c.value });
        Object.assign(out, { [`${at}.due.date`]: c.due.date, [`${at}.due.amount`]: c.due.amount, [`${at}.due.measures`]: c.due.measures });
      }),
    );
  });
  return out;
}

/** A form's values back as FormData (the form reads a refused or structural post's values as it reads a post). */
export function formDataOf(values: Record<string, string>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(values)) form.append(k, v);
  return form;
}

/**
 * The structural buttons of the form (they post instead of changing the page without JavaScript): Add alternative
 * (a new one before the else), Remove alternative i, and the conditions editor's own (`${field}.${i}:addGroup` …).
 * Answers the edited drafts, or null when the post is the form's Apply.
 */
export function applyAlternativesIntent(drafts: AlternativeDraft[], intents: readonly string[], field: AlternativeField): AlternativeDraft[] | null {
  for (const intent of intents) {
    if (intent === `${field}:add`) {
      if (drafts.length >= WORKFLOW_LIMITS.alternatives) return drafts;
      return [...drafts.slice(0, -1), { groups: [[]], value: "", due: EMPTY_DUE }, drafts[drafts.length - 1]!];
    }
    const remove = new RegExp(`^${field}:remove:(\\d{1,3})$`).exec(intent);
    if (remove) {
      const i = Number(remove[1]);
      return i < drafts.length - 1 ? drafts.filter((_, j) => j !== i) : drafts;
    }
    for (let i = 0; i < drafts.length - 1; i++) {
      const groups = applyConditionIntent(drafts[i]!.groups, intent, altName(field, i));
      if (groups) return drafts.map((d, j) => (j === i ? { ...d, groups } : d));
    }
  }
  return null;
}

/** The messages of the drafts' conditions and due dates (the first one is what a refused post says). */
export function alternativeErrors(field: AlternativeField, drafts: readonly AlternativeDraft[], fields: readonly ContractField[]): Record<string, string> {
  const out: Record<string, string> = {};
  drafts.forEach((d, i) => {
    const name = altName(field, i);
    if (i < drafts.length - 1) Object.assign(out, groupErrors(d.groups, fields, name));
    if (isDateField(field) && (d.due.amount.trim() !== "" || i < drafts.length - 1)) {
      const due = dueOf(d.due);
      if ("errors" in due) for (const [k, m] of Object.entries(due.errors)) out[`${name}.due.${k}`] = m;
    }
  });
  return out;
}

function valueOfDraft(field: AlternativeField, d: AlternativeDraft): unknown {
  if (isDateField(field)) {
    // An empty amount is no date (the else of a field that is not set).
    if (d.due.amount.trim() === "") return undefined;
    const due = dueOf(d.due);
    return "value" in due ? due.value : undefined;
  }
  if (field === "assignees") return listOf(d.value);
  if (field === "notes") return d.value.split(/\n\s*\n|\n/).map((s) => s.trim()).filter(Boolean);
  return d.value.trim();
}

const isEmpty = (v: unknown) => v === undefined || v === "" || (Array.isArray(v) && v.length === 0);

/**
 * The field's new value: one alternative is a plain value (none when empty); more are the list, the last one's
 * predicates empty (the else). Conditions left blank are dropped.
 */
export function fieldValue(field: AlternativeField, drafts: readonly AlternativeDraft[], fields: readonly ContractField[]): unknown {
  if (drafts.length === 1) {
    const v = valueOfDraft(field, drafts[0]!);
    return isEmpty(v) ? undefined : v;
  }
  return drafts.map((d, i) => ({
    predicates: i === drafts.length - 1 ? [] : withoutBlanks(d.groups).map((g) => g.map((c) => predicateOf(c, fields))),
    value: valueOfDraft(field, d) ?? (isDateField(field) ? {} : field === "title" ? "" : []),
  }));
}
