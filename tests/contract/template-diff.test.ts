import { describe, expect, test } from "vitest";
import { applyEditInput } from "@contract/graph-edits";
import { TemplateContent, type TemplateContentInput } from "@contract/milestone-templates";
import { changeLines, diffTemplates, pathKey } from "@contract/template-diff";
import type { StepType } from "@contract/workflow-constants";

const step = (id: string, type: StepType, title: string, extra: Record<string, unknown> = {}) => ({ id, type, title, ...extra });
const path = (from: string, to: string) => ({ from: { step: from }, to: { step: to } });

/** A prosecution template: start → Review → File → Finish, a roadmap of two stages, one variable. */
const base: TemplateContentInput = {
  title: "Office action",
  uniqueness: "repeatable",
  tags: ["oa"],
  events: [{ type: "create", code: "correspondence.recieved", action: { title: "Respond", notes: ["<p>Read it</p>"] } }],
  variables: [{ name: "Var_1", type: "date", source: { step: "review", port: "done" } }],
  steps: [
    step("start", "milestone-start", "Start"),
    step("review", "task", "Review", { durationHours: 2 }),
    step("file", "task", "File"),
    step("finish", "finish", "Finish"),
    step("100500", "nowhere", "Nowhere"),
  ],
  paths: [path("start", "review"), path("review", "file"), path("file", "finish")],
  roadmap: [
    { name: "Prosecution", steps: ["review"] },
    { name: "Grant", steps: ["file"] },
  ],
};
const doc = (over: TemplateContentInput = base) => TemplateContent.parse(over);
const lines = (before: TemplateContentInput, after: TemplateContentInput) => changeLines(diffTemplates(doc(before), doc(after)));
/** The document after edits as the editors make them (contract/graph-edits.ts), each accepted by the graph model. */
function edited(from: TemplateContent, ...edits: unknown[]): TemplateContent {
  return edits.reduce<TemplateContent>((d, e) => {
    const r = applyEditInput(d, e);
    if (!r.ok) throw new Error(r.message);
    return r.doc;
  }, from);
}

