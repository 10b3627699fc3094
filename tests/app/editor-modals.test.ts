/**
 * The canvas's modals, their pure pieces: a new connection's editor (spec 3 §4.1: which connections open it, the
 * nowhere port's form, one undo step whether kept or dropped), and the forms the header's modals apply as edits.
 */
import { describe, expect, it } from "vitest";
import { applyEdit } from "@contract/graph-edits";
import { GRAPH_MESSAGES, NOWHERE_PORT } from "@contract/graph";
import { TemplateContent } from "@contract/milestone-templates";
import { NOWHERE_ID } from "@contract/workflow-constants";
import { dropConnection, editorForConnection, hasForm, keepConnection, newConnectionEdit, type PendingConnection } from "~/workflows/editor/canvas/connect";
import { canUndo, historyOf, record, undo } from "~/workflows/editor/canvas/history";
import { editsOfForm } from "~/workflows/editor/forms/parse";
import { stageChoice } from "~/workflows/editor/forms/StageForm";
import { FORM_TEXTS } from "~/workflows/editor/forms/texts";
import { panelOfHash, panelTitle } from "~/workflows/editor/canvas/Panels";
import { EDITOR } from "~/workflows/editor/texts";

const step = (id: string, type: string, title: string) => ({ id, type, title, display: { position: { x: 0, y: 0 } } });
const doc = TemplateContent.parse({
  title: "Filing",
  steps: [step("start", "milestone-start", "Start"), step("a", "task", "Draft"), step("b", "task", "Review"), step("join", "and", "Both"), step("finish", "finish", "Finish"), step(NOWHERE_ID, "nowhere", "Nowhere")],
  paths: [{ from: { step: "start" }, to: { step: "a" } }],
});

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  return data;
};

/** Applies what a form asks, as the canvas does (one document, or the refusal). */
function applyForm(fields: Record<string, string>, on = doc) {
  const edits = editsOfForm(form(fields), on);
  if (typeof edits === "string") return edits;
  let next = on;
  for (const e of edits) {
    const r = applyEdit(next, e as Parameters<typeof applyEdit>[1]);
    if (!r.ok) return r.message;
    next = r.doc;
  }
  return next;
}

describe("a new connection's editor (spec 3 §4.1)", () => {
  it("opens for a connection to a task, not to finish, nowhere or an AND; from the nowhere port always, on the form", () => {
    expect(editorForConnection(doc, "b", undefined)).toBe("path");
    expect(editorForConnection(doc, "finish", undefined)).toBe("none");
    expect(editorForConnection(doc, NOWHERE_ID, undefined)).toBe("none");
    expect(editorForConnection(doc, "join", undefined)).toBe("none");
    expect(editorForConnection(doc, "finish", NOWHERE_PORT)).toBe("form");
    expect(editorForConnection(doc, "b", NOWHERE_PORT)).toBe("form");
  });

  it("a connection from the nowhere port starts with an empty form, which the model takes and hasForm does not count", () => {
    const bare = applyEdit(doc, { type: "addPath", path: { from: { step: "a", port: NOWHERE_PORT, action: {} }, to: { step: "finish", action: { predicates: [] } }, display: { pins: [] } } });
    expect(bare).toEqual({ ok: false, message: GRAPH_MESSAGES.nowherePortNeedsForm });
    const made = applyEdit(doc, newConnectionEdit("a", "finish", NOWHERE_PORT));
    if (!made.ok) throw new Error(made.message);
    const path = made.doc.paths.at(-1)!;
    expect(path.from.port).toBe(NOWHERE_PORT);
    expect(hasForm(path)).toBe(false);
    // Its editor's Apply without a form name is refused by the model, which the canvas reads as "remove it".
    const ref = { intent: "edit", op: "updatePath", form: "canvas-edit", from: "a", to: "finish", port: NOWHERE_PORT };
    expect(applyForm({ ...ref, formName: "" }, made.doc)).toBe(GRAPH_MESSAGES.nowherePortNeedsForm);
    const named = applyForm({ ...ref, formName: "Why it stopped" }, made.doc);
    if (typeof named === "string") throw new Error(named);
    expect(hasForm(named.paths.at(-1))).toBe(true);
    // Any other connection carries no form.
    const plain = newConnectionEdit("a", "b", undefined);
    expect(plain.type === "addPath" && plain.path.from.action.form).toBeUndefined();
  });

  it("kept, the connection and its edits are one undo step; dropped, the history is as it was, nothing to undo or redo", () => {
    const before = record(historyOf(doc), { ...doc, title: "Earlier edit" });
    const made = applyEdit(before.present, newConnectionEdit("a", "b", undefined));
    if (!made.ok) throw new Error(made.message);
    const during = record(before, made.doc);
    const pending: PendingConnection<TemplateContent> = { before, from: "a", to: "b", editor: "path" };
    const edited = applyForm({ intent: "edit", op: "updatePath", form: "canvas-edit", from: "a", to: "b", taskTitle: "Review the draft" }, during.present);
    if (typeof edited === "string") throw new Error(edited);

    const kept = keepConnection(pending, edited);
    expect(kept.present.paths.at(-1)!.to.action.title).toBe("Review the draft");
    expect(kept.past).toHaveLength(before.past.length + 1);
    expect(undo(kept).present).toBe(before.present);

    const dropped = dropConnection(pending);
    expect(dropped).toBe(before);
    expect(dropped.present.paths).toHaveLength(1);
    expect(dropped.future).toHaveLength(0);
    expect(canUndo(dropConnection({ ...pending, before: historyOf(doc) }))).toBe(false);
  });
});

