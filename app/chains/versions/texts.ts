/**
 * The chain page's toolbar and versions (spec 3 §2.9, §4.2; §8 "Library and chains" verbatim, the spelling included).
 * The texts a template's versions share are the versions kit's (`VERSIONS`), defined once there. Tests import these.
 */
import { SAVE_TOASTS } from "@contract/limits";
import { VERSIONS } from "~/workflows/versions/texts";

export const CHAIN_VERSIONS = {
  toolbar: "Chain toolbar",
  /** Import (spec 3 §2.9, §8). */
  import: "Import",
  importTitle: "Import a template",
  importLabel: "The template's JSON",
  importHint: "Paste a chain template exported from this or another chain: it replaces this chain's links, options and chat in the draft.",
  importSubmit: "Import",
  invalidImport: "Invalid import string",
  importFailed: "Import failed",
  imported: "Template imported succesfully",
  /** Export (spec 3 §2.9, §8): copied with JavaScript, a page of its own without. */
  export: "Export",
  exportTitle: "Export the template",
  exportLabel: "The template's JSON (select it and copy it)",
  copy: "Copy to clipboard",
  copied: "Template is copied to clipboard",
  download: "Download",
  back: "Back to the chain",
  /** Compare (the versions kit's named changes). */
  compare: "Compare with current",
  compareTitle: VERSIONS.compareTitle,
  quitCompare: VERSIONS.quitCompare,
  changes: VERSIONS.changes,
  noChanges: VERSIONS.noChanges,
  current: (n: number) => `Current (version ${n})`,
  /** The version view: the item (the active version), a numbered version's preview, the draft. */
  versions: "Versions",
  item: "Active version",
  version: (n: number) => `Version ${n}`,
  draft: VERSIONS.draft,
  preview: VERSIONS.preview,
  draftView: "The draft (what the Dialog tab edits)",
  activeNote: "This is the active version.",
  noDraft: "This chain has no draft: the Dialog tab's first change starts one.",
  comment: "Comment",
  commentHint: "Optional: what changed, for the history.",
  activateDraft: "Activate draft",
  activateVersion: "Activate version",
  activateTitle: (what: "draft" | "version") => `Activate ${what}?`,
  activateDraftMessage: "The draft becomes the chain's active version, with your comment in the history.",
  activateVersionMessage: (n: number) => `Version ${n}'s content becomes the chain's active version again (a new version, with your comment).`,
  activate: VERSIONS.activate,
  draftActivated: "Draft activated",
  versionActivated: "Version activated",
  activateFailed: (what: "draft" | "version") => `Failed to activate ${what}`,
  discardDraft: VERSIONS.discardDraft,
  discardTitle: VERSIONS.discardTitle,
  discardMessage: "The draft's changes are lost; the chain stays as its active version is.",
  discardConfirm: VERSIONS.discardConfirm,
  draftDiscarded: VERSIONS.draftDiscarded,
  deleteVersion: "Delete version",
  deleteVersionTitle: "Delete version?",
  deleteVersionMessage: (n: number) => `Version ${n} leaves the chain's history. This action can't be undone.`,
  delete: "Delete",
  versionDeleted: "Version deleted",
  /**
   * Spec 3 §4.2 "save as version": the draft committed from the chain page's toolbar ('Save new version?', §8, asks a
   * Comment); "save as draft": a numbered version's content put into the draft ('Overwrite draft?' over one).
   */
  saveVersion: "Save new version",
  saveVersionTitle: "Save new version?",
  saveVersionMessage: "The draft becomes the chain's new active version, with your comment in the history.",
  saveVersionConfirm: "Save",
  versionSaved: SAVE_TOASTS.updated,
  saveAsDraft: VERSIONS.saveAsDraft,
  saveAsDraftHint: "Puts this version's content into the draft, to edit in the Dialog tab.",
  overwriteTitle: VERSIONS.overwriteTitle,
  overwriteMessage: (n: number) => `The chain's draft is replaced by version ${n}'s content: the draft's unactivated changes are lost.`,
  overwriteConfirm: VERSIONS.overwriteConfirm,
  /** A Dialog tab save that met a newer draft than the page showed: the versions kit's question, who saved it and when. */
  newerDraftMessage: VERSIONS.overwriteMessage,
  cancel: VERSIONS.cancel,
  unknownAuthor: VERSIONS.unknownAuthor,
  draftSaved: VERSIONS.draftSaved,
  /** Leaving with unsaved changes (spec 3 §2.9 'Leave anyway'); Ctrl+S saves the link form in focus. */
  leaveTitle: "Leave with unsaved changes?",
  leaveMessage: "A link's form has changes that are not saved. They are lost if you leave.",
  leaveAnyway: "Leave anyway",
  stay: "Stay",
  saveKey: "Ctrl+S saves the link you are editing.",
  updateFailed: VERSIONS.updateFailed,
} as const;
