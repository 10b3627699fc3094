/**
 * The template editor's canvas, its pure pieces: the undo stack, the clipboard, the keyboard's commands and the edits
 * they become (through the model's applyEdit, as the canvas applies them), the document → nodes and edges conversion,
 * and the auto-layout's graph (run with ELK's bundled build, the worker's engine).
 */
import ELK from "elkjs/lib/elk.bundled.js";
import { describe, expect, it } from "vitest";
import { applyEdit, newStepId } from "@contract/graph-edits";
import { CONNECT_MESSAGES, GRAPH_MESSAGES } from "@contract/graph";
import { TemplateContent } from "@contract/milestone-templates";
import { NOWHERE_ID } from "@contract/workflow-constants";
import { copySteps, pasteClip, PASTE_OFFSET } from "~/workflows/editor/canvas/clipboard";
import { addPathEdit, addStepEdit, deleteEdit, moveEdit, pasteEdit } from "~/workflows/editor/canvas/edits";
import { canRedo, canUndo, historyOf, HISTORY_LIMIT, reconcile, record, redo, undo } from "~/workflows/editor/canvas/history";
import { commandOf, MOVE_STEP, MOVE_STEP_LARGE } from "~/workflows/editor/canvas/keys";
import { elkGraphOf, positionsOf } from "~/workflows/editor/canvas/layout";
import { DEFAULT_PORT, edgesOf, nodesOf, pathIndexOf } from "~/workflows/editor/canvas/view";

const step = (id: string, type: string, title: string, x = 0, y = 0) => ({ id, type, title, display: { position: { x, y } } });
const path = (from: string, to: string, port?: string) => ({ from: { step: from, ...(port ? { port } : {}) }, to: { step: to } });

const doc = TemplateContent.parse({
  title: "Filing",
  steps: [
    step("start", "milestone-start", "Start"),
    step("a", "task", "Draft", 250),
    step("b", "task", "Review", 500),
    step("join", "and", "Both done", 750),
    step("finish", "finish", "Finish", 1000),
    step(NOWHERE_ID, "nowhere", "Nowhere", 1000, 200),
    step("wf", "workflow", "Next", 0, 300),
  ],
  paths: [path("start", "a"), path("a", "b"), path("a", "join"), path("b", "join", "approved"), path("join", "finish"), path("wf", "b")],
  roadmap: [{ name: "Drafting", steps: ["a"] }],
});

describe("the undo stack", () => {
  it("undoes and redoes whole documents, and a new edit forgets what was undone", () => {
    let h = historyOf("v0");
    h = record(h, "v1");
    h = record(h, "v2");
    expect(canUndo(h)).toBe(true);
    h = undo(h);
    expect(h.present).toBe("v1");
    expect(canRedo(h)).toBe(true);
    h = redo(h);
    expect(h.present).toBe("v2");
    h = undo(undo(h));
    expect(h.present).toBe("v0");
    expect(undo(h)).toBe(h);
    h = record(h, "w1");
    expect(canRedo(h)).toBe(false);
    expect(h.past).toEqual(["v0"]);
  });

  it("records nothing for the same document (a refused edit) and keeps the newest HISTORY_LIMIT", () => {
    const h = historyOf({ n: 0 });
    expect(record(h, h.present)).toBe(h);
    let long = historyOf(0);
    for (let i = 1; i <= HISTORY_LIMIT + 5; i++) long = record(long, i);
    expect(long.past).toHaveLength(HISTORY_LIMIT);
    expect(long.past[0]).toBe(5);
  });
});

describe("a document from the server, against the canvas's work", () => {
  const base = { steps: [{ id: "a", title: "Draft" }] };
  const edited = { steps: [{ id: "a", title: "Draft" }, { id: "b", title: "Review" }] };
  it("keeps unsaved work when the answer is the same content in a new object (a revalidation after a toggle)", () => {
    expect(reconcile(base, structuredClone(base), edited)).toBe("keep");
    expect(reconcile(base, base, edited)).toBe("keep");
  });
  it("marks the work saved when the answer is what the canvas shows (its own save came back)", () => {
    expect(reconcile(base, structuredClone(edited), edited)).toBe("saved");
  });
  it("starts again from other content (a discarded draft, an activated revision)", () => {
    expect(reconcile(edited, base, edited)).toBe("reset");
  });
});

