/**
 * Every edit of a template's graph, as data (DESIGN.md "Graph model"): the canvas applies them locally (undo/redo is a
 * stack of the documents they yield), and each no-JS form of the table editor posts exactly one. `applyEdit` is pure:
 * it copies what it changes, never mutates its input, and refuses an edit that would leave the document with a
 * problem the graph model finds (validateTemplate) that it did not have before, naming that problem.
 */
import { z } from "zod";
import {
  CONNECT_MESSAGES,
  GRAPH_MESSAGES,
  NOWHERE_TYPE,
  START_TYPE,
  newVariableName,
  stepDeletionProblem,
  uniqueVariableName,
  validateTemplate,
  withStepInStage,
  type StepStatistics,
} from "./graph";
import { Form, MilestoneVariable, Path, PathAction, Roadmap, Step, TemplateContent, Transition } from "./milestone-templates";
import { NOTIFICATION_EMAIL, NOWHERE_ID, STEP_TYPES, WORKFLOW_LIMITS } from "./workflow-constants";
import { boundedList, boundedText } from "./common";

/** A path is named by the two steps it joins: the model allows one connection between the same two steps. */
export const PathRef = z.object({ from: boundedText("From step", 200), to: boundedText("To step", 200) });
export type PathRef = z.infer<typeof PathRef>;
const position = z.object({ x: z.number().finite(), y: z.number().finite() });
const stepIds = boundedList(boundedText("Step id", 200), "steps", WORKFLOW_LIMITS.steps);
const pathRefs = boundedList(PathRef, "paths", WORKFLOW_LIMITS.paths);

/** The fields of a step an edit may change (its id and position have edits of their own). */
export const StepFields = z
  .object({
    type: z.enum(STEP_TYPES),
    title: Step.shape.title,
    /** null: back to the default (1 hour for a task). */
    durationHours: z.number().min(0).max(24 * 365).nullable(),
    isCriticalDate: z.boolean(),
    notification: z.enum(NOTIFICATION_EMAIL),
    instructions: boundedText("Instructions", WORKFLOW_LIMITS.note, { multiline: true }),
    code: boundedText("Event code", 200),
    transitions: boundedList(Transition, "transitions", 50),
  })
  .partial();
export type StepFields = z.infer<typeof StepFields>;

export const GraphEdit = z.discriminatedUnion("type", [
  z.object({ type: z.literal("addStep"), step: Step }),
  z.object({ type: z.literal("updateStep"), id: boundedText("Step id", 200), fields: StepFields }),
  z.object({ type: z.literal("moveSteps"), moves: boundedList(z.object({ id: boundedText("Step id", 200), position }), "moves", WORKFLOW_LIMITS.steps) }),
  z.object({ type: z.literal("deleteSteps"), steps: stepIds, paths: pathRefs.default([]) }),
  z.object({ type: z.literal("addPath"), path: Path }),
  z.object({
    type: z.literal("updatePath"),
    ref: PathRef,
    /** The to-action (the task's fields on arrival, the path's predicates). */
    action: PathAction.optional(),
    /** The form collected on leaving (null: none). */
    form: Form.nullable().optional(),
    /** Another port of the from step ('' for none). */
    port: boundedText("Port", 100).optional(),
    pins: z.array(position).max(100).optional(),
  }),
  z.object({ type: z.literal("deletePath"), ref: PathRef }),
  /** Steps with their inner paths, ids already fresh (the canvas's clipboard makes them). */
  z.object({ type: z.literal("pasteSteps"), steps: boundedList(Step, "steps", WORKFLOW_LIMITS.steps), paths: boundedList(Path, "paths", WORKFLOW_LIMITS.paths) }),
  /** A new variable: an empty name becomes the next Var_N, a taken one gets a leading underscore (spec 3 §5). */
  z.object({ type: z.literal("addVariable"), variable: MilestoneVariable.partial({ name: true }).default({}) }),
  z.object({ type: z.literal("updateVariable"), name: boundedText("Variable name", 200), variable: MilestoneVariable }),
  z.object({ type: z.literal("deleteVariable"), name: boundedText("Variable name", 200) }),
  z.object({ type: z.literal("setVariables"), variables: TemplateContent.shape.variables }),
  z.object({ type: z.literal("setRoadmap"), roadmap: Roadmap }),
  z.object({ type: z.literal("addStage"), name: boundedText("Stage name", 200) }),
  z.object({ type: z.literal("renameStage"), name: boundedText("Stage name", 200), to: boundedText("Stage name", 200) }),
  z.object({ type: z.literal("deleteStage"), name: boundedText("Stage name", 200) }),
  /** Puts a step in one stage (null: in none); it leaves any other. */
  z.object({ type: z.literal("setStepStage"), step: boundedText("Step id", 200), stage: boundedText("Stage name", 200).nullable() }),
  z.object({
    type: z.literal("setProperties"),
    properties: TemplateContent.pick({ title: true, uniqueness: true, tags: true, hidden: true, events: true }).partial(),
  }),
]);
export type GraphEdit = z.infer<typeof GraphEdit>;
export type GraphEditInput = z.input<typeof GraphEdit>;

