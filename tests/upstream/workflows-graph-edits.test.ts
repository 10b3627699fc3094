import { describe, expect, test } from "vitest";
import { CONNECT_MESSAGES, GRAPH_MESSAGES, NOWHERE_PORT } from "@contract/graph";
import { EDIT_MESSAGES, applyEdit, applyEditInput, type GraphEditInput } from "@contract/graph-edits";
import { TemplateContent } from "@contract/milestone-templates";
import { NOWHERE_ID, type StepType } from "@contract/workflow-constants";

const step = (id: string, type: StepType, title = id) => ({ id, type, title });
const path = (from: string, to: string) => ({ from: { step: from }, to: { step: to } });
const base = TemplateContent.parse({
  title: "OA",
  steps: [step("start", "milestone-start"), step("a", "task", "Prepare"), step("finish", "finish"), step(NOWHERE_ID, "nowhere")],
  paths: [path("start", "a"), path("a", "finish")],
});

/** Applies edits in turn, each parsed as the browser would send it; fails the test on a refusal. */
function apply(doc: TemplateContent, ...edits: GraphEditInput[]): TemplateContent {
  return edits.reduce((d, e) => {
    const r = applyEditInput(d, e);
    if (!r.ok) throw new Error(r.message);
    return r.doc;
  }, doc);
}
const refused = (doc: TemplateContent, edit: GraphEditInput, ctx = {}) => {
  const r = applyEditInput(doc, edit, ctx);
  return r.ok ? null : r.message;
};

