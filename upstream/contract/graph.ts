/**
 * The graph model of a milestone template (DESIGN.md "Spec 3 building blocks"): plain data and pure functions, no
 * canvas. The template editor's canvas and table, the upstream's validation and the docket engine all call these.
 * No zod here, so a screen may import it freely.
 */
import type { TemplateContent } from "./milestone-templates";
import { NOWHERE_ID, TERMINAL_TASK_STATUSES, WORKFLOW_MESSAGES, type TaskStatus } from "./workflow-constants";

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
  const a = graph.steps.find((s) => s.id === from);
  const b = graph.steps.find((s) => s.id === to);
  const duplicate = graph.paths.some((p) => p.from.step === from && p.to.step === to);
  const reason = connectionProblem(a, b, duplicate);
  return reason ? { ok: false, reason } : { ok: true };
}

/** The rules of canConnect over steps already looked up (validateTemplate checks every path without a search each). */
function connectionProblem(a: GraphStep | undefined, b: GraphStep | undefined, duplicate: boolean): string | null {
  if (!a || !b) return CONNECT_MESSAGES.unknownStep;
  if (a.id === b.id) return CONNECT_MESSAGES.self;
  if (duplicate) return CONNECT_MESSAGES.duplicate;
  if (SINK_TYPES.includes(a.type)) return CONNECT_MESSAGES.fromSink;
  if (isEventSource(b)) return CONNECT_MESSAGES.intoEventSource;
  if (isEventSource(a) && b.type === AND_TYPE) return CONNECT_MESSAGES.eventSourceToAnd;
  return null;
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

/** Adjacency of a graph, built once per call: leaving paths by step, and each AND step's distinct inputs. */
function adjacency(graph: Graph) {
  const out = new Map<string, string[]>();
  const inputs = new Map<string, Set<string>>();
  for (const p of graph.paths) {
    const list = out.get(p.from.step);
    if (list) list.push(p.to.step);
    else out.set(p.from.step, [p.to.step]);
    const into = inputs.get(p.to.step);
    if (into) into.add(p.from.step);
    else inputs.set(p.to.step, new Set([p.from.step]));
  }
  return { out, inputs };
}

/**
 * The steps reachable from `from` (default: the start), `from` included. An AND step is passed only when every one of
 * its inputs is reachable (it waits for all of them). Linear in steps and paths: each AND step counts its inputs down.
 */
export function reachable(graph: Graph, from?: string): Set<string> {
  const origin = from ?? startStep(graph)?.id;
  const seen = new Set<string>();
  if (!origin) return seen;
  const byId = new Map(graph.steps.map((s) => [s.id, s]));
  if (!byId.has(origin)) return seen;
  const { out, inputs } = adjacency(graph);
  const waiting = new Map<string, number>();
  const queue = [origin];
  seen.add(origin);
  for (let head = 0; head < queue.length; head++) {
    const id = queue[head]!;
    for (const to of new Set(out.get(id) ?? [])) {
      const next = byId.get(to);
      if (!next || seen.has(to)) continue;
      if (next.type === AND_TYPE) {
        const left = (waiting.get(to) ?? inputs.get(to)!.size) - 1;
        waiting.set(to, left);
        if (left > 0) continue;
      }
      seen.add(to);
      queue.push(to);
    }
  }
  return seen;
}

/** Save & Activate's check (spec 3 §5): the finish node reachable from start, else 'Finish node is unreachable'. */
export function activationProblem(graph: Graph): string | null {
  const seen = reachable(graph);
  return graph.steps.some((s) => s.type === FINISH_TYPE && seen.has(s.id)) ? null : WORKFLOW_MESSAGES.finishUnreachable;
}

/** A binary min-heap of [time, step id], for the shortest duration below. */
class Heap {
  private readonly items: [number, string][] = [];
  get size() {
    return this.items.length;
  }
  push(item: [number, string]) {
    const a = this.items;
    a.push(item);
    for (let i = a.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (a[parent]![0] <= a[i]![0]) break;
      [a[parent], a[i]] = [a[i]!, a[parent]!];
      i = parent;
    }
  }
  pop(): [number, string] {
    const a = this.items;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length) {
      a[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l]![0] < a[m]![0]) m = l;
        if (r < a.length && a[r]![0] < a[m]![0]) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i]!, a[m]!];
        i = m;
      }
    }
    return top;
  }
}

/**
 * The shortest planned duration from start to finish in hours (the sum of the steps' durations on the way), or null
 * when no path exists ('Path does not exists'). An AND step starts when its last input ends: its time is the
 * longest of its inputs'. Durations are never negative, so Dijkstra's order finalises each step once (Knuth's
 * extension for the AND's max): an AND step is settled when its last input is; cycles are harmless.
 */
