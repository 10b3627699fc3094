/**
 * Workflows and the docket (spec 3): the constants of §9, the bounds every list and text is held to, and the spec's
 * texts (§2, §4.1, §5, §8). Free of zod, so a screen that shows a text or a label does not ship the validators.
 * The shapes are in workflows.ts (workflows, import/export), milestone-templates.ts (steps, paths, forms),
 * milestones.ts (events, milestones, tasks) and workflow-contracts.ts (event sources, predicates); the graph's pure
 * functions in graph.ts; the decisions in docs/decisions/workflows.md.
 */
import { SAVE_TOASTS, TRY_LATER } from "./limits";


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
  /** An import string (a workflow with its templates) may be large: its routes take bodies of IMPORT_BODY_BYTES. */
  importString: 5_000_000,
  /** How many events one chain of events may cause (a template triggered by a milestone it created, and so on). */
  chainDepth: 8,
} as const;

/**
 * The bytes a request body carrying an import string of WORKFLOW_LIMITS.importString characters may take, so that
 * any string within the bound is read and answered (a page body is 1 MB otherwise): a UTF-16 unit is at most 3 bytes
 * of UTF-8 in the import dialogs' multipart posts, and at most 2 once escaped in the upstream's JSON body for the
 * text of a valid export (`\"`, `\\`, `\n`); plus room for the form's or the body's other fields.
 */
export const IMPORT_BODY_BYTES = WORKFLOW_LIMITS.importString * 3 + 64 * 1024;

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

