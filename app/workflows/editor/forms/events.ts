/**
 * The template's events (spec 3 §3 Event, §2.6 properties) as the Properties form holds them: drafts of strings
 * (type, event code, conditions, milestone title, notes, and an update's outcome: finish or delete, never both), read
 * from a post, written back as the values a re-rendered form starts from, and made the contract's events once valid.
 * What the form does not show (due dates, assignees) is kept from the event each draft came from (`origin`). Pure,
 * shared by the form, the action and the tests, as alternatives.ts is for a path's fields.
 */
import type { TemplateEvent } from "@contract/milestone-templates";
import { DEFAULT_MILESTONE_TITLE, WORKFLOW_LIMITS, WORKFLOW_MESSAGES as M } from "@contract/workflow-constants";
import { EVENT_SOURCES } from "@contract/workflow-contracts";
import { applyConditionIntent, draftOf, groupErrors, predicateOf, readConditions, withoutBlanks, type ConditionGroups } from "../../conditions/model";
import { conditionFields } from "./alternatives";

export const EVENT_TYPES = ["create", "update"] as const;
export const EVENT_OUTCOMES = ["", "finish", "delete"] as const;
export type EventDraft = {
  /** The index in the template's events this draft came from; '' for a new one. */
  origin: string;
  type: (typeof EVENT_TYPES)[number];
  code: string;
  groups: ConditionGroups;
  title: string;
  notes: string[];
  /** An update event's outcome (spec 3 §3: setting delete clears finish and the reverse, so one choice). */
  outcome: (typeof EVENT_OUTCOMES)[number];
};

/** The form names of event `i`: its conditions post under it (the conditions editor's). */
export const eventName = (i: number) => `events.${i}`;
export const EVENT_COUNT = "eventCount";

/** Every event an event source offers, by code (the contract's names). */
export const EVENT_CODE_OPTIONS = EVENT_SOURCES.flatMap((s) => s.events.map((e) => ({ value: e.code, label: `${e.name} (${s.source})` })));

/** The contract fields an event's conditions may name. */
export const fieldsOfCode = (code: string) => conditionFields([{ code }]);

export function eventDraftsOf(events: readonly TemplateEvent[]): EventDraft[] {
  return events.map((e, i) => ({
    origin: String(i),
    type: e.type,
    code: e.code,
    groups: e.predicates.map((g) => g.map(draftOf)),
    title: e.action.title,
    notes: [...e.action.notes],
    outcome: e.action.delete ? "delete" : e.action.finish ? "finish" : "",
  }));
}

const get = (form: FormData, key: string) => {
  const v = form.get(key);
  return typeof v === "string" ? v : "";
};
const oneOf = <T extends string>(values: readonly T[], value: string, fallback: T): T => ((values as readonly string[]).includes(value) ? (value as T) : fallback);

/** The drafts a post carries (`eventCount` of them; a note is `events.i.notes.n`). */
export function readEvents(form: FormData): EventDraft[] {
  const count = Math.min(Math.max(Number(get(form, EVENT_COUNT)) || 0, 0), WORKFLOW_LIMITS.events);
  return Array.from({ length: count }, (_, i) => {
    const name = eventName(i);
    const code = get(form, `${name}.code`).trim();
    const notePattern = new RegExp(`^events\\.${i}\\.notes\\.(\\d{1,3})$`);
    const notes = [...form.keys()]
      .map((k) => notePattern.exec(k))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b)
      .filter((n, j, all) => all.indexOf(n) === j)
      .slice(0, WORKFLOW_LIMITS.notes)
      .map((n) => get(form, `${name}.notes.${n}`));
    return {
      origin: get(form, `${name}.origin`),
      type: oneOf(EVENT_TYPES, get(form, `${name}.type`), "create"),
      code,
      groups: readConditions(form, name, fieldsOfCode(code)).groups,
      title: get(form, `${name}.title`),
      notes,
      outcome: oneOf(EVENT_OUTCOMES, get(form, `${name}.outcome`), ""),
    };
  });
}

/** The drafts as form values: what a form re-rendered after a structural post starts from. */
export function eventValues(drafts: readonly EventDraft[]): Record<string, string> {
  const out: Record<string, string> = { [EVENT_COUNT]: String(drafts.length) };
  drafts.forEach((d, i) => {
    const name = eventName(i);
    Object.assign(out, { [`${name}.origin`]: d.origin, [`${name}.type`]: d.type, [`${name}.code`]: d.code, [`${name}.title`]: d.title, [`${name}.outcome`]: d.outcome });
    d.notes.forEach((n, j) => (out[`${name}.notes.${j}`] = n));
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

/** A new event: a creation event with the wizard's default milestone title (spec 3 §2.4), its event to choose. */
export const newEvent = (): EventDraft => ({ origin: "", type: "create", code: "", groups: [], title: DEFAULT_MILESTONE_TITLE, notes: [], outcome: "" });

/**
 * The structural buttons (they post without JavaScript; with it the form changes in the page): Add event, Remove
 * event i, Add note and Remove note of event i, and the conditions editor's own (`events.i:addGroup` …). Null when
 * none of them was pressed (the form's Apply).
 */
export function applyEventsIntent(drafts: EventDraft[], intents: readonly string[]): EventDraft[] | null {
  for (const intent of intents) {
    if (intent === "events:add") return drafts.length >= WORKFLOW_LIMITS.events ? drafts : [...drafts, newEvent()];
    const remove = /^events:remove:(\d{1,3})$/.exec(intent);
    if (remove) return drafts.filter((_, j) => j !== Number(remove[1]));
    const note = /^events\.(\d{1,3}):(addNote|removeNote:(\d{1,3}))$/.exec(intent);
    if (note) {
      const i = Number(note[1]);
      return drafts.map((d, j) => {
        if (j !== i) return d;
        if (note[2] === "addNote") return d.notes.length >= WORKFLOW_LIMITS.notes ? d : { ...d, notes: [...d.notes, ""] };
        return { ...d, notes: d.notes.filter((_, n) => n !== Number(note[3])) };
      });
    }
    for (let i = 0; i < drafts.length; i++) {
      const groups = applyConditionIntent(drafts[i]!.groups, intent, eventName(i));
      if (groups) return drafts.map((d, j) => (j === i ? { ...d, groups } : d));
    }
  }
  return null;
}

/** The drafts' messages by form name: an event code and a creation event's milestone title are required (§5). */
export function eventErrors(drafts: readonly EventDraft[]): Record<string, string> {
  const out: Record<string, string> = {};
  drafts.forEach((d, i) => {
    const name = eventName(i);
    if (!d.code) out[`${name}.code`] = M.eventCodeRequired;
    if (d.type === "create" && !d.title.trim()) out[`${name}.title`] = M.milestoneTitleRequired;
    Object.assign(out, groupErrors(d.groups, fieldsOfCode(d.code), name));
  });
  return out;
}

/** The contract's events for valid drafts (`eventErrors` empty), what the form does not show kept from their origin. */
export function eventsOfDrafts(drafts: readonly EventDraft[], before: readonly TemplateEvent[]) {
  return drafts.map((d) => {
    const base = d.origin === "" ? undefined : before[Number(d.origin)];
    const fields = fieldsOfCode(d.code);
    const update = d.type === "update";
    return {
      type: d.type,
      code: d.code,
      predicates: withoutBlanks(d.groups).map((g) => g.map((c) => predicateOf(c, fields))),
      action: {
        ...(base?.action ?? {}),
        title: d.title.trim(),
        notes: d.notes,
        finish: update && d.outcome === "finish",
        delete: update && d.outcome === "delete",
      },
    };
  });
}
