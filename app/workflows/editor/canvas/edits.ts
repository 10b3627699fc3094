/**
 * The canvas's gestures spelled as the model's graph edits (graph-edits.ts), which `applyEdit` applies exactly as it
 * applies the table editor's posts; and the dock's contents.
 */
import type { GraphEdit, PathRef } from "@contract/graph-edits";
import type { Path, Step } from "@contract/milestone-templates";
import type { StepType } from "@contract/workflow-constants";

/** The dock (spec 3 §2.6): step types, then event sources. */
export const DOCK_STEPS = ["task", "or", "and", "finish", "nowhere"] as const satisfies readonly StepType[];
export const DOCK_SOURCES = ["milestone-start", "workflow-form", "workflow"] as const satisfies readonly StepType[];

export function addStepEdit(id: string, type: StepType, position: { x: number; y: number }): GraphEdit {
  return {
    type: "addStep",
    step: {
      id,
      type,
      title: "",
      display: { position },
      transitions: [],
      options: { notifications: { email: "" }, instructions: "" },
      isCriticalDate: false,
    },
  };
}

export const moveEdit = (moves: { id: string; position: { x: number; y: number } }[]): GraphEdit => ({ type: "moveSteps", moves });
export const deleteEdit = (steps: readonly string[], paths: readonly PathRef[]): GraphEdit => ({ type: "deleteSteps", steps: [...steps], paths: [...paths] });
export const addPathEdit = (from: string, to: string, port?: string): GraphEdit => ({
  type: "addPath",
  path: { from: { step: from, ...(port ? { port } : {}), action: {} }, to: { step: to, action: { predicates: [] } }, display: { pins: [] } },
});
export const pasteEdit = (steps: Step[], paths: Path[]): GraphEdit => ({ type: "pasteSteps", steps, paths });
