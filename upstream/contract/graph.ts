/**
 * The graph model of a milestone template (DESIGN.md "Spec 3 building blocks"): plain data and pure functions, no
 * canvas. The template editor's canvas and table, the upstream's validation and the docket engine all call these.
 * No zod here, so a screen may import it freely.
 */

/** A node: a task, the AND join, finish, nowhere, or an event source (spec 3 §3). */
export type GraphStep = { id: string; type: string; title?: string; durationHours?: number };
/** A connection from one step (by a port) to another. */
export type GraphPath = { from: { step: string; port?: string }; to: { step: string; port?: string } };
export type Graph = { steps: readonly GraphStep[]; paths: readonly GraphPath[] };

export const START_TYPE = "milestone-start";
export const FINISH_TYPE = "finish";
export const NOWHERE_TYPE = "nowhere";
export const AND_TYPE = "and";
/** Nodes that start branches (spec 3 §9); nothing connects into them. */
export const EVENT_SOURCE_NODE_TYPES: readonly string[] = ["milestone-start", "workflow-form", "workflow"];
/** Nodes no connection leaves. */
const SINK_TYPES: readonly string[] = [FINISH_TYPE, NOWHERE_TYPE];

export const isEventSource = (step: GraphStep) => EVENT_SOURCE_NODE_TYPES.includes(step.type);
/** A step for which the engine creates a task. */
export const isTaskStep = (step: GraphStep) => step.type === "task" || step.type === "or";

/** The planned duration of a step: its own, else 1 hour (0 for finish, nowhere, event sources and the AND join). */
export function stepHours(step: GraphStep): number {
  if (SINK_TYPES.includes(step.type) || isEventSource(step) || step.type === AND_TYPE) return step.durationHours ?? 0;
  return step.durationHours ?? 1;
}

export const CONNECT_MESSAGES = {
  unknownStep: "Both ends of a connection must be steps of the template.",
  self: "A step cannot connect to itself.",
  duplicate: "These two steps are already connected.",
  intoEventSource: "Nothing can connect into an event source.",
  eventSourceToAnd: "An event source cannot connect to an AND step.",
  fromSink: "Nothing can leave a finish or nowhere step.",
} as const;

/**
 * Whether a connection from `from` to `to` may be added (spec 3 §4.1): both exist, not a loop on one step, not a
 * second connection between the same two steps, nothing into an event source, no event source into an AND step,
 * nothing out of finish or nowhere.
 */
export function canConnect(graph: Graph, from: string, to: string): { ok: true } | { ok: false; reason: string } {
  const byId = new Map(graph.steps.map((s) => [s.id, s]));
  const a = byId.get(from);
  const b = byId.get(to);
  if (!a || !b) return { ok: false, reason: CONNECT_MESSAGES.unknownStep };
  if (from === to) return { ok: false, reason: CONNECT_MESSAGES.self };
  if (graph.paths.some((p) => p.from.step === from && p.to.step === to)) return { ok: false, reason: CONNECT_MESSAGES.duplicate };
  if (SINK_TYPES.includes(a.type)) return { ok: false, reason: CONNECT_MESSAGES.fromSink };
  if (isEventSource(b)) return { ok: false, reason: CONNECT_MESSAGES.intoEventSource };
  if (isEventSource(a) && b.type === AND_TYPE) return { ok: false, reason: CONNECT_MESSAGES.eventSourceToAnd };
  return { ok: true };
}

/** A connection created to finish, nowhere or an AND step needs no editing (spec 3 §4.1); one to a task does. */
export function connectionNeedsEditing(graph: Graph, to: string): boolean {
  const step = graph.steps.find((s) => s.id === to);
  return !!step && !SINK_TYPES.includes(step.type) && step.type !== AND_TYPE;
}

/** The start node (milestone-start), if any. */
export const startStep = (graph: Graph) => graph.steps.find((s) => s.type === START_TYPE) ?? null;

/** The steps connections lead to from `from`. */
export function outgoing(graph: Graph, from: string): GraphPath[] {
  return graph.paths.filter((p) => p.from.step === from);
}

/** The distinct steps an AND step waits for (its inputs), in the order of the paths. */
export function andInputs(graph: Graph, stepId: string): string[] {
  return [...new Set(graph.paths.filter((p) => p.to.step === stepId).map((p) => p.from.step))];
}

/**
 * The steps reachable from `from` (default: the start), `from` included. An AND step is passed only when every one of
 * its inputs is reachable (it waits for all of them).
 */
