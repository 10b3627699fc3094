/**
 * The versions kit's texts on a template's pages (spec 3 §2.6 history, badge and compare; §8 verbatim). Tests import
 * these.
 */
import { VERSION_MESSAGES as VM } from "@contract/versions";
import { WORKFLOW_MESSAGES as M } from "@contract/workflow-constants";

export const VERSIONS = {
  history: "History",
  historyLabel: "Revisions and draft, newest first",
  /** A history entry's status: the draft, the current revision (the template's state), an older revision. */
  status: { draft: "DRAFT", online: "ONLINE", offline: "OFFLINE", past: "Previous" },
  revision: (n: number) => `Revision ${n}`,
  draft: "Draft",
  noMessage: "No commit message",
  unknownAuthor: "unknown",
  preview: "Preview (read-only)",
  backToEditor: "Back to the editor",
  activate: "Activate",
  templateActivated: M.templateActivated,
  updateFailed: M.updateFailed,
  /** Spec 3 §2.6 "Save or Save as draft": a template's changes go to its draft; a draft template is saved as such. */
  saveAsDraft: "Save as draft",
  draftSaved: M.draftSaved,
  draftDeleted: M.draftDeleted,
  draftDiscarded: M.draftDiscarded,
  deleteDraftFailed: M.deleteDraftFailed,
  updateDraftFailed: M.updateDraftFailed,
  discardDraft: "Discard draft",
  /** Spec 3 §8 (the chains' confirmation, the same act on a template's draft). */
  discardTitle: "Discard draft?",
  discardMessage: "The draft's changes are lost; the template stays as it is.",
  /** A draft that is itself a new template: discarding it deletes it (§4.1). */
  deleteDraftMessage: `This draft template is deleted. ${M.deleteWorkflowConfirm}`,
  discardConfirm: "Discard",
  draftChanged: "The draft was changed since you opened it: nothing was discarded. Reload to see it.",
  overwriteTitle: VM.overwriteDraft,
  overwriteMessage: (author: string, date: string) => `A newer draft, saved by ${author} on ${date}, would be replaced by yours.`,
  overwriteConfirm: "Overwrite",
  cancel: "Cancel",
  /** The commit modal's summary (spec 3 §2.6): the differ's named changes from the current template to what is saved. */
  whatChanges: "What changes",
  nothingChanges: "No changes from the current template.",
  newTemplate: "A new template: its first revision.",
  /** The ONLINE / OFFLINE badge is the activation toggle (spec 3 §2.6 "clickable", §4.1 its confirmation). */
  toggleBadge: (badge: string, action: string) => `${badge}: ${action} this template`,
  compareWithCurrent: "Compare with current",
  quitCompare: "Quit comparision mode",
  compareTitle: (current: string, other: string) => `Changes from ${current} to ${other}`,
  current: (n: number) => `Current (revision ${n})`,
  changes: "Changes",
  noChanges: "No changes.",
  /** Not by colour alone: each change has a sign and says what it is. */
  kinds: { added: { sign: "+", text: "Created" }, removed: { sign: "−", text: "Deleted" }, changed: { sign: "~", text: "Changed" } },
  pictureOf: (label: string) => `Picture of the graph: ${label}`,
} as const;