describe("graph edits", () => {
  test("pure: the input document is never changed", () => {
    const copy = structuredClone(base);
    apply(base, { type: "updateStep", id: "a", fields: { title: "X", durationHours: 3, notification: "always" } }, { type: "moveSteps", moves: [{ id: "a", position: { x: 5, y: 6 } }] });
    expect(base).toEqual(copy);
  });

  test("steps: add, update fields and options, move, delete with their paths and roadmap places", () => {
    let d = apply(base, { type: "addStep", step: { id: "b", type: "task", title: "Report" } }, { type: "addPath", path: path("a", "b") });
    expect(d.steps.map((s) => s.id)).toContain("b");
    d = apply(d, { type: "updateStep", id: "b", fields: { durationHours: 2.5, isCriticalDate: true, notification: "never", instructions: "<p>Do</p>" } });
    expect(d.steps.find((s) => s.id === "b")).toMatchObject({ durationHours: 2.5, isCriticalDate: true, options: { notifications: { email: "never" }, instructions: "<p>Do</p>" } });
    d = apply(d, { type: "updateStep", id: "b", fields: { durationHours: null } });
    expect(d.steps.find((s) => s.id === "b")!.durationHours).toBeUndefined();
    d = apply(d, { type: "moveSteps", moves: [{ id: "b", position: { x: 10, y: 20 } }] });
    expect(d.steps.find((s) => s.id === "b")!.display.position).toEqual({ x: 10, y: 20 });
    d = apply(d, { type: "addStage", name: "One" }, { type: "setStepStage", step: "b", stage: "One" });
    d = apply(d, { type: "deleteSteps", steps: ["b"] });
    expect(d.steps.some((s) => s.id === "b")).toBe(false);
    expect(d.paths.some((p) => p.to.step === "b")).toBe(false);
    expect(d.roadmap).toEqual([{ name: "One", steps: [] }]);
  });

  test("steps: a taken id, a second nowhere or start step, an unknown step are refused", () => {
    expect(refused(base, { type: "addStep", step: { id: "a", type: "task" } })).toBe(EDIT_MESSAGES.stepIdTaken("a"));
    expect(refused(base, { type: "addStep", step: { id: "n2", type: "nowhere" } })).toBe(EDIT_MESSAGES.nowhereOnce);
    expect(refused(base, { type: "addStep", step: { id: "s2", type: "milestone-start" } })).toBe(GRAPH_MESSAGES.oneStart);
    expect(refused(base, { type: "updateStep", id: "zz", fields: { title: "x" } })).toBe(EDIT_MESSAGES.unknownStep);
    expect(refused(base, { type: "moveSteps", moves: [{ id: "zz", position: { x: 0, y: 0 } }] })).toBe(EDIT_MESSAGES.unknownStep);
  });

  test("a step with open tasks is not deleted; nor the start", () => {
    const stats = () => [{ status: "open" as const, count: 3 }];
    expect(refused(base, { type: "deleteSteps", steps: ["a"] }, { statistics: stats })).toBe(GRAPH_MESSAGES.stepHasOpenTasks("Prepare", 3));
    expect(refused(base, { type: "deleteSteps", steps: ["a"] }, { statistics: () => null })).toBe(GRAPH_MESSAGES.stepCountsLoading);
    expect(refused(base, { type: "deleteSteps", steps: ["start"] })).toBe(GRAPH_MESSAGES.startNotDeletable);
  });

  test("paths: the connection rules, update of the action, form and port, delete", () => {
    expect(refused(base, { type: "addPath", path: path("start", "a") })).toBe(CONNECT_MESSAGES.duplicate);
    expect(refused(base, { type: "addPath", path: path("finish", "a") })).toBe(CONNECT_MESSAGES.fromSink);
    expect(refused(base, { type: "addPath", path: path("a", "start") })).toBe(CONNECT_MESSAGES.intoEventSource);
    let d = apply(base, { type: "addStep", step: { id: "j", type: "and" } });
    expect(refused(d, { type: "addPath", path: path("start", "j") })).toBe(CONNECT_MESSAGES.eventSourceToAnd);
    expect(refused(d, { type: "addPath", path: { from: { step: "a", port: NOWHERE_PORT }, to: { step: NOWHERE_ID } } })).toBe(GRAPH_MESSAGES.nowherePortNeedsForm);
    d = apply(d, { type: "updatePath", ref: { from: "start", to: "a" }, action: { title: "Prepare {{reference}}", assignees: ["x@y.z"], predicates: [] } });
    expect(d.paths[0]!.to.action).toMatchObject({ title: "Prepare {{reference}}", assignees: ["x@y.z"] });
    const form = { name: "Filing", properties: [{ name: "Filing date", type: "date" as const }] };
    d = apply(d, { type: "addPath", path: { from: { step: "a", port: NOWHERE_PORT, action: { form } }, to: { step: NOWHERE_ID } } });
    expect(refused(d, { type: "updatePath", ref: { from: "a", to: NOWHERE_ID }, form: null })).toBe(GRAPH_MESSAGES.nowherePortNeedsForm);
    d = apply(d, { type: "updatePath", ref: { from: "a", to: NOWHERE_ID }, port: "" }, { type: "updatePath", ref: { from: "a", to: NOWHERE_ID }, form: null });
    expect(d.paths.find((p) => p.to.step === NOWHERE_ID)!.from).toEqual({ step: "a", action: { form: null } });
    d = apply(d, { type: "deletePath", ref: { from: "a", to: NOWHERE_ID } });
    expect(d.paths).toHaveLength(2);
    expect(refused(d, { type: "deletePath", ref: { from: "a", to: NOWHERE_ID } })).toBe(EDIT_MESSAGES.unknownPath);
  });

  test("paste: steps with their inner paths; an id already taken is refused", () => {
    const d = apply(base, { type: "pasteSteps", steps: [step("c1", "task"), step("c2", "task")], paths: [path("c1", "c2")] });
    expect(d.steps.map((s) => s.id)).toEqual(["start", "a", "finish", NOWHERE_ID, "c1", "c2"]);
    expect(d.paths.at(-1)).toMatchObject({ from: { step: "c1" }, to: { step: "c2" } });
    expect(refused(base, { type: "pasteSteps", steps: [step("a", "task")], paths: [] })).toBe(EDIT_MESSAGES.stepIdTaken("a"));
  });

  test("variables: Var_1, Var_2…, a duplicate gets a leading underscore, update and delete by name", () => {
    let d = apply(base, { type: "addVariable", variable: {} }, { type: "addVariable", variable: {} }, { type: "addVariable", variable: { name: "Var_1" } });
    expect(d.variables.map((v) => v.name)).toEqual(["Var_1", "Var_2", "_Var_1"]);
    d = apply(d, { type: "updateVariable", name: "_Var_1", variable: { name: "Var_2", type: "date" } });
    expect(d.variables.map((v) => v.name)).toEqual(["Var_1", "Var_2", "_Var_2"]);
    d = apply(d, { type: "deleteVariable", name: "Var_1" });
    expect(d.variables.map((v) => v.name)).toEqual(["Var_2", "_Var_2"]);
    expect(refused(d, { type: "setVariables", variables: [{ name: "A" }, { name: "A" }] })).toBe(GRAPH_MESSAGES.variableTwice("A"));
  });

  test("roadmap: a step in one stage only, stages renamed and deleted, unknown ones refused", () => {
    let d = apply(base, { type: "addStage", name: "One" }, { type: "addStage", name: "Two" }, { type: "setStepStage", step: "a", stage: "One" }, { type: "setStepStage", step: "a", stage: "Two" });
    expect(d.roadmap).toEqual([{ name: "One", steps: [] }, { name: "Two", steps: ["a"] }]);
    expect(refused(d, { type: "setRoadmap", roadmap: [{ name: "One", steps: ["a"] }, { name: "Two", steps: ["a"] }] })).toBe(GRAPH_MESSAGES.roadmapStepTwice("Prepare"));
    expect(refused(d, { type: "addStage", name: "One" })).toBe(GRAPH_MESSAGES.roadmapStageTwice("One"));
    d = apply(d, { type: "renameStage", name: "Two", to: "Report" }, { type: "deleteStage", name: "One" });
    expect(d.roadmap).toEqual([{ name: "Report", steps: ["a"] }]);
    expect(refused(d, { type: "setStepStage", step: "a", stage: "Ghost" })).toBe(EDIT_MESSAGES.unknownStage);
  });

  test("properties; a malformed edit is refused with its first issue", () => {
    const d = apply(base, { type: "setProperties", properties: { title: "Office action", tags: ["oa"], uniqueness: "unique" } });
    expect(d).toMatchObject({ title: "Office action", tags: ["oa"], uniqueness: "unique" });
    expect(refused(base, { type: "setProperties", properties: { title: "  " } })).toBe("properties.title: Template title is required");
    expect(refused(base, { type: "nonsense" } as unknown as GraphEditInput)).toMatch(/^type: /);
  });

  test("a document that already breaks a rule can still be edited elsewhere", () => {
    const broken = { ...base, roadmap: [{ name: "A", steps: ["a"] }, { name: "B", steps: ["a"] }] };
    expect(applyEdit(broken, { type: "moveSteps", moves: [{ id: "a", position: { x: 1, y: 1 } }] }).ok).toBe(true);
  });
});
