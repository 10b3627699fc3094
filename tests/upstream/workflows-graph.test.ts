import { describe, expect, test } from "vitest";
import { firstGraph } from "../../upstream/src/workflows/store";
import {
  CONNECT_MESSAGES,
  GRAPH_MESSAGES,
  NOWHERE_PORT,
  activationProblem,
  andInputs,
  canConnect,
  connectionNeedsEditing,
  newVariableName,
  propertyName,
  reachable,
  shortestDurationText,
  shortestPlannedDuration,
  stageMark,
  stageOf,
  stepDeletionProblem,
  taskCountLabel,
  uniqueVariableName,
  validateTemplate,
  withStepInStage,
  type Graph,
  type TemplateGraph,
} from "@contract/graph";
import { NOWHERE_ID, WORKFLOW_MESSAGES } from "@contract/workflow-constants";
import { timeOrderedId } from "../../upstream/src/workflows/engine";

const steps = [
  { id: "s", type: "milestone-start" },
  { id: "a", type: "task", durationHours: 2 },
  { id: "b", type: "task", durationHours: 5 },
  { id: "j", type: "and" },
  { id: "c", type: "task" },
  { id: "f", type: "finish" },
  { id: NOWHERE_ID, type: "nowhere" },
  { id: "mail", type: "workflow-form" },
];
const path = (from: string, to: string) => ({ from: { step: from }, to: { step: to } });