/** A fresh step id: the nowhere node's fixed one, the start's `start`, else the first free `step-N`. */
export function newStepId(doc: { steps: readonly { id: string }[] }, type: string): string {
  if (type === NOWHERE_TYPE) return NOWHERE_ID;
  const taken = new Set(doc.steps.map((s) => s.id));
  if (type === START_TYPE && !taken.has("start")) return "start";
  for (let n = 1; ; n++) if (!taken.has(`step-${n}`)) return `step-${n}`;
}

/** What the model reads besides the document: a step's task statistics, to refuse deleting one with open tasks. */
export type EditContext = { statistics?: (stepId: string) => StepStatistics | null | undefined };

export type EditResult = { ok: true; doc: TemplateContent } | { ok: false; message: string };

export const EDIT_MESSAGES = {
  unknownStep: "This step is no longer in the template.",
  unknownPath: "This connection is no longer in the template.",
  unknownVariable: "This variable is no longer in the template.",
  unknownStage: "This roadmap stage is no longer in the template.",
  stepIdTaken: (id: string) => `A step with the id ${id} is already in the template.`,
  nowhereOnce: "The template already has its nowhere step.",
} as const;

const refOf = (p: { from: { step: string }; to: { step: string } }): PathRef => ({ from: p.from.step, to: p.to.step });
const isRef = (ref: PathRef) => (p: { from: { step: string }; to: { step: string } }) => p.from.step === ref.from && p.to.step === ref.to;