describe("the clipboard", () => {
  it("copies steps with their inner paths only, never the start or the nowhere step", () => {
    const clip = copySteps(doc, ["start", "a", "b", NOWHERE_ID])!;
    expect(clip.steps.map((s) => s.id)).toEqual(["a", "b"]);
    expect(clip.paths.map((p) => [p.from.step, p.to.step])).toEqual([["a", "b"]]);
    expect(copySteps(doc, ["start"])).toBeNull();
  });

  it("pastes fresh ids, shifted positions and rewired paths, as one edit the model accepts", () => {
    const clip = copySteps(doc, ["a", "b"])!;
    const pasted = pasteClip(clip, doc.steps.map((s) => s.id), (taken) => newStepId({ steps: [...taken].map((id) => ({ id })) }, "task"), 2);
    expect(pasted.steps.map((s) => s.id)).toEqual(["step-1", "step-2"]);
    expect(pasted.steps[0]!.display.position).toEqual({ x: 250 + 2 * PASTE_OFFSET, y: 2 * PASTE_OFFSET });
    expect(pasted.paths.map((p) => [p.from.step, p.to.step])).toEqual([["step-1", "step-2"]]);
    // The original is untouched.
    expect(clip.steps[0]!.id).toBe("a");
    const result = applyEdit(doc, pasteEdit(pasted.steps, pasted.paths));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.doc.steps).toHaveLength(doc.steps.length + 2);
  });
});

describe("the keyboard", () => {
  it("names a command for each binding", () => {
    expect(commandOf({ key: "ArrowRight" })).toEqual({ kind: "move", dx: MOVE_STEP, dy: 0 });
    expect(commandOf({ key: "ArrowUp", shiftKey: true })).toEqual({ kind: "move", dx: 0, dy: -MOVE_STEP_LARGE });
    expect(commandOf({ key: "Enter" })).toEqual({ kind: "edit" });
    expect(commandOf({ key: "c" })).toEqual({ kind: "connect" });
    expect(commandOf({ key: "Delete" })).toEqual({ kind: "delete" });
    expect(commandOf({ key: "Backspace" })).toEqual({ kind: "delete" });
    expect(commandOf({ key: "z", ctrlKey: true })).toEqual({ kind: "undo" });
    expect(commandOf({ key: "Z", ctrlKey: true, shiftKey: true })).toEqual({ kind: "redo" });
    expect(commandOf({ key: "z", metaKey: true, shiftKey: true })).toEqual({ kind: "redo" });
    expect(commandOf({ key: "y", ctrlKey: true })).toEqual({ kind: "redo" });
    expect(commandOf({ key: "c", ctrlKey: true })).toEqual({ kind: "copy" });
    expect(commandOf({ key: "v", ctrlKey: true })).toEqual({ kind: "paste" });
    expect(commandOf({ key: "a", ctrlKey: true })).toEqual({ kind: "selectAll" });
    expect(commandOf({ key: "Escape" })).toEqual({ kind: "deselect" });
  });

  it("leaves other keys to the page (Tab, letters with Alt, typing)", () => {
    expect(commandOf({ key: "Tab" })).toBeNull();
    expect(commandOf({ key: "c", altKey: true })).toBeNull();
    expect(commandOf({ key: "C", shiftKey: true })).toBeNull();
    expect(commandOf({ key: "x" })).toBeNull();
    expect(commandOf({ key: "q", ctrlKey: true })).toBeNull();
  });
});

describe("the canvas's edits, through the model", () => {
  it("inserts a step from the dock with a fresh id, and the nowhere step only by its fixed id, once", () => {
    const id = newStepId(doc, "task");
    expect(doc.steps.some((s) => s.id === id)).toBe(false);
    const added = applyEdit(doc, addStepEdit(id, "task", { x: 10, y: 20 }));
    expect(added.ok && added.doc.steps.at(-1)).toMatchObject({ id, type: "task", display: { position: { x: 10, y: 20 } } });
    expect(newStepId(doc, "nowhere")).toBe(NOWHERE_ID);
    const second = applyEdit(doc, addStepEdit(NOWHERE_ID, "nowhere", { x: 0, y: 0 }));
    expect(second.ok).toBe(false);
  });

  it("moves a step, and arrow keys move by the command's offset", () => {
    const move = commandOf({ key: "ArrowDown", shiftKey: true });
    if (move?.kind !== "move") throw new Error("not a move");
    const a = doc.steps.find((s) => s.id === "a")!;
    const result = applyEdit(doc, moveEdit([{ id: "a", position: { x: a.display.position.x + move.dx, y: a.display.position.y + move.dy } }]));
    expect(result.ok && result.doc.steps.find((s) => s.id === "a")!.display.position).toEqual({ x: 250, y: MOVE_STEP_LARGE });
  });

  it("connects by the model's rules: a refusal says why", () => {
    const ok = applyEdit(doc, addPathEdit("b", "finish"));
    expect(ok.ok).toBe(true);
    const duplicate = applyEdit(doc, addPathEdit("a", "b"));
    expect(duplicate).toEqual({ ok: false, message: CONNECT_MESSAGES.duplicate });
    const intoSource = applyEdit(doc, addPathEdit("a", "start"));
    expect(intoSource).toEqual({ ok: false, message: CONNECT_MESSAGES.intoEventSource });
    const sourceToAnd = applyEdit(doc, addPathEdit("start", "join"));
    expect(sourceToAnd).toEqual({ ok: false, message: CONNECT_MESSAGES.eventSourceToAnd });
    const fromPort = applyEdit(doc, addPathEdit("b", "finish", "approved"));
    expect(fromPort.ok && fromPort.doc.paths.at(-1)!.from.port).toBe("approved");
  });

  it("deletes steps and paths, but not a step with open tasks (saying why) nor one whose counts are not loaded", () => {
    const gone = applyEdit(doc, deleteEdit(["b"], [{ from: "start", to: "a" }]));
    expect(gone.ok).toBe(true);
    if (gone.ok) {
      expect(gone.doc.steps.some((s) => s.id === "b")).toBe(false);
      expect(gone.doc.paths.some((p) => p.from.step === "b" || p.to.step === "b" || p.from.step === "start")).toBe(false);
    }
    const open = applyEdit(doc, deleteEdit(["a"], []), { statistics: () => [{ status: "open", count: 3 }] });
    expect(open).toEqual({ ok: false, message: GRAPH_MESSAGES.stepHasOpenTasks("Draft", 3) });
    const loading = applyEdit(doc, deleteEdit(["a"], []), { statistics: () => null });
    expect(loading).toEqual({ ok: false, message: GRAPH_MESSAGES.stepCountsLoading });
  });
});

