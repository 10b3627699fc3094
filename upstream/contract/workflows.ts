/**
 * Workflows, milestone templates and the docket (spec 3 §1–§9): the shapes of `/api/workflows/...`, the spec's texts,
 * and the contracts (`GET .../settings/contracts`: event sources, event codes and their fields, predicate functions,
 * terminal task statuses). One definition that the screens, the upstream's validators and the docket engine
 * (upstream/src/workflows) all read. The graph's pure functions are in graph.ts; the decisions in
 * docs/decisions/workflows.md.
 */
import { z } from "zod";
import { Audit, LIMIT_MESSAGES, TEXT_LIMITS, boundedList, boundedText, limitText } from "./common";
import { SAVE_TOASTS, TRY_LATER } from "./limits";
import { defineResource } from "./resource";

// ---------------------------------------------------------------------------------------------------------------
// Constants (spec 3 §9) and bounds
// ---------------------------------------------------------------------------------------------------------------

export const WORKFLOW_LIMITS = {
  title: 200,
  clientCodes: 200,
  clientCode: 100,
  tags: 50,
  events: 20,
  predicateGroups: 20,
  predicatesPerGroup: 20,
  arguments: 50,
  argument: 2_000,
  steps: 500,
  paths: 2_000,
  variables: 200,
  formProperties: 100,
  notes: 50,
  note: 100_000,
  assignees: 50,
  alternatives: 20,
  amount: 10_000,
  eventData: 200,
  /** An import string (a workflow with its templates) may be large; the route's body bound is the real limit. */
  importString: 5_000_000,
  /** How many events one chain of events may cause (a template triggered by a milestone it created, and so on). */
  chainDepth: 8,
} as const;

/** The nowhere node's fixed id (spec 3 §9). */
export const NOWHERE_ID = "100500";
/** Default planned duration of a step in hours (0 for finish and nowhere). */
export const DEFAULT_STEP_HOURS = 1;
export const DEFAULT_MILESTONE_TITLE = "New milestone";
export const DEFAULT_TEMPLATE_TITLE = "Default template title";
/** The title of the one task a template made by the wizard starts with (start → task → finish). */
export const DEFAULT_TASK_TITLE = "New task";

export const UNIQUENESS = ["uniqueAtTime", "unique", "repeatable"] as const;
export type Uniqueness = (typeof UNIQUENESS)[number];
export const UNIQUENESS_LABELS: Record<Uniqueness, string> = {
  uniqueAtTime: "Unique at a time",
  unique: "Unique",
  repeatable: "Repeatable",
};

/** Units of a due date: the calendar ones of deadlines.ts plus Hours and Minutes (when time is used). */
export const DUE_MEASURES = ["Days", "Business Days", "Weeks", "Months", "Years", "Hours", "Minutes"] as const;
export type DueMeasure = (typeof DUE_MEASURES)[number];

/** Step types: tasks, the AND join, and the special nodes (spec 3 §3). `or` is a task any one input creates. */
export const STEP_TYPES = ["task", "or", "and", "finish", "nowhere", "milestone-start", "workflow-form", "workflow"] as const;
export type StepType = (typeof STEP_TYPES)[number];
/** Event sources (spec 3 §9) as graph nodes: they start branches, nothing connects into them. */
export const EVENT_SOURCE_TYPES = ["milestone-start", "workflow-form", "workflow"] as const satisfies readonly StepType[];

export const NOTIFICATION_EMAIL = ["", "always", "never"] as const;

