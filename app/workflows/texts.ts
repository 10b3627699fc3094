import { UNIQUENESS_LABELS, WORKFLOW_MESSAGES } from "@contract/workflow-constants";
import { CLONE_TOASTS, SAVE_TOASTS } from "~/lib/form-texts";

const M = WORKFLOW_MESSAGES;

/**
 * The workflow list, its forms and dialogs, and a workflow's template list (spec 3 §2.2, §2.3, §4.1, §5, §8). The
 * spec's texts come from the contract (WORKFLOW_MESSAGES) so that the upstream and the screens say the same; the texts
 * the spec leaves open are docs/decisions/workflows-screens.md's. Tests import these.
 */
export const WORKFLOWS = {
  listTitle: "Workflows",
  addNew: "+ new",
  searchLabel: "Search workflows",
  columns: { name: "Name", clientCodes: "Client codes", createdAt: "Created At", actions: "Actions" },
  defaultBadge: "Default",
  newTitle: "New Workflow",
  editTitle: "Edit Workflow",
  labels: { title: "Title", clientCodes: "Client codes" },
  clientCodesHint: 'The client codes whose matters this workflow dockets, separated by ";". A client code belongs to one workflow.',
  save: "Save",
  cancel: "Cancel",
  readOnlyNote: "You can look at this workflow; changing it needs the workflows permission.",
  validation: M,
  /** Create and update: spec 3 §8 "'Reason: ' plus the server message", form-level 'Failed to save a workflow...'. */
  reason: M.workflowSaveReason,
  inline: { saveFailed: M.workflowSaveFailed },
  toasts: { ...SAVE_TOASTS, ...CLONE_TOASTS },
  empty: "No workflows yet.",
  emptySearch: (q: string) => `No workflows match “${q}”.`,
  total: (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "workflow" : "workflows"} in total`,

  actions: {
    makeDefault: "Make default",
    export: "Export",
    edit: "Edit",
    clone: "Clone",
    delete: "Delete",
    importWorkflow: "Import workflow",
  },
  /** A row action's accessible name: the action and the workflow it acts on ("Clone Patents US"). */
  actionOn: (action: string, title: string) => `${action} ${title}`,

  makeDefault: {
    title: "Make default?",
    message: (title: string) =>
      `'${title}' becomes the default workflow: events of matters whose client code no workflow claims are matched against its templates.`,
    confirm: "Make default",
    done: (title: string) => `'${title}' is now the default workflow`,
    failed: M.setDefaultFailed,
  },
  confirmDelete: {
    title: "Delete workflow?",
    message: (title: string) => `'${title}' and its milestone templates will be deleted. ${M.deleteWorkflowConfirm}`,
    confirm: "Delete",
  },
  defaultNotDeletable: M.defaultNotDeletable,
  exportFailed: M.exportFailed,

  clone: {
    title: (original: string) => `Clone ${original}`,
    titleLabel: "Title",
    defaultTitle: (original: string) => `${original}${M.cloneSuffix}`,
    references: "References",
    referencesHint: "The clone takes over the chosen client codes: their next events go to the clone's templates.",
    reference: (code: string, count: number) => `${code} (${count.toLocaleString("en-US")} ${count === 1 ? "matter" : "matters"})`,
    noReferences: "This workflow has no references (client codes) to hand over, so it cannot be cloned: give it a client code first.",
    submit: "Clone",
    busy: "Cloning…",
    required: M.cloneReferenceRequired,
  },

  import: {
    title: "Import workflow",
    label: M.pasteImportString,
    hint: "The text an Export downloads: a workflow and its milestone templates. Imported templates arrive inactive.",
    submit: "Import",
    busy: "Importing…",
    failed: M.importFailed,
    invalid: M.importInvalid,
    creationFailed: M.importCreationFailed,
    successful: M.importSuccessful,
    required: "Paste an import string.",
  },
} as const;

/** A workflow's milestone templates (spec 3 §2.3, §4.1). */
export const TEMPLATES = {
  back: "BACK",
  addNew: "+ New",
  import: "Import",
  importTitle: "Import milestone template",
  importHint: "The text a template's Export copies. The template arrives inactive.",
  importSubmit: "Import",
  importBusy: "Importing…",
  cancel: "Cancel",
  active: "Active",
  inactive: "Inactive",
  listLabel: (title: string) => `Milestone templates of ${title}`,
  noActive: M.noActiveMilestones,
  noInactive: M.noInactiveMilestones,
  noneCreated: M.noMilestonesCreated,
  pendingChanges: M.pendingChanges,
  draft: M.draftLabel,
  creationEvent: "Creation event",
  uniqueness: "Uniqueness",
  uniquenessLabels: UNIQUENESS_LABELS,
  updated: "Updated",
  noEvent: "No creation event",
  activate: "Activate",
  suspend: "Suspend",
  activating: "Activating…",
  suspending: "Suspending…",
  toggleOn: (action: string, title: string) => `${action} ${title}`,
  confirmActivate: {
    title: M.activateTemplate,
    message: (title: string) => `'${title}' will create milestones from its creation event again.`,
    confirm: "Activate",
  },
  confirmDeactivate: {
    title: M.deactivateTemplate,
    message: (title: string) => `'${title}' stops creating milestones. Milestones it already created continue.`,
    confirm: "Suspend",
  },
  activated: M.activated,
  deactivated: M.deactivated,
  toggleFailed: M.updateFailed,
  importFailed: M.importFailed,
  importInvalid: M.importInvalid,
  importCreationFailed: M.importCreationFailed,
  importSuccessful: M.importSuccessful,
  importMilestoneCreated: M.importMilestoneCreated,
  importRequired: "Paste an import string.",
  pasteImportString: M.pasteImportString,
} as const;