/** The edit's change, unchecked: a new document, or why the edit does not apply to this one. */
function change(doc: TemplateContent, edit: GraphEdit, ctx: EditContext): TemplateContent | string {
  switch (edit.type) {
    case "addStep":
    case "pasteSteps": {
      const added = edit.type === "addStep" ? [edit.step] : edit.steps;
      const taken = new Set(doc.steps.map((s) => s.id));
      for (const s of added) {
        if (s.type === NOWHERE_TYPE && doc.steps.some((x) => x.type === NOWHERE_TYPE)) return EDIT_MESSAGES.nowhereOnce;
        if (s.type === NOWHERE_TYPE && s.id !== NOWHERE_ID) return GRAPH_MESSAGES.nowhereIdTaken;
        if (taken.has(s.id)) return EDIT_MESSAGES.stepIdTaken(s.id);
        taken.add(s.id);
      }
      const inner = edit.type === "pasteSteps" ? edit.paths : [];
      return { ...doc, steps: [...doc.steps, ...added], paths: [...doc.paths, ...inner] };
    }
    case "updateStep": {
      const step = doc.steps.find((s) => s.id === edit.id);
      if (!step) return EDIT_MESSAGES.unknownStep;
      const f = edit.fields;
      const next = { ...step, options: { ...step.options, notifications: { ...step.options.notifications } } };
      if (f.type !== undefined) next.type = f.type;
      if (f.title !== undefined) next.title = f.title;
      if (f.durationHours !== undefined) {
        if (f.durationHours === null) delete next.durationHours;
        else next.durationHours = f.durationHours;
      }
      if (f.isCriticalDate !== undefined) next.isCriticalDate = f.isCriticalDate;
      if (f.notification !== undefined) next.options.notifications.email = f.notification;
      if (f.instructions !== undefined) next.options.instructions = f.instructions;
      if (f.code !== undefined) next.code = f.code;
      if (f.transitions !== undefined) next.transitions = f.transitions;
      return { ...doc, steps: doc.steps.map((s) => (s.id === edit.id ? next : s)) };
    }
    case "moveSteps": {
      const to = new Map(edit.moves.map((m) => [m.id, m.position]));
      for (const id of to.keys()) if (!doc.steps.some((s) => s.id === id)) return EDIT_MESSAGES.unknownStep;
      return { ...doc, steps: doc.steps.map((s) => (to.has(s.id) ? { ...s, display: { ...s.display, position: to.get(s.id)! } } : s)) };
    }
    case "deleteSteps": {
      const gone = new Set(edit.steps);
      for (const id of gone) {
        const step = doc.steps.find((s) => s.id === id);
        if (!step) return EDIT_MESSAGES.unknownStep;
        const problem = stepDeletionProblem(step, ctx.statistics ? ctx.statistics(id) : []);
        if (problem) return problem;
      }
      for (const ref of edit.paths) if (!doc.paths.some(isRef(ref))) return EDIT_MESSAGES.unknownPath;
      const refs = edit.paths;
      return {
        ...doc,
        steps: doc.steps.filter((s) => !gone.has(s.id)),
        paths: doc.paths.filter((p) => !gone.has(p.from.step) && !gone.has(p.to.step) && !refs.some((r) => isRef(r)(p))),
        roadmap: doc.roadmap.map((r) => ({ ...r, steps: r.steps.filter((id) => !gone.has(id)) })),
      };
    }
    case "addPath": {
      if (doc.paths.some(isRef(refOf(edit.path)))) return CONNECT_MESSAGES.duplicate;
      return { ...doc, paths: [...doc.paths, edit.path] };
    }
    case "updatePath": {
      const i = doc.paths.findIndex(isRef(edit.ref));
      if (i < 0) return EDIT_MESSAGES.unknownPath;
      const p = doc.paths[i]!;
      const from = { ...p.from, action: { ...p.from.action } };
      if (edit.form !== undefined) from.action.form = edit.form;
      if (edit.port !== undefined) {
        if (edit.port === "") delete from.port;
        else from.port = edit.port;
      }
      const next = {
        ...p,
        from,
        to: edit.action !== undefined ? { ...p.to, action: edit.action } : p.to,
        display: edit.pins !== undefined ? { pins: edit.pins } : p.display,
      };
      return { ...doc, paths: doc.paths.map((x, j) => (j === i ? next : x)) };
    }
    case "deletePath": {
      if (!doc.paths.some(isRef(edit.ref))) return EDIT_MESSAGES.unknownPath;
      return { ...doc, paths: doc.paths.filter((p) => !isRef(edit.ref)(p)) };
    }
    case "addVariable": {
      const names = doc.variables.map((v) => v.name);
      const wanted = edit.variable.name?.trim();
      const name = wanted ? uniqueVariableName(wanted, names) : newVariableName(names);
      return { ...doc, variables: [...doc.variables, MilestoneVariable.parse({ ...edit.variable, name })] };
    }
    case "updateVariable": {
      const i = doc.variables.findIndex((v) => v.name === edit.name);
      if (i < 0) return EDIT_MESSAGES.unknownVariable;
      const others = doc.variables.filter((_, j) => j !== i).map((v) => v.name);
      const variable = { ...edit.variable, name: uniqueVariableName(edit.variable.name.trim(), others) };
      return { ...doc, variables: doc.variables.map((v, j) => (j === i ? variable : v)) };
    }
    case "deleteVariable": {
      if (!doc.variables.some((v) => v.name === edit.name)) return EDIT_MESSAGES.unknownVariable;
      return { ...doc, variables: doc.variables.filter((v) => v.name !== edit.name) };
    }
    case "setVariables":
      return { ...doc, variables: edit.variables };
    case "setRoadmap":
      return { ...doc, roadmap: edit.roadmap };
    case "addStage":
      return { ...doc, roadmap: [...doc.roadmap, { name: edit.name.trim(), steps: [] }] };
    case "renameStage": {
      if (!doc.roadmap.some((s) => s.name === edit.name)) return EDIT_MESSAGES.unknownStage;
      return { ...doc, roadmap: doc.roadmap.map((s) => (s.name === edit.name ? { ...s, name: edit.to.trim() } : s)) };
    }
    case "deleteStage": {
      if (!doc.roadmap.some((s) => s.name === edit.name)) return EDIT_MESSAGES.unknownStage;
      return { ...doc, roadmap: doc.roadmap.filter((s) => s.name !== edit.name) };
    }
    case "setStepStage": {
      if (!doc.steps.some((s) => s.id === edit.step)) return EDIT_MESSAGES.unknownStep;
      if (edit.stage !== null && !doc.roadmap.some((s) => s.name === edit.stage)) return EDIT_MESSAGES.unknownStage;
      return { ...doc, roadmap: withStepInStage(doc.roadmap, edit.step, edit.stage) };
    }
    case "setProperties":
      return { ...doc, ...edit.properties };
  }
}

/**
 * Applies one edit: the new document, or the message saying why not (the edit does not fit this document, or the
 * result breaks a rule of the graph model the document kept before). A start step added to a template that has one
 * is refused the same way, through validateTemplate.
 */
export function applyEdit(doc: TemplateContent, edit: GraphEdit, ctx: EditContext = {}): EditResult {
  const next = change(doc, edit, ctx);
  if (typeof next === "string") return { ok: false, message: next };
  const before = new Set(validateTemplate(doc));
  const problem = validateTemplate(next).find((p) => !before.has(p));
  return problem ? { ok: false, message: problem } : { ok: true, doc: next };
}

/** An edit as the browser sent it (JSON): parsed, then applied; a malformed edit is refused with its first issue. */
export function applyEditInput(doc: TemplateContent, input: unknown, ctx: EditContext = {}): EditResult {
  const parsed = GraphEdit.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, message: issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message };
  }
  return applyEdit(doc, parsed.data, ctx);
}
