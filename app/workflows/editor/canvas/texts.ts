/**
 * The canvas's own texts: its controls, and what the live region says after each action (the spec leaves these open;
 * docs/decisions/template-editor.md "Canvas"). The spec's texts (§2.6, §4.1, §8) and the model's refusals come from the contract (graph.ts). Tests import
 * these.
 */
import type { StepType } from "@contract/workflow-constants";

export const CANVAS = {
  region: "Template graph",
  tools: "Canvas tools",
  regionHint:
    "Tab moves between steps. Arrow keys move the focused step (Shift: further). Enter edits it, C connects it to another step, Delete removes the selection. Ctrl+Z undoes, Ctrl+Shift+Z redoes, Ctrl+C and Ctrl+V copy and paste steps.",
  showConnections: "Show connections",
  showWorkflow: "Workflow",
  showEventSources: "Event Sources",
  dock: "Dock",
  dockSteps: "Step types",
  dockSources: "Event sources",
  dockHint: "Drag onto the canvas, or press Enter to insert.",
  insert: (label: string) => `Insert ${label}`,
  autoLayout: "Auto-layout",
  fitView: "Fit view",
  undo: "Undo",
  redo: "Redo",
  unsaved: "Unsaved changes",
  leaveTitle: "Leave the editor?",
  leaveMessage: "Your changes to this template are not saved. They are lost if you leave.",
  leave: "Leave",
  stay: "Stay",
  connectTitle: (from: string) => `Connect ${from} to…`,
  connectTarget: "Target step",
  connect: "Connect",
  noTargets: "No step can be connected from here.",
  minimap: "Overview of the graph",
  editTitle: "Edit",
  /** The connection editor opened by a new connection (spec 3 §2.5's '{action} connection'). */
  newConnectionTitle: "Create connection",
  close: "Close",
  alternatives: "Conditional alternatives",
  connection: "The connection",
  duration: (hours: number) => `${Number.isInteger(hours) ? hours : hours.toFixed(1)} h`,
  roadmap: "On the roadmap",
  counts: "Tasks by status",
  nodeLabel: (title: string, type: string) => `${title || "(untitled)"}, ${type}`,
  edgeLabel: (from: string, to: string) => `Connection from ${from} to ${to}`,
  announce: {
    inserted: (title: string) => `${title} inserted.`,
    moved: (title: string, x: number, y: number) => `${title} moved to ${Math.round(x)}, ${Math.round(y)}.`,
    connected: (from: string, to: string) => `${from} connected to ${to}.`,
    refused: (reason: string) => `Not done: ${reason}`,
    deleted: (n: number) => (n === 1 ? "1 item deleted." : `${n} items deleted.`),
    copied: (n: number) => (n === 1 ? "1 step copied." : `${n} steps copied.`),
    pasted: (n: number) => (n === 1 ? "1 step pasted." : `${n} steps pasted.`),
    nothingToPaste: "Nothing to paste: copy steps first.",
    undone: "Undone.",
    redone: "Redone.",
    nothingToUndo: "Nothing to undo.",
    nothingToRedo: "Nothing to redo.",
    laidOut: "Steps arranged.",
    layoutFailed: "The steps could not be arranged. Try again.",
    edited: (title: string) => `${title} updated.`,
    opened: (what: string) => `${what} open. Escape closes it.`,
    closed: (what: string) => `${what} closed.`,
    connectionEditing: (from: string, to: string) => `${from} connected to ${to}: edit the connection, or Cancel to remove it.`,
    connectionKept: (from: string, to: string) => `${from} connected to ${to}.`,
    connectionCancelled: (from: string, to: string) => `Connection from ${from} to ${to} removed.`,
    connectionNeedsForm: (from: string, to: string, reason: string) => `Connection from ${from} to ${to} removed: ${reason}`,
    selected: (n: number) => (n === 1 ? "1 step selected." : `${n} steps selected.`),
  },
} as const;

/** The names of step types on the canvas and in its dock. */
export const STEP_TYPE_LABELS: Record<StepType, string> = {
  task: "Task",
  or: "OR task",
  and: "AND",
  finish: "Finish",
  nowhere: "Nowhere",
  "milestone-start": "Milestone start",
  "workflow-form": "Workflow form",
  workflow: "Workflow",
};
