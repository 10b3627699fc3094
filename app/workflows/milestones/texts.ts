import { type MilestoneStatus, WORKFLOW_MESSAGES } from "@contract/workflow-constants";
import { type FieldType } from "@contract/workflow-contracts";

/**
 * The docket's texts (/milestones and /milestones/{id}). Spec 3 names the area and its §8 task toasts only ('Task(s)
 * updated', 'Task(s) update error'), which come from the contract; the rest follows docs/decisions/docket-screen.md.
 */
export const MILESTONES = {
  title: "Milestones",
  summary: (shown: number, total: number) =>
    total === 0 ? "No milestones" : `${shown.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} ${total === 1 ? "milestone" : "milestones"}`,
  filters: {
    legend: "Filter the docket",
    mine: "Only mine",
    assignee: "Assignee",
    assigneeHint: "An e-mail address; leave empty for everyone.",
    workflow: "Workflow",
    anyWorkflow: "Any workflow",
    due: "Due",
    status: "Status",
    sort: "Sort",
    apply: "Apply",
    reset: "Reset to my open milestones",
  },
  dueOptions: { any: "Any time", overdue: "Overdue", week: "Due this week" },
  statusOptions: { any: "Any status", open: "Open", completed: "Completed", deleted: "Deleted" } satisfies Record<MilestoneStatus | "any", string>,
  sortOptions: {
    dueAt: "Due date, soonest first",
    "-dueAt": "Due date, latest first",
    createdAt: "Oldest first",
    "-createdAt": "Newest first",
    title: "Title",
    reference: "Reference",
  },
  counts: {
    label: "At a glance",
    overdue: (n: number) => `${n.toLocaleString("en-US")} overdue`,
    week: (n: number) => `${n.toLocaleString("en-US")} due this week`,
  },
  badges: { overdue: "Overdue", week: "Due this week", critical: "Critical date" },
  labels: {
    reference: "Reference",
    workflow: "Workflow",
    template: "Template",
    dueAt: "Due",
    clientDueDate: "Client due",
    status: "Status",
    openTasks: "Open tasks",
    assignees: "Assignees",
    completedAt: "Completed",
    createdAt: "Created",
  },
  status: { open: "Open", completed: "Completed", deleted: "Deleted" } satisfies Record<MilestoneStatus, string>,
  taskStatus: { open: "Open", completed: "Completed", closed: "Closed" },
  unassigned: "Unassigned",
  noOpenTasks: "No open tasks.",
  moreTasks: (n: number) => `and ${n} more`,
  empty: {
    mine: "Nothing on your docket: no open milestones are assigned to you.",
    filtered: "No milestones match these filters.",
    showAll: "Show every open milestone",
    tasks: "This milestone has no tasks yet.",
    history: "Nothing has happened yet.",
    notes: "No notes.",
  },
  page: {
    back: "Back to the docket",
    next: "Next milestone",
    nextHint: "Press N for the next milestone.",
    nothingNext: "Nothing else on this docket page.",
    tasks: "Tasks",
    history: "History",
    notes: "Notes",
    details: "Details",
    variables: "Values",
    createdByEvent: (code: string) => `Created by the event ${code}`,
    completedBy: (who: string, at: string) => `Completed by ${who}, ${at}`,
    moving: "The docket is moving this milestone on; this page refreshes itself.",
    moved: "The next tasks are in place.",
    refresh: "Refresh",
  },
  form: {
    complete: "Complete task",
    completing: "Completing…",
    port: "Leave by",
    portRequired: "Choose how the task leaves",
    completeLegend: (title: string) => `Complete ${title}`,
    notAllowed: "Only the task's assignees (or a holder of docketing_tasks) may complete it.",
    yes: "Yes",
    formPickerHint: "The form's id.",
    chooseForm: "Choose a form",
    peopleHint: 'E-mail addresses separated by ";".',
  },
  /** The spec's task toasts (§8), defined once in the contract. */
  toasts: {
    updated: WORKFLOW_MESSAGES.tasksUpdated,
    updatedMessage: WORKFLOW_MESSAGES.tasksUpdatedMessage,
    error: WORKFLOW_MESSAGES.taskUpdateError,
    errorMessage: WORKFLOW_MESSAGES.taskUpdateErrorMessage,
  },
  validation: {
    required: WORKFLOW_MESSAGES.formRequired,
    type: (label: string, type: FieldType) => WORKFLOW_MESSAGES.formType(label, TYPE_NAMES[type]),
    email: (label: string) => `${label} must be an e-mail address`,
    tooLong: (label: string) => `${label} is too long`,
  },
} as const;

/** How a form value's type reads in a message ("Amount must be a number"). */
const TYPE_NAMES: Record<FieldType, string> = {
  string: "text",
  number: "number",
  date: "date",
  datetime: "date and time",
  people: "list of people",
  boolean: "yes or no",
  email: "e-mail address",
  file: "file",
  formPicker: "form",
};
