/**
 * Auto-layout: the template's graph handed to ELK's layered algorithm (left to right, as the steps run), and the
 * positions it returns. Pure, so the conversion is tested with ELK's bundled build in Node; in the browser the same
 * graph goes to ELK's web worker (layout.client.ts), so a 300-step layout never blocks the main thread.
 */
import type { ElkExtendedEdge, ElkNode } from "elkjs/lib/elk-api";
import { NODE_HEIGHT, NODE_WIDTH } from "./view";

type Positioned = { id: string; display: { position: { x: number; y: number } } };
type Linked = { from: { step: string }; to: { step: string } };

export const ELK_OPTIONS = {
  "elk.algorithm": "layered",
  "elk.direction": "RIGHT",
  "elk.spacing.nodeNode": "40",
  "elk.layered.spacing.nodeNodeBetweenLayers": "80",
  "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF",
  // Steps with no connection (a nowhere node, a fresh insert) are laid out beside the rest, not on top of it.
  "elk.separateConnectedComponents": "true",
} as const;

/** The ELK graph of a template: one node per step (the canvas's node size), one edge per path. */
export function elkGraphOf(doc: { steps: readonly Positioned[]; paths: readonly Linked[] }): ElkNode {
  const ids = new Set(doc.steps.map((s) => s.id));
  const edges: ElkExtendedEdge[] = doc.paths
    .filter((p) => ids.has(p.from.step) && ids.has(p.to.step) && p.from.step !== p.to.step)
    .map((p, i) => ({ id: `e${i}`, sources: [p.from.step], targets: [p.to.step] }));
  return {
    id: "root",
    layoutOptions: { ...ELK_OPTIONS },
    children: doc.steps.map((s) => ({ id: s.id, width: NODE_WIDTH, height: NODE_HEIGHT })),
    edges,
  };
}

/** The positions ELK chose, by step id, rounded to whole pixels. */
export function positionsOf(laidOut: ElkNode): Map<string, { x: number; y: number }> {
  return new Map((laidOut.children ?? []).map((c) => [c.id, { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) }]));
}
