/**
 * Milestone templates (spec 3 §3, §4.1): steps, paths and their actions, forms, variables, the roadmap, and the
 * template document the editor saves and the engine runs. The graph rules over them are in graph.ts.
 */
import { z } from "zod";
import { Audit, LIMIT_MESSAGES, TEXT_LIMITS, boundedList, boundedText, limitText } from "./common";
import { DueAtInput, FIELD_TYPES, PredicateGroups } from "./workflow-contracts";
import {
  DEFAULT_MILESTONE_TITLE,
  NOTIFICATION_EMAIL,
  STEP_TYPES,
  TASK_STATUSES,
  TEMPLATE_TYPES,
  UNIQUENESS,
  WORKFLOW_LIMITS,
  WORKFLOW_MESSAGES,
} from "./workflow-constants";

/** A required, trimmed title (a workflow's, a template's, a milestone's), bounded. */
export const requiredTitle = (required: string) =>
  limitText(z.string({ required_error: required, invalid_type_error: required }).trim().min(1, required), "Title", WORKFLOW_LIMITS.title);

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
// Milestone template (spec 3 §3, §4.1)
// ---------------------------------------------------------------------------------------------------------------

/** What the editor saves (PUT) and the import string carries for one template. */
export const TemplateContent = z.object({
  title: requiredTitle(WORKFLOW_MESSAGES.templateTitleRequired),
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
  /** The version a save based on this answer sends back (contract/versions.ts BaseVersion). */
  version: z.number().int().optional(),
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
    title: requiredTitle(WORKFLOW_MESSAGES.templateTitleRequired),
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

/** One template's export string (the template editor's Export template; the list's Import). */
export const TemplateExport = TemplateContent.extend({ active: z.boolean().optional() });