/** Task statuses; `completed` and `closed` (its branch went nowhere or its milestone ended) are terminal. */
export const TASK_STATUSES = ["open", "completed", "closed"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = ["completed", "closed"];

export const MILESTONE_STATUSES = ["open", "completed", "deleted"] as const;
export type MilestoneStatus = (typeof MILESTONE_STATUSES)[number];

export const TEMPLATE_TYPES = ["template", "draft", "revision"] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

// ---------------------------------------------------------------------------------------------------------------
// The spec's texts (§2, §4.1, §5, §8)
// ---------------------------------------------------------------------------------------------------------------

export const WORKFLOW_MESSAGES = {
  titleRequired: "Title is required",
  templateTitleRequired: "Template title is required",
  milestoneTitleRequired: "Milestone title is required",
  eventCodeRequired: "Creation event is required",
  workflowNotFound: "Workflow not found.",
  templateNotFound: "Milestone template not found.",
  milestoneNotFound: "Milestone not found.",
  taskNotFound: "Task not found.",
  eventNotFound: "Event not found.",
  draftNotFound: "Draft not found.",
  defaultNotDeletable: "The default workflow cannot be deleted: make another workflow the default first.",
  openMilestones: (n: number) => `There are ${n} open milestones of this workflow: they must be finished first.`,
  templateOpenMilestones: (n: number) =>
    `There are ${n} open milestones of this template: deactivate it instead, or finish them first.`,
  clientCodeTaken: (code: string, title: string) => `The client code ${code} already belongs to the workflow '${title}'.`,
  cloneReferenceRequired: "Choose at least one reference.",
  cloneReferenceUnknown: (code: string) => `${code} is not a reference of this workflow.`,
  cloneSuffix: " (clone)",
  importFailed: "Import failed",
  importInvalid: "Reason: import string is invalid",
  importCreationFailed: "Contact our developers or try again later.",
  importSuccessful: "Import successful",
  importMilestoneCreated: "Milestone was created",
  milestoneCreationFailed: "Milestone creation failed",
  tryLater: TRY_LATER,
  taskUpdateError: "Task(s) update error",
  taskUpdateErrorMessage: "Failed to updated task(s). Please try again or connect your administrator",
  tasksUpdated: "Task(s) updated",
  tasksUpdatedMessage: (n: number) => `${n} task(s) successfully updated`,
  activated: (title: string) => `'${title}' activated`,
  deactivated: (title: string) => `'${title}' deactivated`,
  activateTemplate: "Activate template",
  deactivateTemplate: "Deactivate template",
  draftsNotToggled: "A draft cannot be activated or deactivated: save and activate it in the editor.",
  finishUnreachable: "Finish node is unreachable",
  finishUnreachableError: "Error: Finish node is unreachable",
  pathDoesNotExist: "Path does not exists",
  shortestPlannedDuration: (hours: number) => `Shortest planned duration: ${hours.toFixed(1)} hours`,
  tasksExist: (n: number) => `There are ${n} tasks created from this template.`,
  deleteDraftFailed: "Delete draft failed",
  updateDraftFailed: "Update draft failed",
  updateFailed: SAVE_TOASTS.updateFailed,
  deleteFailed: SAVE_TOASTS.deleteFailed,
  workflowSaveReason: (message: string) => `Reason: ${message}`,
  workflowSaveFailed: "Failed to save a workflow...",
  cloneFailed: "Clone failed",
  exportFailed: "Export failed",
  setDefaultFailed: "Set default failed",
  draftSaved: "Draft saved",
  draftDeleted: "Draft deleted",
  draftDiscarded: "Draft discarded",
  savedAndActivated: "Update completed: Milestone saved and activated",
  templateActivated: "Template activated",
  cloneCompleted: "Clone completed",
  importStringCopied: "Import string copied to clipboard",
  deleteWorkflowConfirm: "This action can't be undone.",
  noActiveMilestones: "No active milestones",
  noInactiveMilestones: "No inactive milestones",
  noMilestonesCreated: "No milestones created",
  pendingChanges: "Pending changes",
  draftLabel: "Draft",
  pasteImportString: "Paste import string",
  createMilestoneTemplate: "Create milestone template",
  taskNotOpen: "This task is no longer open.",
  notAssignee: "Only the task's assignees (or a holder of docketing_tasks) may complete it.",
  formRequired: (label: string) => `${label} is required`,
  formType: (label: string, type: string) => `${label} must be a ${type}`,
} as const;

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

const person = boundedText("Assignee", TEXT_LIMITS.email);
export const Assignees = boundedList(person, "assignees", WORKFLOW_LIMITS.assignees).default([]);
const note = boundedText("Note", WORKFLOW_LIMITS.note, { multiline: true });
export const Notes = boundedList(note, "notes", WORKFLOW_LIMITS.notes).default([]);

/** A field that is a value, or a list of conditional alternatives (the last one is the else). */
export const conditional = <T extends z.ZodTypeAny>(value: T) =>
  z.union([
    z
      .array(z.object({ predicates: PredicateGroups, value }))
      .min(1)
      .max(WORKFLOW_LIMITS.alternatives, LIMIT_MESSAGES.tooMany("alternatives", WORKFLOW_LIMITS.alternatives)),
    value,
  ]);

/** The create action of a creation event (spec 3 §3). */
export const CreateAction = z.object({
  title: limitText(z.string().trim(), "Milestone title", WORKFLOW_LIMITS.title).default(DEFAULT_MILESTONE_TITLE),
  dueAt: DueAtInput.default({}),
  clientDueDate: DueAtInput.nullable().default(null),
  assignees: Assignees,
  notes: Notes,
});

/** An event of a template: `create` (creates a milestone) or `update` (changes the open one: finish or delete). */
export const TemplateEvent = z.object({
  type: z.enum(["create", "update"]).default("create"),
  code: boundedText("Event code", 200).refine((c) => c.trim().length > 0, WORKFLOW_MESSAGES.eventCodeRequired),
  predicates: PredicateGroups,
  action: CreateAction.extend({ delete: z.boolean().default(false), finish: z.boolean().default(false) }).default({}),
});
export type TemplateEvent = z.infer<typeof TemplateEvent>;

export const FormProperty = z.object({
  name: boundedText("Property name", 200),
  description: boundedText("Description", 2_000, { multiline: true }).default(""),
  type: z.enum(FIELD_TYPES).default("string"),
  value: z.unknown().optional(),
  required: z.boolean().default(false),
  saveTo: boundedText("Save to", 200).default(""),
  multiple: z.boolean().default(false),
  ext: boundedList(boundedText("Extension", 20), "extensions", 50).default([]),
  search: boundedList(boundedText("Search term", 200), "search terms", 50).default([]),
  tags: boundedList(boundedText("Tag", TEXT_LIMITS.tag), "tags", WORKFLOW_LIMITS.tags).default([]),
  limits: z.record(z.number()).optional(),
  calendar: z.unknown().optional(),
  isRichText: z.boolean().default(true),
  property: boundedText("Property", 200).default(""),
});
export type FormProperty = z.infer<typeof FormProperty>;
export const Form = z.object({
  name: boundedText("Form name", 200).default(""),
  properties: boundedList(FormProperty, "form properties", WORKFLOW_LIMITS.formProperties).default([]),
});
export type Form = z.infer<typeof Form>;

export const Transition = z.object({
  current: boundedText("Current", 200).default(""),
  next: boundedText("Next", 200).default(""),
  enabled: z.boolean().default(true),
  label: boundedText("Label", 200).default(""),
  description: boundedText("Description", 2_000, { multiline: true }).default(""),
});

const position = z.object({ x: z.number().finite(), y: z.number().finite() });

export const Step = z.object({
  id: boundedText("Step id", TEXT_LIMITS.id).refine((id) => id.length > 0, "Step id is required"),
  type: z.enum(STEP_TYPES).default("task"),
  title: boundedText("Step title", WORKFLOW_LIMITS.title).default(""),
  durationHours: z.number().min(0).max(24 * 365).optional(),
  display: z.object({ position }).default({ position: { x: 0, y: 0 } }),
  transitions: boundedList(Transition, "transitions", 50).default([]),
  options: z
    .object({
      notifications: z.object({ email: z.enum(NOTIFICATION_EMAIL).default("") }).default({}),
      instructions: boundedText("Instructions", WORKFLOW_LIMITS.note, { multiline: true }).default(""),
    })
    .default({}),
  isCriticalDate: z.boolean().default(false),
  isAddedToRoadMap: z.boolean().optional(),
  /** For event-source nodes other than milestone-start: the event code that starts their branch. */
  code: boundedText("Event code", 200).optional(),
});
export type Step = z.infer<typeof Step>;

/** What a path does on arrival at a task step: the task's fields, each optionally conditional. */
export const PathAction = z.object({
  title: conditional(boundedText("Task title", WORKFLOW_LIMITS.title)).optional(),
  dueAt: conditional(DueAtInput).optional(),
  startAt: conditional(DueAtInput).optional(),
  assignees: conditional(Assignees).optional(),
  attachments: z.array(boundedText("Attachment", 200)).max(50).optional(),
  emailAttachments: z.array(boundedText("Attachment", 200)).max(50).optional(),
  notes: conditional(Notes).optional(),
  /** The path is followed only when these hold (no group: always). */
  predicates: PredicateGroups,
});
export type PathAction = z.infer<typeof PathAction>;

export const Path = z.object({
  id: boundedText("Path id", TEXT_LIMITS.id).optional(),
  from: z.object({
    step: boundedText("From step", TEXT_LIMITS.id),
    port: boundedText("Port", 100).optional(),
    action: z.object({ form: Form.nullable().optional() }).default({}),
  }),
  to: z.object({
    step: boundedText("To step", TEXT_LIMITS.id),
    port: boundedText("Port", 100).optional(),
    action: PathAction.default({}),
  }),
  display: z.object({ pins: z.array(position).max(100).default([]) }).default({}),
});
export type Path = z.infer<typeof Path>;

export const MilestoneVariable = z.object({
  name: boundedText("Variable name", 200),
  description: boundedText("Description", 2_000, { multiline: true }).default(""),
  origin: boundedText("Origin", 100).default("custom"),
  type: z.enum(["date", "datetime", "string", "number", "people"]).default("string"),
  value: z.unknown().optional(),
  required: z.boolean().default(false),
  property: boundedText("Property", 200).default(""),
  saveTo: boundedText("Save to", 200).default(""),
  source: z.object({ port: boundedText("Port", 100).optional(), step: boundedText("Step", TEXT_LIMITS.id).optional() }).optional(),
});

export const Roadmap = boundedList(
  z.object({ name: boundedText("Stage name", 200), steps: boundedList(boundedText("Step id", TEXT_LIMITS.id), "steps", WORKFLOW_LIMITS.steps).default([]) }),
  "stages",
  100,
).default([]);

// ---------------------------------------------------------------------------------------------------------------
// Workflow (spec 3 §3, §5)
// ---------------------------------------------------------------------------------------------------------------

const title = (required: string) =>
  limitText(z.string({ required_error: required, invalid_type_error: required }).trim().min(1, required), "Title", WORKFLOW_LIMITS.title);

export const ClientCodes = boundedList(
  limitText(z.string().trim().min(1, "A client code must not be empty"), "Client code", WORKFLOW_LIMITS.clientCode),
  "client codes",
  WORKFLOW_LIMITS.clientCodes,
)
  // One workflow per client code; the same code twice (any case) is one.
  .transform((codes) => [...new Map(codes.map((c) => [c.toLowerCase(), c])).values()]);

export const Workflow = z
  .object({ id: z.string(), title: z.string(), clientCodes: z.array(z.string()), isDefault: z.boolean() })
  .merge(Audit);
export type Workflow = z.infer<typeof Workflow>;

export const WorkflowCreate = z.object({ title: title(WORKFLOW_MESSAGES.titleRequired), clientCodes: ClientCodes.default([]) });
export type WorkflowCreate = z.input<typeof WorkflowCreate>;
export const WorkflowUpdate = z.object({ title: title(WORKFLOW_MESSAGES.titleRequired).optional(), clientCodes: ClientCodes.optional() });
export type WorkflowUpdate = z.input<typeof WorkflowUpdate>;

/**
 * /api/workflows/v2/workflows (spec 3 §7): reading needs workflows.read; creating, changing, cloning, importing and
 * deleting `workflows`. Update is PUT (the spec) and PATCH (the kit), both partial.
 */
export const WorkflowsResource = defineResource({
  name: "workflows",
  path: "/api/workflows/v2/workflows",
  item: Workflow,
  create: WorkflowCreate,
  update: WorkflowUpdate,
  permissions: { read: "workflows.read", create: "workflows", write: "workflows" },
  notFound: WORKFLOW_MESSAGES.workflowNotFound,
});

/** POST .../{id}/clone?references=A&references=B&title=T: the clone takes over the chosen client codes. */
export const CloneQuery = z.object({
  title: limitText(z.string().trim(), "Title", WORKFLOW_LIMITS.title).optional(),
  references: z.array(limitText(z.string().trim(), "Reference", WORKFLOW_LIMITS.clientCode)).max(WORKFLOW_LIMITS.clientCodes),
});

/** GET .../settings */
export const WorkflowSettings = z.object({ defaultWorkflow: z.string().nullable() });
export type WorkflowSettings = z.infer<typeof WorkflowSettings>;

/** GET .../by/references?references=A: which workflow serves each client code (the default when none claims it). */
export const ReferenceRoute = z.object({ reference: z.string(), workflowId: z.string().nullable(), claimed: z.boolean() });
/** GET /api/workflows/migration/inventions/{reference}/count */
export const ReferenceCount = z.object({ reference: z.string(), count: z.number().int().nonnegative() });

// ---------------------------------------------------------------------------------------------------------------
// Milestone template (spec 3 §3, §4.1)
// ---------------------------------------------------------------------------------------------------------------

/** What the editor saves (PUT) and the import string carries for one template. */
export const TemplateContent = z.object({
  title: title(WORKFLOW_MESSAGES.templateTitleRequired),
  uniqueness: z.enum(UNIQUENESS).default("repeatable"),
  tags: boundedList(limitText(z.string().trim().min(1), "Tag", TEXT_LIMITS.tag), "tags", WORKFLOW_LIMITS.tags).default([]),
  hidden: z.boolean().default(false),
  events: boundedList(TemplateEvent, "events", WORKFLOW_LIMITS.events).default([]),
  variables: boundedList(MilestoneVariable, "variables", WORKFLOW_LIMITS.variables).default([]),
  steps: boundedList(Step, "steps", WORKFLOW_LIMITS.steps).default([]),
  paths: boundedList(Path, "paths", WORKFLOW_LIMITS.paths).default([]),
  eventSources: boundedList(Step, "event sources", 50).default([]),
  roadmap: Roadmap,
  commitMessage: boundedText("Commit message", 2_000, { multiline: true }).optional(),
});
export type TemplateContent = z.infer<typeof TemplateContent>;
export type TemplateContentInput = z.input<typeof TemplateContent>;

export const MilestoneTemplate = TemplateContent.extend({
  id: z.string(),
  workflowId: z.string(),
  active: z.boolean(),
  isDraft: z.boolean(),
  hasDraft: z.boolean(),
  type: z.enum(TEMPLATE_TYPES),
  revision: z.number().int(),
  commitMessage: z.string(),
  author: z.string().nullable(),
  /** The template a draft belongs to (null for a template, or a draft that is itself a new template). */
  draftOf: z.string().nullable(),
}).merge(Audit);
export type MilestoneTemplate = z.infer<typeof MilestoneTemplate>;

/**
 * POST .../{id}/milestones/draft/template: the creation wizard's payload (spec 3 §2.4, §7). The template is created
 * offline with a first graph (start → one task → finish) so that it can be activated at once.
 */
export const TemplateCreate = z.object({
  workflowId: z.string().optional(),
  data: z.object({
    title: title(WORKFLOW_MESSAGES.templateTitleRequired),
    uniqueness: z.enum(UNIQUENESS).default("repeatable"),
    tags: TemplateContent.shape.tags,
    hidden: z.boolean().default(false),
    events: boundedList(TemplateEvent, "events", WORKFLOW_LIMITS.events).min(1, WORKFLOW_MESSAGES.eventCodeRequired),
  }),
});
export type TemplateCreate = z.input<typeof TemplateCreate>;

/** POST .../steps/{stepId}/options: a step's notification or critical-date option, applied to its open tasks too. */
export const StepOptionsChange = z.object({
  options: z.object({ notification: z.object({ email: z.enum(NOTIFICATION_EMAIL) }).optional() }).optional(),
  isCriticalDate: z.boolean().optional(),
});

export const StepStatistics = z.array(z.object({ status: z.enum(TASK_STATUSES), count: z.number().int() }));

/** The export string: a workflow and its templates (spec 3 §3), as JSON text. */
export const WorkflowExport = z.object({
  workflow: z.object({ title: title(WORKFLOW_MESSAGES.titleRequired), clientCodes: ClientCodes.default([]) }),
  templates: boundedList(TemplateContent.extend({ active: z.boolean().optional() }), "templates", 1_000).default([]),
});
export type WorkflowExport = z.infer<typeof WorkflowExport>;
/** One template's export string (the template editor's Export template; the list's Import). */
export const TemplateExport = TemplateContent.extend({ active: z.boolean().optional() });

export const ImportBody = z.object({
  importString: z.string().max(WORKFLOW_LIMITS.importString, LIMIT_MESSAGES.tooLong("Import string", WORKFLOW_LIMITS.importString)),
});

/**
 * Parses an import string: invalid JSON gives the spec's 'Reason: import string is invalid'; a valid one failing
 * validation names the first failing field ("templates.0.title: Template title is required").
 */
export function parseImportString<S extends z.ZodTypeAny>(schema: S, text: string): { ok: true; value: z.output<S> } | { ok: false; message: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch {
    return { ok: false, message: WORKFLOW_MESSAGES.importInvalid };
  }
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, value: result.data as z.output<S> };
  const issue = result.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  return { ok: false, message: `Reason: ${where}${issue?.message ?? "invalid"}` };
}