describe("the named-change differ (contract/template-diff.ts)", () => {
  test("the same document has no change, whatever the commit message", () => {
    expect(diffTemplates(doc(), doc({ ...base, commitMessage: "x" })).changes).toEqual([]);
  });

  test("a step's duration, title, options; a step added and removed; by id whatever the order", () => {
    const b = doc();
    const steps = b.steps.map((s) => (s.id === "review" ? { ...s, durationHours: 4 } : s));
    expect(lines(b, { ...b, steps })).toEqual(["Step 'Review' duration 2 → 4 hours"]);
    const renamed = b.steps.map((s) => (s.id === "file" ? { ...s, title: "File response" } : s));
    expect(lines(b, { ...b, steps: renamed })).toEqual(["Step 'File' renamed to 'File response'"]);
    const options = b.steps.map((s) => (s.id === "review" ? { ...s, isCriticalDate: true, options: { notifications: { email: "always" as const }, instructions: "<p>Careful</p>" } } : s));
    expect(lines(b, { ...b, steps: options })).toEqual([
      "Step 'Review' e-mail notification default → always",
      "Step 'Review' instructions changed",
      "Step 'Review' marked as a critical date",
    ]);
    // Reordering the list is no change: steps are matched by id.
    expect(lines(b, { ...b, steps: [...b.steps].reverse() })).toEqual([]);
    const moved = b.steps.map((s) => (s.id === "review" ? { ...s, display: { position: { x: 40, y: 80 } } } : s));
    expect(lines(b, { ...b, steps: moved })).toEqual(["Step 'Review' moved on the canvas"]);
  });

  test("real editor edits: a step added and connected, a step deleted with its paths, a duration, a stage, a rename", () => {
    const b = doc();
    const added = edited(
      b,
      { type: "addStep", step: { id: "sign", type: "task", title: "Sign" } },
      { type: "addPath", path: { from: { step: "review" }, to: { step: "sign" } } },
    );
    const d = diffTemplates(b, added);
    expect(changeLines(d)).toEqual(["Step 'Sign' added", "Path Review → Sign added"]);
    expect(d.steps.added).toEqual(["sign"]);
    expect(d.paths.added).toEqual([pathKey({ from: { step: "review" }, to: { step: "sign" } })]);

    const removed = diffTemplates(b, edited(b, { type: "deleteSteps", steps: ["file"] }));
    expect(changeLines(removed)).toEqual(["Step 'File' removed", "Path Review → File removed", "Path File → Finish removed"]);
    expect(removed.steps.removed).toEqual(["file"]);
    expect(removed.paths.removed.sort()).toEqual(["file→finish", "review→file"]);

    const many = edited(
      b,
      { type: "updateStep", id: "review", fields: { durationHours: 4 } },
      { type: "setStepStage", step: "review", stage: "Grant" },
      { type: "updateVariable", name: "Var_1", variable: { ...b.variables[0]!, name: "deadline" } },
    );
    expect(changeLines(diffTemplates(b, many))).toEqual([
      "Step 'Review' duration 2 → 4 hours",
      "Variable 'Var_1' renamed to 'deadline'",
      "Roadmap: 'Review' moved from 'Prosecution' to 'Grant'",
    ]);
  });

  test("a path removed, added and changed, named by its steps' titles", () => {
    const b = doc();
    const paths = [path("start", "review"), path("review", "finish"), path("file", "finish")];
    expect(lines(b, { ...b, paths })).toEqual(["Path Review → File removed", "Path Review → Finish added"]);
    const due = b.paths.map((p) => (p.to.step === "file" ? { ...p, to: { ...p.to, action: { ...p.to.action, dueAt: { date: "{{now}}", amount: 3, measures: "Days" as const } } } } : p));
    expect(lines(b, { ...b, paths: due })).toEqual(["Path Review → File: due date changed"]);
  });

  test("roadmap: a step moved between stages, added to one, removed from one; stages added and removed", () => {
    const b = doc();
    expect(lines(b, { ...b, roadmap: [{ name: "Prosecution", steps: [] }, { name: "Grant", steps: ["file", "review"] }] })).toEqual([
      "Roadmap: 'Review' moved from 'Prosecution' to 'Grant'",
    ]);
    expect(lines(b, { ...b, roadmap: [{ name: "Prosecution", steps: ["review"] }, { name: "Grant", steps: [] }, { name: "Appeal", steps: ["file"] }] })).toEqual([
      "Roadmap: stage 'Appeal' added",
      "Roadmap: 'File' moved from 'Grant' to 'Appeal'",
    ]);
    expect(lines(b, { ...b, roadmap: [{ name: "Prosecution", steps: ["review"] }] })).toEqual(["Roadmap: stage 'Grant' removed", "Roadmap: 'File' removed from 'Grant'"]);
  });

  test("variables: renamed (same source), added, removed, changed", () => {
    const b = doc();
    const renamed = [{ ...b.variables[0]!, name: "deadline", saveTo: "{{milestone.variables.deadline}}" }];
    expect(lines(b, { ...b, variables: renamed })).toEqual(["Variable 'Var_1' renamed to 'deadline'"]);
    expect(lines(b, { ...b, variables: [...b.variables, { name: "owner", type: "people" }] })).toEqual(["Variable 'owner' added"]);
    expect(lines(b, { ...b, variables: [] })).toEqual(["Variable 'Var_1' removed"]);
    expect(lines(b, { ...b, variables: [{ ...b.variables[0]!, type: "datetime" as const, description: "When" }] })).toEqual(["Variable 'Var_1': type, description changed"]);
  });

  test("template fields: title, uniqueness, tags, shadow; events and their notes", () => {
    const b = doc();
    expect(lines(b, { ...b, title: "Office action (US)" })).toEqual(["Title 'Office action' → 'Office action (US)'"]);
    expect(lines(b, { ...b, uniqueness: "uniqueAtTime" })).toEqual(["Uniqueness Repeatable → Unique at a time"]);
    expect(lines(b, { ...b, tags: ["us"] })).toEqual(["Tag 'oa' removed", "Tag 'us' added"]);
    expect(lines(b, { ...b, hidden: true })).toEqual(["Made a shadow milestone"]);
    const e = b.events[0]!;
    expect(lines(b, { ...b, events: [{ ...e, action: { ...e.action, notes: ["<p>Read it twice</p>"] } }] })).toEqual([
      "Creation event 'correspondence.recieved': notes changed",
    ]);
    expect(lines(b, { ...b, events: [{ ...e, action: { ...e.action, title: "Reply" } }] })).toEqual([
      "Creation event 'correspondence.recieved': milestone title 'Respond' → 'Reply'",
    ]);
    expect(lines(b, { ...b, events: [e, { type: "update", code: "workflow.next", action: { finish: true } }] })).toEqual(["Update event 'workflow.next' added"]);
  });

  test("the largest template (500 steps, 2,000 paths), its lists reversed, compares in well under a request's time", () => {
    const steps = Array.from({ length: 495 }, (_, i) => step(`s${i}`, "task", `Step ${i}`));
    const paths = [1, 2, 3, 4, 5].flatMap((gap) => steps.slice(gap).map((s, i) => path(`s${i}`, s.id))).slice(0, 1_997);
    const big = doc({ ...base, steps: [...base.steps!, ...steps], paths: [...base.paths!, ...paths], roadmap: [] });
    expect([big.steps.length, big.paths.length]).toEqual([500, 2_000]);
    const changed = { ...big, steps: [...big.steps].reverse().map((s, i) => (i % 50 === 0 ? { ...s, durationHours: 9 } : s)), paths: [...big.paths].reverse() };
    const t0 = performance.now();
    const d = diffTemplates(big, changed);
    const ms = performance.now() - t0;
    expect(d.changes).toHaveLength(10);
    expect(d.paths).toEqual({ added: [], removed: [], changed: [] });
    // Keyed lists take ~0.1 s here under load; jsondiffpatch's own array match took ~3 s.
    expect(ms).toBeLessThan(1_000);
  });
});