describe("graph model", () => {
  const g: Graph = { steps, paths: [path("s", "a"), path("s", "b"), path("a", "j"), path("b", "j"), path("j", "c"), path("c", "f")] };

  test("canConnect: §4.1's rules", () => {
    expect(canConnect(g, "a", "c")).toEqual({ ok: true });
    expect(canConnect(g, "s", "a")).toEqual({ ok: false, reason: CONNECT_MESSAGES.duplicate });
    expect(canConnect(g, "mail", "j")).toEqual({ ok: false, reason: CONNECT_MESSAGES.eventSourceToAnd });
    expect(canConnect(g, "a", "mail")).toEqual({ ok: false, reason: CONNECT_MESSAGES.intoEventSource });
    expect(canConnect(g, "f", "a")).toEqual({ ok: false, reason: CONNECT_MESSAGES.fromSink });
    expect(canConnect(g, "a", "a")).toEqual({ ok: false, reason: CONNECT_MESSAGES.self });
    expect(canConnect(g, "a", "zz")).toEqual({ ok: false, reason: CONNECT_MESSAGES.unknownStep });
    expect(connectionNeedsEditing(g, "f")).toBe(false);
    expect(connectionNeedsEditing(g, NOWHERE_ID)).toBe(false);
    expect(connectionNeedsEditing(g, "j")).toBe(false);
    expect(connectionNeedsEditing(g, "c")).toBe(true);
  });

  test("reachability and the AND join; 'Finish node is unreachable'", () => {
    expect([...reachable(g)].sort()).toEqual(["a", "b", "c", "f", "j", "s"]);
    expect(activationProblem(g)).toBeNull();
    // One input of the AND join never happens: the join, and what follows, is unreachable.
    const broken: Graph = { steps, paths: [path("s", "a"), path("a", "j"), path("b", "j"), path("j", "c"), path("c", "f")] };
    expect(reachable(broken).has("j")).toBe(false);
    expect(activationProblem(broken)).toBe(WORKFLOW_MESSAGES.finishUnreachable);
    expect(andInputs(g, "j")).toEqual(["a", "b"]);
  });

  test("shortest planned duration: AND waits for its longest input; no path gives null", () => {
    // s(0) → a(2), b(5) → j = max(2, 5) → c(1) → f(0) = 6
    expect(shortestPlannedDuration(g)).toBe(6);
    const or: Graph = { steps, paths: [path("s", "a"), path("s", "b"), path("a", "c"), path("b", "c"), path("c", "f")] };
    expect(shortestPlannedDuration(or)).toBe(3);
    expect(shortestPlannedDuration({ steps, paths: [path("s", "a")] })).toBeNull();
    expect(WORKFLOW_MESSAGES.shortestPlannedDuration(6)).toBe("Shortest planned duration: 6.0 hours");
  });

  test("variable naming (§5)", () => {
    expect(newVariableName([])).toBe("Var_1");
    expect(newVariableName(["Var_1", "Var_3"])).toBe("Var_2");
    expect(newVariableName(["Due_1"], "Due_")).toBe("Due_2");
    expect(uniqueVariableName("__name", [])).toBe("name");
    expect(uniqueVariableName("name", ["name"])).toBe("_name");
    expect(uniqueVariableName("name", ["name", "_name"])).toBe("__name");
    expect(propertyName("Due date of the Response")).toBe("dueDateOfTheResponse");
    expect(propertyName("  Client's e-mail ")).toBe("clientSEMail");
  });

  test("the header's duration text: one decimal, or 'Path does not exists'", () => {
    expect(shortestDurationText({ steps: [...steps.slice(0, 2), { id: "a2", type: "task", durationHours: 0.25 }, steps[5]!], paths: [path("s", "a"), path("a", "a2"), path("a2", "f")] })).toBe(
      "Shortest planned duration: 2.3 hours",
    );
    expect(shortestDurationText(g)).toBe("Shortest planned duration: 6.0 hours");
    expect(shortestDurationText({ steps, paths: [] })).toBe("Path does not exists");
  });

  test("a cycle neither loops nor shortens; an AND waiting on a step past itself never starts", () => {
    const cyclic: Graph = { steps, paths: [path("s", "a"), path("a", "c"), path("c", "a"), path("c", "f")] };
    expect(shortestPlannedDuration(cyclic)).toBe(3);
    const deadlock: Graph = { steps, paths: [path("s", "a"), path("a", "j"), path("j", "b"), path("b", "j"), path("j", "f")] };
    expect(reachable(deadlock).has("j")).toBe(false);
    expect(shortestPlannedDuration(deadlock)).toBeNull();
  });

  test("roadmap membership: a step in one stage only; empty stages are marked as errors", () => {
    const roadmap = [
      { name: "Filing", steps: ["a"] },
      { name: "Report", steps: [] as string[] },
    ];
    const moved = withStepInStage(roadmap, "a", "Report");
    expect(moved).toEqual([
      { name: "Filing", steps: [] },
      { name: "Report", steps: ["a"] },
    ]);
    expect(stageOf(moved, "a")).toBe("Report");
    expect(withStepInStage(moved, "a", null).every((s) => s.steps.length === 0)).toBe(true);
    expect(stageMark(moved[0]!)).toBe("error");
    expect(stageMark(moved[1]!)).toBe("ok");
  });

  test("a step with open tasks cannot be deleted, nor before its counts are loaded; counts above 99 read 99+", () => {
    const task = { id: "a", type: "task", title: "Prepare" };
    expect(stepDeletionProblem(task, null)).toBe(GRAPH_MESSAGES.stepCountsLoading);
    expect(stepDeletionProblem(task, [{ status: "open", count: 2 }, { status: "completed", count: 5 }])).toBe("'Prepare' cannot be deleted: 2 of its tasks are still open.");
    expect(stepDeletionProblem(task, [{ status: "completed", count: 5 }, { status: "closed", count: 1 }])).toBeNull();
    expect(stepDeletionProblem({ id: "f", type: "finish" }, null)).toBeNull();
    expect(stepDeletionProblem({ id: "s", type: "milestone-start" }, [])).toBe(GRAPH_MESSAGES.startNotDeletable);
    expect(taskCountLabel(99)).toBe("99");
    expect(taskCountLabel(100)).toBe("99+");
  });

  describe("validateTemplate: every rule, the first problem first", () => {
    const sound: TemplateGraph = {
      steps: steps.map((s) => ({ ...s, title: s.id, display: { position: { x: 0, y: 0 } }, transitions: [], options: { notifications: { email: "" }, instructions: "" }, isCriticalDate: false })) as TemplateGraph["steps"],
      paths: g.paths.map((p) => ({ from: { ...p.from, action: {} }, to: { ...p.to, action: { predicates: [] } }, display: { pins: [] } })),
      roadmap: [{ name: "One", steps: ["a", "b"] }],
      variables: [{ name: "Var_1", description: "", origin: "custom", type: "string", required: false, property: "", saveTo: "" }],
    };
    const withPath = (from: string, to: string, extra: Partial<TemplateGraph["paths"][number]["from"]> = {}): TemplateGraph => ({
      ...sound,
      paths: [...sound.paths, { from: { step: from, action: {}, ...extra }, to: { step: to, action: { predicates: [] } }, display: { pins: [] } }],
    });
    const form = (...names: string[]) => ({
      name: "Filing",
      properties: names.map((name) => ({ name, description: "", type: "string" as const, required: false, saveTo: "", multiple: false, ext: [], search: [], tags: [], isRichText: true, property: "" })),
    });

    test("a sound template has no problem", () => expect(validateTemplate(sound)).toEqual([]));
    test("connections: duplicate, into an event source, event source into AND, out of finish, unknown step, loop", () => {
      expect(validateTemplate(withPath("s", "a"))).toEqual([CONNECT_MESSAGES.duplicate]);
      expect(validateTemplate(withPath("a", "mail"))).toEqual([CONNECT_MESSAGES.intoEventSource]);
      expect(validateTemplate(withPath("mail", "j"))).toEqual([CONNECT_MESSAGES.eventSourceToAnd]);
      expect(validateTemplate(withPath("f", "a"))).toEqual([CONNECT_MESSAGES.fromSink]);
      expect(validateTemplate(withPath("a", "ghost"))).toEqual([CONNECT_MESSAGES.unknownStep]);
      expect(validateTemplate(withPath("a", "a"))).toEqual([CONNECT_MESSAGES.self]);
    });
    test("a connection from the nowhere port needs a form", () => {
      expect(validateTemplate(withPath("a", NOWHERE_ID, { port: NOWHERE_PORT }))).toEqual([GRAPH_MESSAGES.nowherePortNeedsForm]);
      expect(validateTemplate(withPath("a", NOWHERE_ID, { port: NOWHERE_PORT, action: { form: form("Filing date") } }))).toEqual([]);
    });
    test("steps: unique ids, one start, the nowhere id kept for nowhere", () => {
      expect(validateTemplate({ ...sound, steps: [...sound.steps, { ...sound.steps[1]! }] })).toEqual([GRAPH_MESSAGES.duplicateStepId("a")]);
      expect(validateTemplate({ ...sound, steps: [...sound.steps, { ...sound.steps[0]!, id: "s2" }] })).toEqual([GRAPH_MESSAGES.oneStart]);
      const nowhereAsTask = sound.steps.map((s) => (s.id === NOWHERE_ID ? { ...s, type: "task" as const } : s));
      expect(validateTemplate({ ...sound, steps: nowhereAsTask })).toEqual([GRAPH_MESSAGES.nowhereIdTaken]);
    });
    test("roadmap: a step in one stage, known steps, named and distinct stages", () => {
      expect(validateTemplate({ ...sound, roadmap: [{ name: "One", steps: ["a"] }, { name: "Two", steps: ["a"] }] })).toEqual([GRAPH_MESSAGES.roadmapStepTwice("a")]);
      expect(validateTemplate({ ...sound, roadmap: [{ name: "One", steps: ["ghost"] }] })).toEqual([GRAPH_MESSAGES.roadmapUnknownStep("One")]);
      expect(validateTemplate({ ...sound, roadmap: [{ name: " ", steps: [] }] })).toEqual([GRAPH_MESSAGES.roadmapStageName]);
      expect(validateTemplate({ ...sound, roadmap: [{ name: "One", steps: [] }, { name: "One", steps: [] }] })).toEqual([GRAPH_MESSAGES.roadmapStageTwice("One")]);
    });
    test("variables: named and unique", () => {
      const v = sound.variables[0]!;
      expect(validateTemplate({ ...sound, variables: [v, v] })).toEqual([GRAPH_MESSAGES.variableTwice("Var_1")]);
      expect(validateTemplate({ ...sound, variables: [{ ...v, name: "" }] })).toEqual([GRAPH_MESSAGES.variableName]);
    });
    test("form properties: camel-cased identifiers, one per name in a form", () => {
      expect(validateTemplate(withPath("a", "c", { action: { form: form("Filing date", "filing  Date") } }))).toEqual([GRAPH_MESSAGES.propertyTwice("filingDate")]);
      const bad = form("Filing date");
      bad.properties[0]!.property = "Filing date";
      expect(validateTemplate(withPath("a", "c", { action: { form: bad } }))).toEqual([GRAPH_MESSAGES.propertyIdentifier("Filing date")]);
    });
  });

  test("milestone and task ids are UUID version 7, in time order", () => {
    const a = timeOrderedId(Date.parse("2025-01-01T00:00:00Z"));
    const b = timeOrderedId(Date.parse("2025-01-01T00:00:00.001Z"));
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a < b).toBe(true);
    expect(a.slice(0, 13)).toBe("01941f29-7c00");
  });
});

describe("a new template's first graph", () => {
  test("start → task → finish, with the nowhere step: every step at a place of its own (none hidden under another)", () => {
    const { steps } = firstGraph();
    const places = steps.map((s) => `${s.display.position.x},${s.display.position.y}`);
    expect(new Set(places).size).toBe(steps.length);
    expect(validateTemplate({ ...firstGraph(), roadmap: [], variables: [] })).toEqual([]);
  });
});
