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
import { alternativesStructure, editsOfForm } from "~/workflows/editor/forms/parse";
import { eventDraftsOf, eventValues } from "~/workflows/editor/forms/events";
import { formDataOf } from "~/workflows/editor/forms/alternatives";
import { DEFAULT_MILESTONE_TITLE, WORKFLOW_MESSAGES } from "@contract/workflow-constants";
import { EVENT_CODES } from "@contract/workflow-contracts";
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

describe("the template's events in Properties (spec 3 §2.6, §3 Event)", () => {
  const withEvents = TemplateContent.parse({
    ...doc,
    events: [
      {
        type: "create",
        code: EVENT_CODES.applicationCreated,
        predicates: [[{ field: "{{clientCode}}", function: "equals", arguments: ["ACME"] }]],
        action: { title: "Filing", dueAt: { date: "{{now}}", amount: 3, measures: "Weeks" }, assignees: ["a@example.com"], notes: ["<p>Call</p>"] },
      },
    ],
  });
  const properties = { intent: "edit", op: "setProperties", form: "template-properties", title: "Filing", uniqueness: "repeatable", tags: "" };
  /** The form's values as the Properties form posts them, for the template's events changed by `change`. */
  const posted = (change: (values: Record<string, string>) => void = () => {}) => {
    const values = { ...properties, ...eventValues(eventDraftsOf(withEvents.events)) };
    change(values);
    return values;
  };

  it("posts the events as they are: conditions, title and notes read back, what the form does not show kept", () => {
    const same = applyForm(posted(), withEvents);
    if (typeof same === "string") throw new Error(same);
    expect(same.events).toEqual(withEvents.events);
  });

  it("changes an event's conditions, milestone title, notes and type; an update's outcome is finish or delete, never both", () => {
    const changed = applyForm(
      posted((v) => {
        v["events.0.0.0.value"] = "Globex";
        v["events.0.title"] = "Filed {{reference}}";
        v["events.0.notes.1"] = "<p>Second</p>";
        v["events.0.type"] = "update";
        v["events.0.code"] = EVENT_CODES.applicationUpdated;
        v["events.0.outcome"] = "delete";
      }),
      withEvents,
    );
    if (typeof changed === "string") throw new Error(changed);
    const [event] = changed.events;
    expect(event!.type).toBe("update");
    expect(event!.code).toBe(EVENT_CODES.applicationUpdated);
    expect(event!.predicates).toEqual([[{ field: "{{clientCode}}", function: "equals", arguments: ["Globex"] }]]);
    expect(event!.action).toMatchObject({ title: "Filed {{reference}}", notes: ["<p>Call</p>", "<p>Second</p>"], delete: true, finish: false });
    // Kept from the event it came from.
    expect(event!.action.dueAt).toMatchObject({ amount: 3, measures: "Weeks" });
    expect(event!.action.assignees).toEqual(["a@example.com"]);
  });

  it("without JavaScript, Add event, Add note, Remove and the conditions editor's buttons post and come back edited", () => {
    const structure = (intent: string, values = posted()) => alternativesStructure(formDataOf({ ...values, intent }), withEvents);
    const added = structure("events:add")!;
    expect(added).toMatchObject({ eventCount: "2", "events.1.title": DEFAULT_MILESTONE_TITLE, "events.1.origin": "", "events.1.code": "", title: "Filing" });
    expect(structure("events.0:addNote")!).toMatchObject({ "events.0.notes.1": "" });
    expect(structure("events.0:removeNote:0")!["events.0.notes.0"]).toBeUndefined();
    expect(structure("events.0:addGroup")!).toMatchObject({ "events.0.1.0.field": "" });
    expect(structure("events:remove:0")!).toMatchObject({ eventCount: "0" });
    // Apply is no structural post.
    expect(alternativesStructure(formDataOf(posted()), withEvents)).toBeNull();

    // A new event must name its event; its milestone title is required (spec 3 §5).
    expect(applyForm(added, withEvents)).toBe(WORKFLOW_MESSAGES.eventCodeRequired);
    expect(applyForm({ ...added, "events.1.code": EVENT_CODES.applicationCreated, "events.1.title": " " }, withEvents)).toBe(WORKFLOW_MESSAGES.milestoneTitleRequired);
    const two = applyForm({ ...added, "events.1.code": EVENT_CODES.correspondence }, withEvents);
    if (typeof two === "string") throw new Error(two);
    expect(two.events.map((e) => [e.code, e.action.title])).toEqual([
      [EVENT_CODES.applicationCreated, "Filing"],
      [EVENT_CODES.correspondence, DEFAULT_MILESTONE_TITLE],
    ]);
    // Removing the first keeps the second's hidden fields from its own origin.
    const removed = alternativesStructure(formDataOf({ ...posted(), intent: "events:remove:0" }), withEvents)!;
    const none = applyForm(removed, withEvents);
    expect(typeof none !== "string" && none.events).toEqual([]);
  });

  it("a properties post without the events leaves them", () => {
    const kept = applyForm(properties, withEvents);
    expect(typeof kept !== "string" && kept.events).toEqual(withEvents.events);
  });
});
