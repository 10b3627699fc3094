/**
 * The template document as the canvas shows it: a node per step (title, type, duration, roadmap flag, task counts by
 * status) and an edge per path, from the source step's port to the target. Pure: the canvas converts at its edge and
 * keeps no graph of its own (DESIGN.md "Graph model"); tests read the same conversion.
 */
import type { Edge, Node } from "@xyflow/react";
import { AND_TYPE, FINISH_TYPE, NOWHERE_PORT, NOWHERE_TYPE, isEventSource, isTaskStep, stepHours, taskCountLabel, type StepStatistics } from "@contract/graph";
import type { TemplateContent } from "@contract/milestone-templates";
import type { StepType } from "@contract/workflow-constants";
import { CANVAS, STEP_TYPE_LABELS } from "./texts";

export const NODE_WIDTH = 200;
export const NODE_HEIGHT = 84;
/** The port a path leaves by when it names none. */
export const DEFAULT_PORT = "out";
export const TARGET_PORT = "in";

export type TaskCounts = Readonly<Record<string, StepStatistics>>;

export type StepNodeData = {
  title: string;
  type: StepType;
  typeLabel: string;
  /** The planned duration in hours, or null where the step takes none (event sources, sinks, AND). */
  hours: number | null;
  onRoadmap: boolean;
  counts: { status: string; label: string }[] | null;
  /** The ports paths leave by, the default first; none for finish and nowhere. */
  ports: string[];
  /** Whether paths may arrive (not for event sources). */
  accepts: boolean;
};
export type StepNode = Node<StepNodeData, "step">;

export type Visibility = { workflow: boolean; eventSources: boolean };

type Doc = Pick<TemplateContent, "steps" | "paths" | "roadmap">;

const takesTime = (type: string) => ![FINISH_TYPE, NOWHERE_TYPE, AND_TYPE].includes(type) && !isEventSource({ id: "", type });

/**
 * The ports a step's paths leave by: the default one; a task's nowhere port (spec 3 §4.1: a connection from it
 * collects a form); and any other port its paths name (a transition's).
 */
function portsOf(step: { type: string; id: string }, named: ReadonlySet<string> | undefined): string[] {
  const ports = [DEFAULT_PORT];
  if (isTaskStep(step)) ports.push(NOWHERE_PORT);
  for (const p of named ?? []) if (!ports.includes(p)) ports.push(p);
  return ports;
}

export function nodesOf(doc: Doc, counts: TaskCounts | null, selected: ReadonlySet<string> = new Set()): StepNode[] {
  const staged = new Set(doc.roadmap.flatMap((stage) => stage.steps));
  const portsByStep = new Map<string, Set<string>>();
  for (const p of doc.paths) {
    if (!p.from.port) continue;
    const set = portsByStep.get(p.from.step) ?? new Set<string>();
    set.add(p.from.port);
    portsByStep.set(p.from.step, set);
  }
  return doc.steps.map((step) => {
    const sink = step.type === FINISH_TYPE || step.type === NOWHERE_TYPE;
    const stats = counts?.[step.id];
    return {
      id: step.id,
      type: "step",
      position: step.display.position,
      width: NODE_WIDTH,
      height: NODE_HEIGHT,
      selected: selected.has(step.id),
      ariaLabel: CANVAS.nodeLabel(step.title, STEP_TYPE_LABELS[step.type]),
      data: {
        title: step.title,
        type: step.type,
        typeLabel: STEP_TYPE_LABELS[step.type],
        hours: takesTime(step.type) ? stepHours(step) : null,
        onRoadmap: staged.has(step.id),
        counts: stats ? stats.map((s) => ({ status: s.status, label: taskCountLabel(s.count) })) : null,
        ports: sink ? [] : portsOf(step, portsByStep.get(step.id)),
        accepts: !isEventSource(step),
      },
    };
  });
}

/** A path's edge id: its position in the document (paths need not carry ids). */
export const edgeId = (index: number) => `path-${index}`;
export const pathIndexOf = (id: string) => (id.startsWith("path-") ? Number(id.slice(5)) : -1);

/** Edges for the paths, without those leaving the sources the 'Show connections' boxes hide. */
export function edgesOf(doc: Doc, visible: Visibility): Edge[] {
  const types = new Map(doc.steps.map((s) => [s.id, s.type]));
  const hidden = (from: string) => {
    const type = types.get(from);
    if (type === "workflow") return !visible.workflow;
    if (type && isEventSource({ id: from, type })) return !visible.eventSources;
    return false;
  };
  return doc.paths.flatMap((p, i) =>
    hidden(p.from.step)
      ? []
      : [
          {
            id: edgeId(i),
            source: p.from.step,
            target: p.to.step,
            sourceHandle: p.from.port || DEFAULT_PORT,
            targetHandle: TARGET_PORT,
            label: p.from.port && p.from.port !== DEFAULT_PORT ? p.from.port : undefined,
          },
        ],
  );
}
