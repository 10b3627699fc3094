/**
 * The table editor's forms read as graph edits: each form posts `intent=edit`, its `op` and its fields; this turns
 * them into the model's edits (graph-edits.ts), applied in turn and validated there. Pure (FormData in, edits out),
 * so the action and the tests share it; the canvas posts its edits as JSON (`edit`) instead.
 */
import { newVariableName, propertyName } from "@contract/graph";
import { newStepId, type GraphEditInput } from "@contract/graph-edits";
import type { PathAction, TemplateContent } from "@contract/milestone-templates";
import { DUE_MEASURES, STEP_TYPES, UNIQUENESS } from "@contract/workflow-constants";
import { FIELD_TYPES } from "@contract/workflow-contracts";
import { EVENT_COUNT, applyEventsIntent, eventErrors, eventValues, eventsOfDrafts, readEvents } from "./events";
import { ALTERNATIVE_FIELDS, alternativeErrors, alternativeValues, applyAlternativesIntent, conditionFields, fieldValue, readAlternatives } from "./alternatives";

export const EDIT_OPS = [
  "addStep",
  "updateStep",
  "deleteStep",
  "addPath",
  "updatePath",
  "deletePath",
  "addFormProperty",
  "deleteFormProperty",
  "updateFormProperty",
  "setAlternatives",
  "setTransitions",
  "addVariable",
  "updateVariable",
  "deleteVariable",
  "addStage",
  "renameStage",
  "deleteStage",
  "setStepStage",
  "setProperties",
] as const;
export type EditOp = (typeof EDIT_OPS)[number];

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v.trim() : "";
};
const checked = (form: FormData, name: string) => form.get(name) === "on" || form.get(name) === "true";
const oneOf = <T extends string>(values: readonly T[], value: string, fallback: T): T => ((values as readonly string[]).includes(value) ? (value as T) : fallback);
/** A number field: '' is none; anything else must parse (else NaN, which the model's schema refuses). */
const numberOf = (form: FormData, name: string): number | null => {
  const v = text(form, name);
  return v === "" ? null : Number(v);
};
/** A list typed as text: semicolons (or new lines) between items. */
export const listOf = (value: string) =>
  value
    .split(/[;\n]/)
    .map((s) => s.trim())
    .filter(Boolean);

const pathRef = (form: FormData) => ({ from: text(form, "from"), to: text(form, "to") });

/** The step fields of the step form (add and edit). */
function stepFields(form: FormData) {
  const duration = numberOf(form, "durationHours");
  return {
    title: text(form, "title"),
    durationHours: duration,
    isCriticalDate: checked(form, "isCriticalDate"),
    notification: oneOf(["", "always", "never"] as const, text(form, "notification"), ""),
    // Rich text as typed: the upstream's save sanitizes it and stores an empty paragraph as '' (spec 3 §5; one rule,
    // contract/rich-text.ts). Not here: the canvas runs this in the browser, which must not load the sanitizer.
    ...(form.has("instructions") ? { instructions: text(form, "instructions") } : {}),
    ...(form.has("code") ? { code: text(form, "code") } : {}),
  };
}

const isAlternatives = (v: unknown) => Array.isArray(v) && v.length > 0 && typeof v[0] === "object" && v[0] !== null && "predicates" in v[0];

/** The path form's to-action: task title, assignees and due time (predicates and alternatives stay as they are). */
function pathAction(form: FormData, before: TemplateContent["paths"][number]["to"]["action"] | undefined) {
  const title = text(form, "taskTitle");
  const assignees = listOf(text(form, "assignees"));
  const amount = numberOf(form, "dueAmount");
  // A field that holds conditional alternatives shows empty here (the alternatives form edits it): left empty, it stays.
  const list = <K extends "title" | "assignees" | "dueAt">(field: K) => (isAlternatives(before?.[field]) ? before?.[field] : undefined);
  return {
    ...(before ?? { predicates: [] }),
    title: title || list("title"),
    assignees: assignees.length ? assignees : list("assignees"),
    dueAt: amount === null ? list("dueAt") : { date: "{{now}}", amount, measures: oneOf(DUE_MEASURES, text(form, "dueMeasures"), "Days") },
  };
}

/**
 * The edits one table form asks for, against the document it edits (a new step's id, a form property added to the
 * path's form), or a message when the form names nothing the editor knows.
 */
