/**
 * The conditions (predicates) editor's model (spec 3 §2.5), apart from any screen: OR between groups, AND inside a
 * group; a condition is a `{{field}}` of the event's contract, a function of the contracts that applies to the field's
 * type, and its arguments. What the editor keeps is a draft of strings (what was typed stays, even when invalid); the
 * contract's `Predicate` is made from it once it is valid. The creation wizard and the template editor's connection
 * editor both use it.
 */
import { DUE_MEASURES, WORKFLOW_LIMITS } from "@contract/workflow-constants";
import { type ContractField, type DueAt, type FieldType, PLACEHOLDER, type Predicate, PREDICATE_FUNCTIONS, type PredicateFunction } from "@contract/workflow-contracts";
import { CONDITION_TEXTS as T } from "./texts";

/** A date argument as typed: a due-date object's base variable, amount and measures (spec: "a date gives an object"). */
export type DueDraft = { date: string; amount: string; measures: string };

/** One condition as the editor holds it. `value` is the text of a single value, or of a list joined by ";". */
export type ConditionDraft = { field: string; function: string; value: string; due: DueDraft };
export type ConditionGroups = ConditionDraft[][];

/** What an argument widget is, by the function and the field's type. */
export type ValueKind = "none" | "text" | "number" | "boolean" | "list" | "date";

export const NOW = "{{now}}";
export const EMPTY_DUE: DueDraft = { date: NOW, amount: "0", measures: "Days" };
export const EMPTY_CONDITION: ConditionDraft = { field: "", function: "", value: "", due: EMPTY_DUE };

/** `{{name}}` of a contract field. */
export const placeholderOf = (name: string) => `{{${name}}}`;
/** The field name of `{{name}}`, or null. */
export function fieldNameOf(field: string): string | null {
  return PLACEHOLDER.exec(field.trim())?.[1] ?? null;
}

export function fieldOf(fields: readonly ContractField[], field: string): ContractField | undefined {
  const name = fieldNameOf(field);
  return name === null ? undefined : fields.find((f) => f.name === name);
}

/** The functions that apply to a field type, in the contracts' order. */
export function functionsFor(type: FieldType | undefined): PredicateFunction[] {
  return type ? PREDICATE_FUNCTIONS.filter((f) => f.types.includes(type)) : [];
}

/** The argument widget of `fn` on a field of `type`: none, one value (text, number, true/false), a list, a due date. */
export function valueKind(fn: string, type: FieldType | undefined): ValueKind {
  const f = PREDICATE_FUNCTIONS.find((p) => p.name === fn);
  if (!f || f.arguments.length === 0 || !type) return "none";
  if (f.arguments[0] === "values" || (type === "people" && fn !== "contains")) return "list";
  if (f.arguments[0] === "date" || type === "date" || type === "datetime") return "date";
  if (type === "number") return "number";
  if (type === "boolean") return "boolean";
  return "text";
}

/** Choosing a field resets the function (to the first that applies to its type) and the value (spec 3 §2.5). */
export function withField(condition: ConditionDraft, field: string, fields: readonly ContractField[]): ConditionDraft {
  if (field === condition.field) return condition;
  const type = fieldOf(fields, field)?.type;
  return { field, function: functionsFor(type)[0]?.name ?? "", value: "", due: EMPTY_DUE };
}

/** Changing the function resets the value by the field's type: a date gives a due-date object, people a list. */
export function withFunction(condition: ConditionDraft, fn: string): ConditionDraft {
  if (fn === condition.function) return condition;
  return { ...condition, function: fn, value: "", due: EMPTY_DUE };
}

/**
 * The resets of §2.5 for a post made without JavaScript, where the browser could not apply them as the user chose:
 * `before` is the condition as the page showed it. A new field resets the function unless the user also chose one
 * that applies to it, and the value; a new function resets the value when it needs another widget (a list instead of
 * one value). `changed` says the page must show the result before going on (the function list and value widget
 * follow the field).
 */
export function reconcile(before: ConditionDraft, after: ConditionDraft, fields: readonly ContractField[]): { condition: ConditionDraft; changed: boolean } {
  if (after.field !== before.field) {
    const type = fieldOf(fields, after.field)?.type;
    const keep = after.function !== before.function && functionsFor(type).some((f) => f.name === after.function);
    const reset = withField(before, after.field, fields);
    return { condition: keep ? { ...reset, function: after.function } : reset, changed: true };
  }
  if (after.function !== before.function) {
    // The value typed in the same post stays when its widget did not change (a number for greaterThan as for equals).
    const type = fieldOf(fields, after.field)?.type;
    if (valueKind(after.function, type) === valueKind(before.function, type)) return { condition: after, changed: false };
    return { condition: withFunction(before, after.function), changed: true };
  }
  return { condition: after, changed: false };
}