export function reachable(graph: Graph, from?: string): Set<string> {
  const origin = from ?? startStep(graph)?.id;
  const seen = new Set<string>();
  if (!origin || !graph.steps.some((s) => s.id === origin)) return seen;
  const byId = new Map(graph.steps.map((s) => [s.id, s]));
  const queue = [origin];
  seen.add(origin);
  let changed = true;
  // A fixed point: an AND step becomes reachable once all its inputs are, which may be found in any order.
  while (changed) {
    changed = false;
    while (queue.length) {
      const id = queue.shift()!;
      for (const p of outgoing(graph, id)) {
        const next = byId.get(p.to.step);
        if (!next || seen.has(next.id)) continue;
        if (next.type === AND_TYPE && !andInputs(graph, next.id).every((i) => seen.has(i))) continue;
        seen.add(next.id);
        queue.push(next.id);
        changed = true;
      }
    }
    for (const s of graph.steps) {
      if (s.type === AND_TYPE && !seen.has(s.id) && andInputs(graph, s.id).length && andInputs(graph, s.id).every((i) => seen.has(i))) {
        seen.add(s.id);
        queue.push(s.id);
        changed = true;
      }
    }
  }
  return seen;
}

/** Save & Activate's check (spec 3 §5): the finish node reachable from start, else 'Finish node is unreachable'. */
export function activationProblem(graph: Graph): string | null {
  const seen = reachable(graph);
  return graph.steps.some((s) => s.type === FINISH_TYPE && seen.has(s.id)) ? null : "Finish node is unreachable";
}

/**
 * The shortest planned duration from start to finish in hours (the sum of the steps' durations on the way), or null
 * when no path exists ('Path does not exists'). An AND step starts when its last input ends: its time is the
 * longest of its inputs'. Computed as a fixed point (Bellman-Ford style), so cycles are harmless.
 */
export function shortestPlannedDuration(graph: Graph): number | null {
  const start = startStep(graph);
  if (!start) return null;
  const byId = new Map(graph.steps.map((s) => [s.id, s]));
  const end = new Map<string, number>([[start.id, stepHours(start)]]);
  for (let round = 0; round <= graph.steps.length; round++) {
    let changed = false;
    for (const step of graph.steps) {
      if (step.id === start.id) continue;
      const inputs = graph.paths.filter((p) => p.to.step === step.id).map((p) => p.from.step).filter((id) => byId.has(id));
      if (!inputs.length) continue;
      let ready: number | undefined;
      if (step.type === AND_TYPE) {
        const times = [...new Set(inputs)].map((i) => end.get(i));
        if (times.some((t) => t === undefined)) continue;
        ready = Math.max(...(times as number[]));
      } else {
        const times = inputs.map((i) => end.get(i)).filter((t): t is number => t !== undefined);
        if (!times.length) continue;
        ready = Math.min(...times);
      }
      const total = ready + stepHours(step);
      const before = end.get(step.id);
      if (before === undefined || total < before - 1e-9) {
        end.set(step.id, total);
        changed = true;
      }
    }
    if (!changed) break;
  }
  const finishes = graph.steps.filter((s) => s.type === FINISH_TYPE).map((s) => end.get(s.id)).filter((t): t is number => t !== undefined);
  return finishes.length ? Math.min(...finishes) : null;
}

// ---------------------------------------------------------------------------------------------------------------
// Variable naming (spec 3 §5)
// ---------------------------------------------------------------------------------------------------------------

/** A new variable's name: `prefix` + the first free number (Var_1, Var_2, …). */
export function newVariableName(existing: readonly string[], prefix = "Var_"): string {
  const taken = new Set(existing);
  for (let n = 1; ; n++) if (!taken.has(`${prefix}${n}`)) return `${prefix}${n}`;
}

/**
 * A variable's name made unique among `existing`: leading underscores are stripped, then a duplicate gets a leading
 * underscore (again, until it is free).
 */
export function uniqueVariableName(name: string, existing: readonly string[]): string {
  const taken = new Set(existing);
  let candidate = name.replace(/^_+/, "");
  while (taken.has(candidate)) candidate = `_${candidate}`;
  return candidate;
}

/** A form property's camel-cased identifier: lower-cased words joined, each after the first capitalised ("Due date" → "dueDate"). */
export function propertyName(label: string): string {
  const words = label
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
  const joined = words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join("");
  return /^[0-9]/.test(joined) ? `_${joined}` : joined;
}