export function editsOfForm(form: FormData, doc: TemplateContent): GraphEditInput[] | string {
  const op = text(form, "op") as EditOp;
  switch (op) {
    case "addStep": {
      const type = oneOf(STEP_TYPES, text(form, "type"), "task");
      const id = newStepId(doc, type);
      const f = stepFields(form);
      const stage = text(form, "stage");
      return [
        {
          type: "addStep",
          step: {
            id,
            type,
            title: f.title,
            ...(f.durationHours !== null ? { durationHours: f.durationHours } : {}),
            isCriticalDate: f.isCriticalDate,
            options: { notifications: { email: f.notification }, instructions: f.instructions ?? "" },
            display: { position: { x: 0, y: 0 } },
            ...(f.code ? { code: f.code } : {}),
          },
        },
        ...(stage ? [{ type: "setStepStage" as const, step: id, stage }] : []),
      ];
    }
    case "updateStep": {
      const id = text(form, "id");
      const stage = text(form, "stage");
      return [
        { type: "updateStep", id, fields: stepFields(form) },
        { type: "setStepStage", step: id, stage: stage || null },
      ];
    }
    case "deleteStep":
      return [{ type: "deleteSteps", steps: [text(form, "id")], paths: [] }];
    case "addPath": {
      const port = text(form, "port");
      const formName = text(form, "formName");
      return [
        {
          type: "addPath",
          path: {
            from: { step: text(form, "from"), ...(port ? { port } : {}), action: formName ? { form: { name: formName, properties: [] } } : {} },
            to: { step: text(form, "to"), action: pathAction(form, undefined) },
          },
        },
      ];
    }
    case "updatePath": {
      const ref = pathRef(form);
      const before = doc.paths.find((p) => p.from.step === ref.from && p.to.step === ref.to);
      const formName = text(form, "formName");
      const existing = before?.from.action.form ?? null;
      return [
        {
          type: "updatePath",
          ref,
          port: text(form, "port"),
          action: pathAction(form, before?.to.action),
          form: formName ? { name: formName, properties: existing?.properties ?? [] } : existing && existing.properties.length ? { ...existing, name: "" } : null,
        },
      ];
    }
    case "deletePath":
      return [{ type: "deletePath", ref: pathRef(form) }];
    case "addFormProperty":
    case "deleteFormProperty": {
      const ref = pathRef(form);
      const before = doc.paths.find((p) => p.from.step === ref.from && p.to.step === ref.to);
      const current = before?.from.action.form ?? { name: "", properties: [] };
      let properties = current.properties;
      if (op === "addFormProperty") {
        const name = text(form, "propertyName");
        const type = oneOf(FIELD_TYPES, text(form, "propertyType"), "string");
        properties = [
          ...properties,
          {
            name,
            type,
            // Spec 3 §5: boolean properties have no Required option.
            required: type !== "boolean" && checked(form, "required"),
            property: propertyName(name),
            description: "",
            saveTo: "",
            multiple: false,
            ext: [],
            search: [],
            tags: [],
            isRichText: type === "string",
          },
        ];
      } else {
        const index = Number(text(form, "index"));
        properties = properties.filter((_, i) => i !== index);
      }
      return [{ type: "updatePath", ref, form: { ...current, properties } }];
    }
    case "setAlternatives": {
      const ref = pathRef(form);
      const before = doc.paths.find((p) => p.from.step === ref.from && p.to.step === ref.to);
      if (!before) return [{ type: "updatePath", ref }];
      const field = oneOf(ALTERNATIVE_FIELDS, text(form, "field"), "title");
      const fields = conditionFields(doc.events);
      const drafts = readAlternatives(form, field, fields);
      const first = Object.values(alternativeErrors(field, drafts, fields))[0];
      if (first) return first;
      const action: Record<string, unknown> = { ...before.to.action };
      const value = fieldValue(field, drafts, fields);
      if (value === undefined) delete action[field];
      else action[field] = value;
      return [{ type: "updatePath", ref, action: action as PathAction }];
    }
    case "updateFormProperty": {
      const ref = pathRef(form);
      const current = doc.paths.find((p) => p.from.step === ref.from && p.to.step === ref.to)?.from.action.form;
      const index = Number(text(form, "index"));
      const before = current?.properties[index];
      if (!current || !before) return "This form property is no longer in the template.";
      const type = oneOf(FIELD_TYPES, text(form, "propertyType"), before.type);
      const { value: _value, ...rest } = before;
      const property = {
        // Spec 3 §5: changing the type clears the value.
        ...(type === before.type ? before : rest),
        type,
        description: text(form, "description"),
        saveTo: text(form, "saveTo"),
        // Spec 3 §5: a boolean has no Required, Rich Text applies to a string only; file options only to a file.
        required: type !== "boolean" && checked(form, "required"),
        isRichText: type === "string" && (type === before.type ? checked(form, "isRichText") : true),
        ext: type === "file" ? listOf(text(form, "ext")) : [],
        search: type === "file" ? listOf(text(form, "search")) : [],
        multiple: type === "file" && checked(form, "multiple"),
      };
      return [{ type: "updatePath", ref, form: { ...current, properties: current.properties.map((p, i) => (i === index ? property : p)) } }];
    }
    case "setTransitions": {
      const count = Math.min(Number(text(form, "count")) || 0, 51);
      const transitions = Array.from({ length: count }, (_, i) => ({
        current: text(form, `t.${i}.current`),
        next: text(form, `t.${i}.next`),
        enabled: checked(form, `t.${i}.enabled`),
        label: text(form, `t.${i}.label`),
        description: text(form, `t.${i}.description`),
        remove: checked(form, `t.${i}.remove`),
      }))
        // Removed rows, and the empty row left as it was, are not kept.
        .filter((t) => !t.remove && (t.current || t.next || t.label))
        .map(({ remove: _remove, ...t }) => t);
      return [{ type: "updateStep", id: text(form, "id"), fields: { transitions } }];
    }
    case "addVariable":
    case "updateVariable": {
      const variable = {
        name: text(form, "name") || (op === "addVariable" ? newVariableName(doc.variables.map((v) => v.name)) : ""),
        type: oneOf(["date", "datetime", "string", "number", "people"] as const, text(form, "variableType"), "string"),
        description: text(form, "description"),
        required: checked(form, "required"),
      };
      return op === "addVariable" ? [{ type: "addVariable", variable }] : [{ type: "updateVariable", name: text(form, "original"), variable }];
    }
    case "deleteVariable":
      return [{ type: "deleteVariable", name: text(form, "name") }];
    case "addStage":
      return [{ type: "addStage", name: text(form, "name") }];
    case "renameStage":
      return [{ type: "renameStage", name: text(form, "name"), to: text(form, "to") }];
    case "deleteStage":
      return [{ type: "deleteStage", name: text(form, "name") }];
    case "setStepStage":
      return [{ type: "setStepStage", step: text(form, "step"), stage: text(form, "stage") || null }];
    case "setProperties": {
      // The events travel with the properties when the form shows them (a post without them leaves them).
      const drafts = form.has(EVENT_COUNT) ? readEvents(form) : null;
      const problem = drafts ? Object.values(eventErrors(drafts))[0] : undefined;
      if (problem) return problem;
      return [
        {
          type: "setProperties",
          properties: {
            title: text(form, "title"),
            uniqueness: oneOf(UNIQUENESS, text(form, "uniqueness"), "repeatable"),
            tags: listOf(text(form, "tags")),
            hidden: checked(form, "hidden"),
            ...(drafts ? { events: eventsOfDrafts(drafts, doc.events) } : {}),
          },
        },
      ];
    }
    default:
      return "Unknown change.";
  }
}