/** The date variables a due date may start from: `{{now}}` and the event's date and date-time fields. */
export function dateVariables(fields: readonly ContractField[]): { value: string; type: FieldType }[] {
  return [
    { value: NOW, type: "datetime" },
    ...fields.filter((f) => f.type === "date" || f.type === "datetime").map((f) => ({ value: placeholderOf(f.name), type: f.type })),
  ];
}

/**
 * The measures offered for a base date: the calendar ones, plus Hours and Minutes when time is used — the base is
 * `{{now}}` or a date-time field (a plain date has no time of day to move).
 */
export function measuresFor(date: string, fields: readonly ContractField[]): string[] {
  const usesTime = date.trim() === NOW || fieldOf(fields, date)?.type !== "date";
  return DUE_MEASURES.filter((m) => usesTime || (m !== "Hours" && m !== "Minutes"));
}

const WHOLE = /^-?\d+$/;

/** A due date's base, amount and measures as the contract's object, or the messages by part. */
export function dueOf(draft: DueDraft): { value: Pick<DueAt, "date" | "amount" | "measures"> } | { errors: Partial<Record<keyof DueDraft, string>> } {
  const errors: Partial<Record<keyof DueDraft, string>> = {};
  const amount = Number(draft.amount.trim());
  if (!WHOLE.test(draft.amount.trim()) || Math.abs(amount) > WORKFLOW_LIMITS.amount) errors.amount = T.amount(WORKFLOW_LIMITS.amount);
  if (!(DUE_MEASURES as readonly string[]).includes(draft.measures)) errors.measures = T.measures;
  if (draft.date.trim() === "") errors.date = T.dateRequired;
  if (Object.keys(errors).length) return { errors };
  return { value: { date: draft.date.trim(), amount, measures: draft.measures as DueAt["measures"] } };
}

/** Splits a list value (";" between entries), trimmed, empty entries dropped. */
export const listOf = (value: string) =>
  value
    .split(";")
    .map((v) => v.trim())
    .filter(Boolean);

/** A condition's messages, keyed by its part (`field`, `function`, `value`, `due.amount`…); none when it is valid. */
export function conditionErrors(c: ConditionDraft, fields: readonly ContractField[]): Record<string, string> {
  const field = fieldOf(fields, c.field);
  if (!field) return { field: T.fieldRequired };
  if (!functionsFor(field.type).some((f) => f.name === c.function)) return { function: T.functionRequired };
  const kind = valueKind(c.function, field.type);
  if (kind === "number" && (c.value.trim() === "" || !Number.isFinite(Number(c.value)))) return { value: T.number };
  if (kind === "boolean" && c.value !== "true" && c.value !== "false") return { value: T.booleanRequired };
  if (kind === "list" && listOf(c.value).length === 0) return { value: T.listRequired };
  if (kind === "date") {
    const due = dueOf(c.due);
    if ("errors" in due) return Object.fromEntries(Object.entries(due.errors).map(([k, v]) => [`due.${k}`, v]));
  }
  return {};
}

/** A condition left as it was added (no field chosen): nothing to say, so it is dropped rather than refused. */
export const isBlank = (c: ConditionDraft) => c.field.trim() === "";

/** The contract's predicate of a valid condition. */
export function predicateOf(c: ConditionDraft, fields: readonly ContractField[]): Predicate {
  const type = fieldOf(fields, c.field)?.type;
  const kind = valueKind(c.function, type);
  const field = c.field.trim();
  switch (kind) {
    case "none":
      return { field, function: c.function, arguments: [] };
    case "number":
      return { field, function: c.function, arguments: [Number(c.value)] };
    case "boolean":
      return { field, function: c.function, arguments: [c.value === "true"] };
    case "list":
      return { field, function: c.function, arguments: [listOf(c.value)] };
    case "date": {
      const due = dueOf(c.due);
      return { field, function: c.function, arguments: "value" in due ? [due.value] : [] };
    }
    default:
      return { field, function: c.function, arguments: [c.value] };
  }
}

/** The groups without blank conditions and then without empty groups. */
export const withoutBlanks = (groups: ConditionGroups): ConditionGroups => groups.map((g) => g.filter((c) => !isBlank(c))).filter((g) => g.length > 0);

/** A contract predicate back as a draft (the connection editor opens saved conditions). */
export function draftOf(p: Predicate): ConditionDraft {
  const [first] = p.arguments;
  if (first && typeof first === "object" && !Array.isArray(first)) {
    const d = first as DueAt;
    return { field: p.field, function: p.function, value: "", due: { date: d.date, amount: String(d.amount), measures: d.measures } };
  }
  const value = Array.isArray(first) ? first.map(String).join("; ") : first === undefined || first === null ? "" : String(first);
  return { field: p.field, function: p.function, value, due: EMPTY_DUE };
}

const quote = (v: string) => `"${v}"`;