export function shortestPlannedDuration(graph: Graph): number | null {
  const start = startStep(graph);
  if (!start) return null;
  const byId = new Map(graph.steps.map((s) => [s.id, s]));
  const { out, inputs } = adjacency(graph);
  const done = new Map<string, number>();
  const best = new Map<string, number>([[start.id, stepHours(start)]]);
  const andReady = new Map<string, { left: number; latest: number }>();
  const heap = new Heap();
  heap.push([stepHours(start), start.id]);
  let result: number | null = null;
  while (heap.size) {
    const [time, id] = heap.pop();
    if (done.has(id)) continue;
    done.set(id, time);
    const step = byId.get(id)!;
    if (step.type === FINISH_TYPE) {
      result = time;
      break;
    }
    for (const to of new Set(out.get(id) ?? [])) {
      const next = byId.get(to);
      if (!next || done.has(to)) continue;
      let ready = time;
      if (next.type === AND_TYPE) {
        const state = andReady.get(to) ?? { left: [...inputs.get(to)!].filter((i) => byId.has(i)).length, latest: 0 };
        state.left -= 1;
        state.latest = Math.max(state.latest, time);
        andReady.set(to, state);
        if (state.left > 0) continue;
        ready = state.latest;
      }
      const total = ready + stepHours(next);
      const before = best.get(to);
      if (before === undefined || total < before) {
        best.set(to, total);
        heap.push([total, to]);
      }
    }
  }
  return result;
}

