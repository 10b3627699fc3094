/**
 * The chain page's toolbar and versions (spec 3 §2.9, §4.2; §8 "Library and chains" verbatim, the spelling included).
 * The texts a template's versions share are the versions kit's (`VERSIONS`), defined once there. Tests import these.
 */
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
  versionDeleted: "Version deleted",
  overwriteTitle: VERSIONS.overwriteTitle,
  updateFailed: VERSIONS.updateFailed,
} as const;