// ---------------------------------------------------------------------------------------------------------------
// Events, milestones and tasks (the docket)
// ---------------------------------------------------------------------------------------------------------------

const eventValue = z.union([z.string().max(100_000), z.number().finite(), z.boolean(), z.null(), z.array(z.union([z.string().max(1_000), z.number()])).max(200)]);

/**
 * POST /api/workflows/milestones: an event for a matter. Queued and processed by the engine (never in the request);
 * `idempotencyKey` (or the Idempotency-Key header) makes a repeated call the same event.
 */
export const EventInput = z.object({
  code: boundedText("Event code", 200).refine((c) => c.trim().length > 0, WORKFLOW_MESSAGES.eventCodeRequired),
  reference: limitText(z.string().trim().min(1, "Reference is required"), "Reference", 200),
  clientCode: limitText(z.string().trim(), "Client code", WORKFLOW_LIMITS.clientCode).optional(),
  data: z.record(eventValue).refine((d) => Object.keys(d).length <= WORKFLOW_LIMITS.eventData, LIMIT_MESSAGES.tooMany("fields", WORKFLOW_LIMITS.eventData)).default({}),
  idempotencyKey: boundedText("Idempotency key", 200).optional(),
});
export type EventInput = z.input<typeof EventInput>;

export const WorkflowEvent = z.object({
  id: z.string(),
  code: z.string(),
  reference: z.string(),
  clientCode: z.string().nullable(),
  source: z.string(),
  status: z.enum(["queued", "processed"]),
  milestones: z.array(z.string()),
  createdAt: z.string(),
  processedAt: z.string().nullable(),
});
export type WorkflowEvent = z.infer<typeof WorkflowEvent>;