/** One condition as text: `{{title}} contains "office action"`, `{{receivedAt}} is before {{now}} + 2 Days`. */
export function conditionText(c: ConditionDraft, fields: readonly ContractField[]): string {
  const fn = PREDICATE_FUNCTIONS.find((f) => f.name === c.function);
  const words = fn?.description ?? c.function;
  const type = fieldOf(fields, c.field)?.type;
  const kind = valueKind(c.function, type);
  const arg =
    kind === "none"
      ? ""
      : kind === "date"
        ? ` ${c.due.date} ${Number(c.due.amount) < 0 ? "-" : "+"} ${Math.abs(Number(c.due.amount)) || 0} ${c.due.measures}`
        : kind === "list"
          ? ` (${listOf(c.value).map(quote).join(", ")})`
          : ` ${quote(c.value)}`;
  return `${c.field || T.noField} ${words}${arg}`;
}

/** The read-only text mode: each group's conditions joined by AND, the groups by OR; "Always" when there are none. */
export function groupsText(groups: ConditionGroups, fields: readonly ContractField[]): string {
  const kept = withoutBlanks(groups);
  if (kept.length === 0) return T.always;
  return kept.map((g) => g.map((c) => conditionText(c, fields)).join(" AND ")).map((t, _, all) => (all.length > 1 ? `(${t})` : t)).join(" OR ");
}

/**
 * The editor's buttons without JavaScript post `intent` as `${name}:op[:group[:condition]]`; the same edits with
 * JavaScript happen in the browser. Answers the edited groups, or null when `intent` is not one of them.
 */
export function applyConditionIntent(groups: ConditionGroups, intent: string, name: string): ConditionGroups | null {
  if (!intent.startsWith(`${name}:`)) return null;
  const [op, a, b] = intent.slice(name.length + 1).split(":");
  const g = Number(a);
  const c = Number(b);
  switch (op) {
    case "apply":
      return groups;
    case "addGroup":
      return groups.length >= WORKFLOW_LIMITS.predicateGroups ? groups : [...groups, [EMPTY_CONDITION]];
    case "removeGroup":
      return groups.filter((_, i) => i !== g);
    case "addCondition":
      return groups.map((group, i) => (i === g && group.length < WORKFLOW_LIMITS.predicatesPerGroup ? [...group, EMPTY_CONDITION] : group));
    case "removeCondition":
      return groups.map((group, i) => (i === g ? group.filter((_, j) => j !== c) : group)).filter((group) => group.length > 0);
    default:
      return null;
  }
}

/**
 * The groups posted under `name` (`${name}.${g}.${c}.field` …), each condition reconciled with what the page showed
 * (`prevField`, `prevFunction`; see `reconcile`). `changed`: a reset happened that the user has not seen yet.
 */
export function readConditions(form: FormData, name: string, fields: readonly ContractField[]): { groups: ConditionGroups; changed: boolean } {
  const text = (key: string) => {
    const v = form.get(`${name}.${key}`);
    return typeof v === "string" ? v : "";
  };
  const rows = new Map<number, Set<number>>();
  const pattern = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.(\\d{1,3})\\.(\\d{1,3})\\.field$`);
  for (const key of form.keys()) {
    const m = pattern.exec(key);
    if (!m) continue;
    const g = Number(m[1]);
    const c = Number(m[2]);
    if (g >= WORKFLOW_LIMITS.predicateGroups || c >= WORKFLOW_LIMITS.predicatesPerGroup) continue;
    if (!rows.has(g)) rows.set(g, new Set());
    rows.get(g)!.add(c);
  }
  let changed = false;
  const groups = [...rows.keys()]
    .sort((x, y) => x - y)
    .map((g) =>
      [...rows.get(g)!]
        .sort((x, y) => x - y)
        .map((c) => {
          const at = `${g}.${c}`;
          const after: ConditionDraft = {
            field: text(`${at}.field`),
            function: text(`${at}.function`),
            value: text(`${at}.value`),
            due: { date: text(`${at}.due.date`) || NOW, amount: text(`${at}.due.amount`) || "0", measures: text(`${at}.due.measures`) || "Days" },
          };
          const before = { ...after, field: text(`${at}.prevField`), function: text(`${at}.prevFunction`) };
          const result = reconcile(before, after, fields);
          if (result.changed) changed = true;
          return result.condition;
        }),
    );
  return { groups, changed };
}

/** Every message of the groups by form name (`${name}.${g}.${c}.${part}`); blank conditions are not checked. */
export function groupErrors(groups: ConditionGroups, fields: readonly ContractField[], name: string): Record<string, string> {
  const out: Record<string, string> = {};
  groups.forEach((group, g) =>
    group.forEach((c, i) => {
      if (isBlank(c)) return;
      for (const [part, message] of Object.entries(conditionErrors(c, fields))) out[`${name}.${g}.${i}.${part}`] = message;
    }),
  );
  return out;
}