describe("the header's modals: variables, the roadmap with its stage picker, properties", () => {
  it("open from the header's own anchors, each titled with what it edits", () => {
    expect(panelOfHash("#variables")).toBe("variables");
    expect(panelOfHash("#roadmap")).toBe("roadmap");
    expect(panelOfHash("#properties")).toBe("properties");
    expect(panelOfHash("#steps")).toBeNull();
    expect(panelOfHash("/workflows")).toBeNull();
    expect([panelTitle("variables"), panelTitle("roadmap"), panelTitle("properties")]).toEqual([EDITOR.variables, EDITOR.roadmap, EDITOR.properties]);
  });

  it("apply their forms as the model's edits, each one undo step: a variable, a stage, a step put in a stage, properties", () => {
    const edit = { intent: "edit" };
    const withVariable = applyForm({ ...edit, op: "addVariable", form: "canvas-add-variable", name: "", variableType: "date", description: "Filed on", required: "on" });
    if (typeof withVariable === "string") throw new Error(withVariable);
    expect(withVariable.variables).toEqual([expect.objectContaining({ name: "Var_1", type: "date", description: "Filed on", required: true })]);

    const withStage = applyForm({ ...edit, op: "addStage", form: "canvas-add-stage", name: "Drafting" }, withVariable);
    if (typeof withStage === "string") throw new Error(withStage);
    // The picker offers each stage with its mark in words: empty is the error mark, with steps the ok one.
    expect(stageChoice(withStage.roadmap[0]!)).toBe(FORM_TEXTS.stagePicker.option("Drafting", "error"));
    const picked = applyForm({ ...edit, op: "setStepStage", form: "canvas-stage-picker", step: "a", stage: "Drafting" }, withStage);
    if (typeof picked === "string") throw new Error(picked);
    expect(picked.roadmap).toEqual([{ name: "Drafting", steps: ["a"] }]);
    expect(stageChoice(picked.roadmap[0]!)).toBe("Drafting (has steps)");
    // A step is in one stage at most; None takes it out.
    const none = applyForm({ ...edit, op: "setStepStage", form: "canvas-stage-picker", step: "a", stage: "" }, picked);
    expect(typeof none !== "string" && none.roadmap).toEqual([{ name: "Drafting", steps: [] }]);
    expect(applyForm({ ...edit, op: "setStepStage", step: "a", stage: "Missing" }, withStage)).toMatch(/stage/i);

    const renamed = applyForm({ ...edit, op: "setProperties", form: "canvas-properties", title: "Filing 2", uniqueness: "unique", tags: "a; b" }, picked);
    if (typeof renamed === "string") throw new Error(renamed);
    expect([renamed.title, renamed.uniqueness, renamed.tags, renamed.hidden]).toEqual(["Filing 2", "unique", ["a", "b"], false]);
  });
});
