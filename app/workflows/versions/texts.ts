/**
 * The versions kit's texts on a template's pages (spec 3 §2.6 history, badge and compare; §8 verbatim). Tests import
 * these.
 */
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