/** The header's text: 'Shortest planned duration: N hours' (one decimal), or 'Path does not exists'. */
export function shortestDurationText(graph: Graph): string {
  const hours = shortestPlannedDuration(graph);
  return hours === null ? WORKFLOW_MESSAGES.pathDoesNotExist : WORKFLOW_MESSAGES.shortestPlannedDuration(hours);
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

// ---------------------------------------------------------------------------------------------------------------
// Ports, roadmap, deletion, and the whole template's check
// ---------------------------------------------------------------------------------------------------------------

/** A task's port that ends its branch without a next task: a connection from it must collect a form (spec 3 §4.1). */
export const NOWHERE_PORT = "nowhere";

export const GRAPH_MESSAGES = {
  duplicateStepId: (id: string) => `Two steps have the id ${id}.`,
  nowhereIdTaken: `The id ${NOWHERE_ID} belongs to the nowhere step.`,
  oneStart: "A template has one start step.",
  nowherePortNeedsForm: "A connection from the nowhere port needs a form.",
  roadmapStepTwice: (title: string) => `The step '${title}' is in more than one roadmap stage.`,
  roadmapUnknownStep: (stage: string) => `The roadmap stage '${stage}' lists a step that is not in the template.`,
  roadmapStageName: "A roadmap stage needs a name.",
  roadmapStageTwice: (name: string) => `Two roadmap stages are named '${name}'.`,
  variableName: "A variable needs a name.",
  variableTwice: (name: string) => `Two variables are named '${name}'.`,
  propertyIdentifier: (name: string) => `The form property '${name}' needs a camel-cased identifier.`,
  propertyTwice: (property: string) => `Two properties of one form are saved as '${property}'.`,
  stepCountsLoading: "Task counts are still loading: try again in a moment.",
  stepHasOpenTasks: (title: string, n: number) => `'${title}' cannot be deleted: ${n} of its tasks are still open.`,
  startNotDeletable: "The start step cannot be deleted.",
} as const;

/** A camel-cased identifier, as propertyName makes them. */
export const isPropertyIdentifier = (name: string) => /^[a-z_][A-Za-z0-9]*$/.test(name);

type RoadmapStage = { name: string; steps: readonly string[] };

/** The roadmap with `stepId` in `stage` only (null: in none); a step belongs to one stage at most (spec 3 §5). */
export function withStepInStage<S extends RoadmapStage>(roadmap: readonly S[], stepId: string, stage: string | null): S[] {
  return roadmap.map((s) => {
    const steps = s.steps.filter((id) => id !== stepId);
    return { ...s, steps: s.name === stage ? [...steps, stepId] : steps };
  });
}

/** The stage a step belongs to, or null. */
export const stageOf = (roadmap: readonly RoadmapStage[], stepId: string) => roadmap.find((s) => s.steps.includes(stepId))?.name ?? null;

/** The roadmap icon (spec 3 §4.1): a stage with steps is ok, an empty one an error. */
export const stageMark = (stage: RoadmapStage): "ok" | "error" => (stage.steps.length ? "ok" : "error");

/** Open tasks by status, as GET …/steps/{s}/statistics answers. */
export type StepStatistics = readonly { status: TaskStatus; count: number }[];

/** Tasks in a non-terminal status (open ones). */
export const openTaskCount = (stats: StepStatistics) =>
  stats.filter((s) => !TERMINAL_TASK_STATUSES.includes(s.status)).reduce((n, s) => n + s.count, 0);

/** A task count on a node: '99+' above 99 (spec 3 §9). */
export const taskCountLabel = (n: number) => (n > 99 ? "99+" : String(n));

/**
 * Whether a step may be deleted (spec 3 §4.1): never the start; only once its task counts are loaded (null: not yet)
 * and when none of its tasks is in a non-terminal status. Null when it may, else why not.
 */
export function stepDeletionProblem(step: GraphStep, stats: StepStatistics | null | undefined): string | null {
  if (step.type === START_TYPE) return GRAPH_MESSAGES.startNotDeletable;
  if (!isTaskStep(step)) return null;
  if (!stats) return GRAPH_MESSAGES.stepCountsLoading;
  const open = openTaskCount(stats);
  return open ? GRAPH_MESSAGES.stepHasOpenTasks(step.title || step.id, open) : null;
}

/** The content validateTemplate reads: the graph and the parts the model has rules for. */
export type TemplateGraph = Pick<TemplateContent, "steps" | "paths" | "roadmap" | "variables">;

/**
 * Every problem of a template document against the model's rules, in the order a reader meets them (steps, paths,
 * roadmap, variables, forms); empty when it is sound. The upstream refuses a save naming the first one, whatever
 * the browser sent; the editors show the list. Reachability is not a save rule: a template under construction may
 * have no way to finish yet (activation checks it, activationProblem).
 */
export function validateTemplate(doc: TemplateGraph): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const s of doc.steps) {
    if (ids.has(s.id)) problems.push(GRAPH_MESSAGES.duplicateStepId(s.id));
    ids.add(s.id);
    if (s.id === NOWHERE_ID && s.type !== NOWHERE_TYPE) problems.push(GRAPH_MESSAGES.nowhereIdTaken);
  }
  if (doc.steps.filter((s) => s.type === START_TYPE).length > 1) problems.push(GRAPH_MESSAGES.oneStart);
  // Each path against the connection rules, a second one between the same two steps being the duplicate.
  const counted = new Map<string, number>();
  for (const p of doc.paths) counted.set(`${p.from.step}\u0000${p.to.step}`, (counted.get(`${p.from.step}\u0000${p.to.step}`) ?? 0) + 1);
  const byId = new Map<string, GraphStep>(doc.steps.map((s) => [s.id, s]));
  const reported = new Set<string>();
  for (const p of doc.paths) {
    const key = `${p.from.step}\u0000${p.to.step}`;
    const problem = connectionProblem(byId.get(p.from.step), byId.get(p.to.step), (counted.get(key) ?? 0) > 1);
    if (problem && !reported.has(`${key}\u0000${problem}`)) {
      reported.add(`${key}\u0000${problem}`);
      problems.push(problem);
    }
    if (p.from.port === NOWHERE_PORT && !p.from.action?.form) problems.push(GRAPH_MESSAGES.nowherePortNeedsForm);
  }
  const titles = new Map(doc.steps.map((s) => [s.id, s.title || s.id]));
  const staged = new Set<string>();
  const stageNames = new Set<string>();
  for (const stage of doc.roadmap) {
    if (!stage.name.trim()) problems.push(GRAPH_MESSAGES.roadmapStageName);
    else if (stageNames.has(stage.name)) problems.push(GRAPH_MESSAGES.roadmapStageTwice(stage.name));
    stageNames.add(stage.name);
    for (const id of stage.steps) {
      if (!ids.has(id)) problems.push(GRAPH_MESSAGES.roadmapUnknownStep(stage.name));
      else if (staged.has(id)) problems.push(GRAPH_MESSAGES.roadmapStepTwice(titles.get(id) ?? id));
      staged.add(id);
    }
  }
  const names = new Set<string>();
  for (const v of doc.variables) {
    if (!v.name.trim()) problems.push(GRAPH_MESSAGES.variableName);
    else if (names.has(v.name)) problems.push(GRAPH_MESSAGES.variableTwice(v.name));
    names.add(v.name);
  }
  for (const p of doc.paths) {
    const seen = new Set<string>();
    for (const prop of p.from.action?.form?.properties ?? []) {
      const id = prop.property || propertyName(prop.name);
      if (!isPropertyIdentifier(id)) problems.push(GRAPH_MESSAGES.propertyIdentifier(prop.name));
      else if (seen.has(id)) problems.push(GRAPH_MESSAGES.propertyTwice(id));
      seen.add(id);
    }
  }
  return problems;
}