export const Task = z.object({
  id: z.string(),
  milestoneId: z.string(),
  stepId: z.string(),
  title: z.string(),
  status: z.enum(TASK_STATUSES),
  assignees: z.array(z.string()),
  dueAt: z.string().nullable(),
  durationHours: z.number(),
  isCriticalDate: z.boolean(),
  notes: z.array(z.string()),
  /** The form completing it fills (from its outgoing path), null when none. */
  form: Form.nullable(),
  /** The ports its outgoing paths leave by (a choice when several). */
  ports: z.array(z.string()),
  values: z.record(z.unknown()).nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  completedBy: z.string().nullable(),
});
export type Task = z.infer<typeof Task>;

export const MilestoneHistoryEntry = z.object({
  at: z.string(),
  actor: z.string().nullable(),
  kind: z.enum(["created", "task.completed", "finished", "deleted", "branch.closed"]),
  text: z.string(),
  eventId: z.string().nullable(),
  taskId: z.string().nullable(),
});

export const Milestone = z.object({
  id: z.string(),
  workflowId: z.string(),
  workflowTitle: z.string(),
  templateId: z.string(),
  templateTitle: z.string(),
  reference: z.string(),
  clientCode: z.string().nullable(),
  title: z.string(),
  status: z.enum(MILESTONE_STATUSES),
  dueAt: z.string().nullable(),
  clientDueDate: z.string().nullable(),
  assignees: z.array(z.string()),
  notes: z.array(z.string()),
  hidden: z.boolean(),
  openTasks: z.number().int(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type Milestone = z.infer<typeof Milestone>;

export const MilestoneDetail = Milestone.extend({
  variables: z.record(z.unknown()),
  tasks: z.array(Task),
  history: z.array(MilestoneHistoryEntry),
});
export type MilestoneDetail = z.infer<typeof MilestoneDetail>;

export const MILESTONE_SORTS = ["dueAt", "-dueAt", "createdAt", "-createdAt", "title", "reference"] as const;

/** GET /api/workflows/milestones: the docket's filters, sort and page (all in the URL of /milestones). */
export const MilestoneListQuery = z.object({
  mine: z.enum(["true", "false"]).optional().transform((v) => v === "true"),
  assignee: boundedText("Assignee", TEXT_LIMITS.email).optional(),
  workflow: boundedText("Workflow", TEXT_LIMITS.id).optional(),
  overdue: z.enum(["true", "false"]).optional().transform((v) => v === "true"),
  dueThisWeek: z.enum(["true", "false"]).optional().transform((v) => v === "true"),
  status: z.enum(MILESTONE_STATUSES).optional(),
  reference: boundedText("Reference", 200).optional(),
  sort: z.enum(MILESTONE_SORTS).default("dueAt"),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(25),
});
export type MilestoneListQuery = z.input<typeof MilestoneListQuery>;

/** POST /api/workflows/tasks/{id}/complete: the form's values and, when the task leaves by several ports, which one. */
export const TaskCompletion = z.object({
  port: boundedText("Port", 100).optional(),
  values: z.record(z.unknown()).refine((v) => Object.keys(v).length <= WORKFLOW_LIMITS.formProperties, "Too many values").default({}),
});
export type TaskCompletion = z.input<typeof TaskCompletion>;