describe("the document on the canvas", () => {
  it("shows title, type, duration, the roadmap flag and task counts ('99+' above 99)", () => {
    const nodes = nodesOf(doc, { a: [{ status: "open", count: 120 }, { status: "completed", count: 99 }] });
    const a = nodes.find((n) => n.id === "a")!;
    expect(a.data).toMatchObject({ title: "Draft", typeLabel: "Task", hours: 1, onRoadmap: true });
    expect(a.data.counts).toEqual([
      { status: "open", label: "99+" },
      { status: "completed", label: "99" },
    ]);
    expect(a.position).toEqual({ x: 250, y: 0 });
    expect(a.ariaLabel).toBe("Draft, Task");
    const b = nodes.find((n) => n.id === "b")!;
    expect(b.data.onRoadmap).toBe(false);
    expect(b.data.counts).toBeNull();
    expect(nodes.find((n) => n.id === "start")!.data).toMatchObject({ hours: null, accepts: false });
    expect(nodes.find((n) => n.id === "finish")!.data.ports).toEqual([]);
  });

  it("gives each step its ports: the default, a task's nowhere port, and any its paths name", () => {
    const nodes = nodesOf(doc, null);
    expect(nodes.find((n) => n.id === "b")!.data.ports).toEqual([DEFAULT_PORT, "nowhere", "approved"]);
    expect(nodes.find((n) => n.id === "start")!.data.ports).toEqual([DEFAULT_PORT]);
  });

  it("draws a path as an edge between ports, and 'Show connections' hides those of workflows and event sources", () => {
    const all = edgesOf(doc, { workflow: true, eventSources: true });
    expect(all).toHaveLength(doc.paths.length);
    expect(all[3]).toMatchObject({ source: "b", target: "join", sourceHandle: "approved", label: "approved" });
    expect(doc.paths[pathIndexOf(all[3]!.id)]!.from.step).toBe("b");
    const noWorkflow = edgesOf(doc, { workflow: false, eventSources: true });
    expect(noWorkflow.map((e) => e.source)).not.toContain("wf");
    expect(noWorkflow.map((e) => e.source)).toContain("start");
    const noSources = edgesOf(doc, { workflow: true, eventSources: false });
    expect(noSources.map((e) => e.source)).not.toContain("start");
    expect(noSources.map((e) => e.source)).toContain("wf");
  });
});

describe("auto-layout", () => {
  it("lays the steps out left to right with ELK, without overlaps, and every step gets a position", async () => {
    const elk = new ELK();
    const positions = positionsOf(await elk.layout(elkGraphOf(doc)));
    expect([...positions.keys()].sort()).toEqual(doc.steps.map((s) => s.id).sort());
    expect(positions.get("a")!.x).toBeGreaterThan(positions.get("start")!.x);
    expect(positions.get("b")!.x).toBeGreaterThan(positions.get("a")!.x);
    expect(positions.get("finish")!.x).toBeGreaterThan(positions.get("join")!.x);
    const boxes = [...positions.values()];
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [p, q] = [boxes[i]!, boxes[j]!];
        expect(Math.abs(p.x - q.x) >= 200 || Math.abs(p.y - q.y) >= 84).toBe(true);
      }
  });
});
