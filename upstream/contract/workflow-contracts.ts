/**
 * The contracts of the docket (spec 3 §2.5, §3, §9; `GET .../settings/contracts`): event sources, their event codes
 * and fields, the predicate functions by field type, and the due-date object predicates and milestones share. One
 * definition that the conditions editor, the upstream's validators and the engine all read.
 */
import { z } from "zod";
import { boundedList, boundedText, limitText } from "./common";
import { DUE_MEASURES, TASK_STATUSES, TERMINAL_TASK_STATUSES, WORKFLOW_LIMITS } from "./workflow-constants";

// ---------------------------------------------------------------------------------------------------------------
// Predicates and the contracts (spec 3 §2.5, §3, §9)
// ---------------------------------------------------------------------------------------------------------------

/** Field types of event contracts, variables and form properties (spec 3 §5). */
export const FIELD_TYPES = ["string", "number", "date", "datetime", "people", "boolean", "email", "file", "formPicker"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** A predicate function: its name, the arguments it takes, which field types it applies to. */
export type PredicateFunction = { name: string; arguments: string[]; description: string; types: FieldType[] };

/**
 * The predicate functions by field type. A date argument is a due-date object `{ date, amount, measures }` (a date
 * gives an object), `in`/`notIn` of people take a list; the others one value.
 */
export const PREDICATE_FUNCTIONS: readonly PredicateFunction[] = [
  { name: "equals", arguments: ["value"], description: "is equal to", types: ["string", "number", "email", "boolean", "formPicker"] },
  { name: "notEquals", arguments: ["value"], description: "is not equal to", types: ["string", "number", "email", "boolean", "formPicker"] },
  { name: "contains", arguments: ["value"], description: "contains (ignoring case)", types: ["string", "email", "people"] },
  { name: "startsWith", arguments: ["value"], description: "starts with (ignoring case)", types: ["string", "email"] },
  { name: "in", arguments: ["values"], description: "is one of", types: ["string", "email", "people", "number"] },
  { name: "notIn", arguments: ["values"], description: "is none of", types: ["string", "email", "people", "number"] },
  { name: "greaterThan", arguments: ["value"], description: "is greater than", types: ["number"] },
  { name: "lessThan", arguments: ["value"], description: "is less than", types: ["number"] },
  { name: "before", arguments: ["date"], description: "is before", types: ["date", "datetime"] },
  { name: "after", arguments: ["date"], description: "is after", types: ["date", "datetime"] },
  { name: "isEmpty", arguments: [], description: "is empty", types: ["string", "number", "date", "datetime", "people", "email", "file", "formPicker"] },
  { name: "isNotEmpty", arguments: [], description: "is not empty", types: ["string", "number", "date", "datetime", "people", "email", "file", "formPicker"] },
  { name: "isTrue", arguments: [], description: "is true", types: ["boolean"] },
  { name: "isFalse", arguments: [], description: "is false", types: ["boolean"] },
];
export const PREDICATE_FUNCTION_NAMES = PREDICATE_FUNCTIONS.map((f) => f.name);

/** One field of an event's contract: `{{name}}` in predicates and variables. */
export type ContractField = { name: string; type: FieldType };
export type ContractEvent = { code: string; name: string; contract: ContractField[] };
export type EventSource = { source: string; canCreateMilestone: boolean; type: string; events: ContractEvent[] };

export const EVENT_CODES = {
  milestoneCreated: "workflow.milestone.created",
  next: "workflow.next",
  /** Spelt so by the spec (§9): the mail-received output key. */
  correspondence: "correspondence.recieved",
  applicationCreated: "portfolio.application.created",
  applicationUpdated: "portfolio.application.updated",
} as const;

const milestoneFields: ContractField[] = [
  { name: "reference", type: "string" },
  { name: "clientCode", type: "string" },
  { name: "title", type: "string" },
  { name: "templateTitle", type: "string" },
  { name: "dueAt", type: "datetime" },
  { name: "clientDueDate", type: "datetime" },
  { name: "assignees", type: "people" },
  { name: "createdAt", type: "datetime" },
];
const applicationFields: ContractField[] = [
  { name: "reference", type: "string" },
  { name: "clientCode", type: "string" },
  { name: "title", type: "string" },
  { name: "portfolioId", type: "string" },
  { name: "tags", type: "people" },
  { name: "broadScore", type: "number" },
  { name: "detectableScore", type: "number" },
  { name: "createdAt", type: "datetime" },
  { name: "updatedAt", type: "datetime" },
  { name: "createdBy", type: "email" },
  { name: "updatedBy", type: "email" },
];

/**
 * The event sources (spec 3 §9): `milestone-start` (a milestone's own start, its graph's entry), `workflow-form` (a
 * task's form submitted: `workflow.next`), `workflow` (a milestone created by another template), and the product's
 * own sources: the portfolio (an application created or updated) and the e-mail connector (a message received).
 * Every event carries `reference` (the matter: an application id, a docket number) and `clientCode`.
 */
export const EVENT_SOURCES: readonly EventSource[] = [
  {
    source: "milestone-start",
    canCreateMilestone: false,
    type: "milestone",
    events: [{ code: EVENT_CODES.milestoneCreated, name: "Milestone started", contract: milestoneFields }],
  },
  {
    source: "workflow-form",
    canCreateMilestone: true,
    type: "form",
    events: [
      {
        code: EVENT_CODES.next,
        name: "Task completed",
        contract: [
          { name: "reference", type: "string" },
          { name: "clientCode", type: "string" },
          { name: "taskTitle", type: "string" },
          { name: "milestoneTitle", type: "string" },
          { name: "completedBy", type: "email" },
          { name: "completedAt", type: "datetime" },
        ],
      },
    ],
  },
  {
    source: "workflow",
    canCreateMilestone: true,
    type: "workflow",
    events: [{ code: EVENT_CODES.milestoneCreated, name: "Milestone created", contract: milestoneFields }],
  },
  {
    source: "portfolio",
    canCreateMilestone: true,
    type: "application",
    events: [
      { code: EVENT_CODES.applicationCreated, name: "Application created", contract: applicationFields },
      { code: EVENT_CODES.applicationUpdated, name: "Application updated", contract: applicationFields },
    ],
  },
  {
    source: "email",
    canCreateMilestone: true,
    type: "email",
    events: [
      {
        code: EVENT_CODES.correspondence,
        name: "E-mail received",
        contract: [
          { name: "reference", type: "string" },
          { name: "clientCode", type: "string" },
          { name: "from", type: "email" },
          { name: "to", type: "people" },
          { name: "subject", type: "string" },
          { name: "body", type: "string" },
          { name: "receivedAt", type: "datetime" },
        ],
      },
    ],
  },
];

/** Every event code an event may carry (the creation events templates may name). */
export const EVENT_CODE_LIST = [...new Set(EVENT_SOURCES.flatMap((s) => s.events.map((e) => e.code)))];

/** The fields of an event code (the union over the sources that emit it). */
export function contractFields(code: string): ContractField[] {
  const out = new Map<string, ContractField>();
  for (const s of EVENT_SOURCES) for (const e of s.events) if (e.code === code) for (const f of e.contract) out.set(f.name, f);
  return [...out.values()];
}

export const Contracts = z.object({
  eventSources: z.array(
    z.object({
      source: z.string(),
      canCreateMilestone: z.boolean(),
      type: z.string(),
      events: z.array(z.object({ code: z.string(), name: z.string(), contract: z.array(z.object({ name: z.string(), type: z.enum(FIELD_TYPES) })) })),
    }),
  ),
  functions: z.array(z.object({ name: z.string(), arguments: z.array(z.string()), description: z.string(), types: z.array(z.enum(FIELD_TYPES)) })),
  miscellaneous: z.object({ task: z.object({ terminalStatuses: z.array(z.enum(TASK_STATUSES)) }) }),
});
export type Contracts = z.infer<typeof Contracts>;

/** GET /api/workflows/v2/workflows/settings/contracts */
export const CONTRACTS: Contracts = {
  eventSources: EVENT_SOURCES.map((s) => ({ ...s, events: s.events.map((e) => ({ ...e, contract: [...e.contract] })) })),
  functions: PREDICATE_FUNCTIONS.map((f) => ({ ...f, arguments: [...f.arguments], types: [...f.types] })),
  miscellaneous: { task: { terminalStatuses: [...TERMINAL_TASK_STATUSES] } },
};

/** A `{{name}}` placeholder (spec 3 §9: scopes thisTask, previousTask, milestone, form, milestone.variables, email). */
export const PLACEHOLDER = /^\{\{\s*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\}\}$/;
export const PLACEHOLDER_SCOPES = ["thisTask", "previousTask", "milestone", "form", "milestone.variables", "email", "event"] as const;

const argument = z.union([
  boundedText("Argument", WORKFLOW_LIMITS.argument, { multiline: true }),
  z.number().finite(),
  z.boolean(),
  z.null(),
]);

/** A condition: `{{field}}`, a function of the contracts, its arguments (a date's is a due-date object). */
export const Predicate = z.object({
  field: limitText(z.string().regex(PLACEHOLDER, "Field must be a {{name}} placeholder"), "Field", 200),
  function: z.enum(PREDICATE_FUNCTION_NAMES as [string, ...string[]], { errorMap: () => ({ message: "Unknown predicate function" }) }),
  arguments: boundedList(z.union([argument, z.array(argument).max(WORKFLOW_LIMITS.arguments), z.lazy(() => DueAtInput)]), "arguments", WORKFLOW_LIMITS.arguments).default([]),
});
export type Predicate = z.infer<typeof Predicate>;

/** OR between groups, AND inside a group (spec 3 §2.5). No group: always true. */
export const PredicateGroups = boundedList(
  boundedList(Predicate, "conditions", WORKFLOW_LIMITS.predicatesPerGroup),
  "condition groups",
  WORKFLOW_LIMITS.predicateGroups,
).default([]);
export type PredicateGroups = z.infer<typeof PredicateGroups>;

// ---------------------------------------------------------------------------------------------------------------
// Due dates, events, steps, paths, forms, variables, roadmap (spec 3 §3)
// ---------------------------------------------------------------------------------------------------------------

/**
 * A due date: `date` is a variable (`{{now}}`, `{{receivedAt}}`, `{{milestone.dueAt}}`…) or an ISO date, plus
 * `amount` `measures`. Optional limits: the result at least `daysMin` and at most `daysMax` days after the base date,
 * its hour of day (UTC) moved into `hoursMin`..`hoursMax` (0 to 24). `calendar` asks for a calendar event.
 */
export const DueAtInput = z.object({
  date: boundedText("Date", 200).default("{{now}}"),
  amount: z.number().int().min(-WORKFLOW_LIMITS.amount).max(WORKFLOW_LIMITS.amount).default(1),
  measures: z.enum(DUE_MEASURES).default("Days"),
  limits: z
    .object({
      daysMin: z.number().int().min(0).max(WORKFLOW_LIMITS.amount).nullable().optional(),
      daysMax: z.number().int().min(0).max(WORKFLOW_LIMITS.amount).nullable().optional(),
      hoursMin: z.number().min(0).max(24).nullable().optional(),
      hoursMax: z.number().min(0).max(24).nullable().optional(),
    })
    .optional(),
  calendar: z
    .object({
      categories: boundedList(boundedText("Category", 100), "categories", 20).default([]),
      durationHours: z.number().min(0).max(24 * 30).default(1),
    })
    .nullable()
    .optional(),
});
export type DueAt = z.infer<typeof DueAtInput>;
