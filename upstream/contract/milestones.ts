/**
 * The docket (spec 3 §3, §7): events, milestones and their tasks, the list query of `/milestones`, a task's
 * completion.
 */
import { z } from "zod";
import { LIMIT_MESSAGES, TEXT_LIMITS, boundedText, limitText } from "./common";
import { Form } from "./milestone-templates";
import { MILESTONE_STATUSES, TASK_STATUSES, WORKFLOW_LIMITS, WORKFLOW_MESSAGES } from "./workflow-constants";


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

/** How many open tasks a milestone of the docket list carries (the first ones in order; `openTasks` counts them all). */
export const LIST_OPEN_TASKS = 5;

/** An open task as the docket list shows it under its milestone. */
export const OpenTaskSummary = Task.pick({ id: true, title: true, status: true, assignees: true, dueAt: true, isCriticalDate: true });
export type OpenTaskSummary = z.infer<typeof OpenTaskSummary>;

/** A milestone of GET /api/workflows/milestones: with its first open tasks, read with the page (no call per milestone). */
export const MilestoneListItem = Milestone.extend({ openTaskList: z.array(OpenTaskSummary).max(LIST_OPEN_TASKS) });
export type MilestoneListItem = z.infer<typeof MilestoneListItem>;

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