/**
 * A post made by one of a form's structural buttons, of the alternatives form (Add alternative, Remove, the
 * conditions editor's Add group and the like) or of the properties' events (Add event, Add note, their conditions'):
 * the form's values after that change, to show again; null for any other post.
 */
export function alternativesStructure(form: FormData, doc: TemplateContent): Record<string, string> | null {
  const intents = form.getAll("intent").filter((v): v is string => typeof v === "string" && v !== "edit");
  if (intents.length === 0) return null;
  if (text(form, "op") === "setProperties") {
    const next = applyEventsIntent(readEvents(form), intents);
    if (!next) return null;
    const kept = Object.fromEntries([...form.entries()].filter((e): e is [string, string] => typeof e[1] === "string" && !e[0].startsWith("events.") && e[0] !== EVENT_COUNT && e[0] !== "intent"));
    return { ...kept, ...eventValues(next) };
  }
  if (text(form, "op") !== "setAlternatives") return null;
  const field = oneOf(ALTERNATIVE_FIELDS, text(form, "field"), "title");
  const drafts = readAlternatives(form, field, conditionFields(doc.events));
  const next = applyAlternativesIntent(drafts, intents, field) ?? drafts;
  const kept = Object.fromEntries([...form.entries()].filter((e): e is [string, string] => typeof e[1] === "string" && !/^\w+\.\d/.test(e[0]) && e[0] !== "count" && e[0] !== "intent"));
  return { ...kept, ...alternativeValues(field, next) };
}
