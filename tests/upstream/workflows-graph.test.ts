import { describe, expect, test } from "vitest";
import {
  CONNECT_MESSAGES,
  activationProblem,
  andInputs,
  canConnect,
  connectionNeedsEditing,
  newVariableName,
  propertyName,
  reachable,
  shortestPlannedDuration,
  uniqueVariableName,
  type Graph,
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

  test("milestone and task ids are UUID version 7, in time order", () => {
    const a = timeOrderedId(Date.parse("2025-01-01T00:00:00Z"));
    const b = timeOrderedId(Date.parse("2025-01-01T00:00:00.001Z"));
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a < b).toBe(true);
    expect(a.slice(0, 13)).toBe("01941f29-7c00");
  });
});
