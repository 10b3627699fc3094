/**
 * The named-change differ of milestone templates (spec 3 §2.6 compare, the commit modal's summary, the history):
 * jsondiffpatch finds what changed, its arrays matched by identity (steps and event sources by id, paths by from/to,
 * events by type and code, roadmap stages and variables by name), and this layer names each change in the domain's
 * words ("Step 'Review' duration 2 → 4 hours", "Path Review → Finish removed"). Pure: the upstream's compare, the
 * compare page and the commit modal call the same function. docs/decisions/versions-kit.md says why jsondiffpatch.
 */
import { create, type Delta } from "jsondiffpatch";
import { stepHours, type GraphPath } from "./graph";
import type { Path, Step, TemplateContent, TemplateEvent } from "./milestone-templates";
import { UNIQUENESS_LABELS } from "./workflow-constants";

/** What a differ compares: a template's document (the commit message and derived flags are not part of it). */
export type TemplateDocument = Omit<TemplateContent, "commitMessage">;

export type ChangeArea = "template" | "event" | "step" | "path" | "variable" | "roadmap" | "eventSource";
export type ChangeKind = "added" | "removed" | "changed" | "renamed" | "moved";

/** One change, named: `text` is what a person reads; `key` the step id or path key it concerns, if any. */
export type NamedChange = { area: ChangeArea; kind: ChangeKind; text: string; key?: string };

type Keys = { added: string[]; removed: string[]; changed: string[] };

/** The named changes, and the steps and paths a compare view marks (deleted red, created green). */
export type TemplateDiff = { changes: NamedChange[]; steps: Keys; paths: Keys };

/** A path's identity: where it leaves from and where it goes (a connection is never duplicated between two nodes). */
export const pathKey = (p: GraphPath) => `${p.from.step}${p.from.port ? `:${p.from.port}` : ""}→${p.to.step}${p.to.port ? `:${p.to.port}` : ""}`;

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);
const isPathLike = (o: Rec) => isRec(o.from) && isRec(o.to) && typeof o.from.step === "string" && typeof o.to.step === "string";

/** How jsondiffpatch matches array items across the two versions; anything without an identity matches by value. */
function hashOf(item: object): string {
  const o = item as Rec;
  if (isPathLike(o)) return `path:${pathKey(o as unknown as GraphPath)}`;
  if (typeof o.id === "string") return `id:${o.id}`;
  if (typeof o.code === "string" && isRec(o.action)) return `event:${String(o.type)}:${o.code}`;
  if (typeof o.name === "string") return `${Array.isArray(o.steps) ? "stage" : "name"}:${o.name}`;
  if (typeof o.current === "string" && typeof o.next === "string") return `transition:${o.current}→${o.next}`;
  return JSON.stringify(o);
}

const DERIVED = new Set(["commitMessage", "isAddedToRoadMap"]);
const differ = create({
  objectHash: hashOf,
  arrays: { detectMove: false },
  propertyFilter: (name) => !DERIVED.has(name),
  cloneDiffValues: false,
});

/** An object's delta (not an array's, not a leaf's [new] / [old, new] / [old, 0, 0]). */
const isObjectDelta = (d: unknown): d is Rec => isRec(d) && d._t !== "a";

/**
 * A list whose order means nothing (steps, paths, events, variables, event sources) as an object keyed by identity:
 * jsondiffpatch then matches its items by key in linear time, where its match of arrays is quadratic (seconds for
 * the largest template reordered; the test of the largest template holds it).
 */
function keyed<T extends object>(list: readonly T[]): Record<string, T> {
  const out: Record<string, T> = {};
  for (const item of list) {
    let key = hashOf(item);
    for (let n = 2; key in out; n++) key = `${hashOf(item)}#${n}`;
    out[key] = item;
  }
  return out;
}
const KEYED = ["events", "variables", "steps", "paths", "eventSources"] as const;

type Matched<T> = { added: T[]; removed: T[]; changed: { before: T; after: T; delta: Rec }[] };

/** The items of a keyed list's delta: added, removed, and changed with their delta. */
function matched<T extends object>(delta: unknown, before: readonly T[], after: readonly T[]): Matched<T> {
  const out: Matched<T> = { added: [], removed: [], changed: [] };
  if (!isObjectDelta(delta)) return out;
  const [was, is] = [keyed(before), keyed(after)];
  for (const [key, d] of Object.entries(delta)) {
    const [b, a] = [was[key], is[key]];
    if (b && a && isObjectDelta(d)) out.changed.push({ before: b, after: a, delta: d });
    else if (a && !b) out.added.push(a);
    else if (b && !a) out.removed.push(b);
  }
  return out;
}

const quoted = (s: string) => `'${s}'`;
const list = (labels: readonly string[]) => labels.join(", ");
/** The labels of the fields a delta touches, in the order given, for "Path A → B: due date, notes changed". */
const touched = (delta: Rec, labels: readonly (readonly [string, string])[]) => labels.filter(([k]) => k in delta).map(([, l]) => l);

const stepName = (s: Pick<Step, "id" | "title">) => s.title.trim() || s.id;
const EMAIL_LABELS: Record<string, string> = { "": "default", always: "always", never: "never" };

function stepChanges(area: "step" | "eventSource", before: readonly Step[], after: readonly Step[], delta: unknown, keys: Keys | null): NamedChange[] {
  const noun = area === "step" ? "Step" : "Event source";
  const m = matched(delta, before, after);
  const out: NamedChange[] = [];
  for (const s of m.removed) {
    out.push({ area, kind: "removed", key: s.id, text: `${noun} ${quoted(stepName(s))} removed` });
    keys?.removed.push(s.id);
  }
  for (const s of m.added) {
    out.push({ area, kind: "added", key: s.id, text: `${noun} ${quoted(stepName(s))} added` });
    keys?.added.push(s.id);
  }
  for (const { before: b, after: a, delta: d } of m.changed) {
    const name = quoted(stepName(a));
    const before0 = out.length;
    const say = (kind: ChangeKind, text: string) => out.push({ area, kind, key: a.id, text });
    if ("title" in d) say("renamed", `${noun} ${quoted(stepName(b))} renamed to ${name}`);
    if ("type" in d) say("changed", `${noun} ${name} type ${b.type} → ${a.type}`);
    if (stepHours(b) !== stepHours(a)) say("changed", `${noun} ${name} duration ${stepHours(b)} → ${stepHours(a)} hours`);
    const options = isObjectDelta(d.options) ? d.options : {};
    if ("notifications" in options && b.options.notifications.email !== a.options.notifications.email) {
      say("changed", `${noun} ${name} e-mail notification ${EMAIL_LABELS[b.options.notifications.email]} → ${EMAIL_LABELS[a.options.notifications.email]}`);
    }
    if ("instructions" in options) say("changed", `${noun} ${name} instructions changed`);
    if ("isCriticalDate" in d) say("changed", a.isCriticalDate ? `${noun} ${name} marked as a critical date` : `${noun} ${name} no longer a critical date`);
    if ("transitions" in d) say("changed", `${noun} ${name} transitions changed`);
    if ("code" in d) say("changed", `${noun} ${name} event code ${quoted(b.code ?? "")} → ${quoted(a.code ?? "")}`);
    if ("display" in d) say("moved", `${noun} ${name} moved on the canvas`);
    if (out.length > before0) keys?.changed.push(a.id);
  }
  return out;
}

const PATH_FIELDS = [
  ["title", "task title"],
  ["dueAt", "due date"],
  ["startAt", "start date"],
  ["assignees", "assignees"],
  ["attachments", "attachments"],
  ["emailAttachments", "e-mail attachments"],
  ["notes", "notes"],
  ["predicates", "conditions"],
] as const;

function pathChanges(before: TemplateDocument, after: TemplateDocument, delta: unknown, keys: Keys): NamedChange[] {
  const title = (doc: TemplateDocument, id: string, port?: string) => {
    const s = doc.steps.find((x) => x.id === id) ?? doc.eventSources.find((x) => x.id === id);
    return `${s ? stepName(s) : id}${port ? ` (${port})` : ""}`;
  };
  const named = (doc: TemplateDocument, p: Path) => `Path ${title(doc, p.from.step, p.from.port)} → ${title(doc, p.to.step, p.to.port)}`;
  const m = matched(delta, before.paths, after.paths);
  const out: NamedChange[] = [];
  for (const p of m.removed) {
    out.push({ area: "path", kind: "removed", key: pathKey(p), text: `${named(before, p)} removed` });
    keys.removed.push(pathKey(p));
  }
  for (const p of m.added) {
    out.push({ area: "path", kind: "added", key: pathKey(p), text: `${named(after, p)} added` });
    keys.added.push(pathKey(p));
  }
  for (const { after: p, delta: d } of m.changed) {
    const labels: string[] = [];
    if (isObjectDelta(d.from) && "action" in d.from) labels.push("form");
    const to = isObjectDelta(d.to) && isObjectDelta(d.to.action) ? d.to.action : null;
    if (to) labels.push(...touched(to, PATH_FIELDS));
    if ("display" in d) labels.push("bends");
    if (!labels.length) continue;
    out.push({ area: "path", kind: "changed", key: pathKey(p), text: `${named(after, p)}: ${list(labels)} changed` });
    keys.changed.push(pathKey(p));
  }
  return out;
}

const EVENT_FIELDS = [
  ["title", "milestone title"],
  ["dueAt", "due date"],
  ["clientDueDate", "client due date"],
  ["assignees", "assignees"],
  ["notes", "notes"],
  ["delete", "delete"],
  ["finish", "finish"],
] as const;

function eventChanges(before: readonly TemplateEvent[], after: readonly TemplateEvent[], delta: unknown): NamedChange[] {
  const named = (e: TemplateEvent) => `${e.type === "update" ? "Update" : "Creation"} event ${quoted(e.code)}`;
  const m = matched(delta, before, after);
  const out: NamedChange[] = [];
  for (const e of m.removed) out.push({ area: "event", kind: "removed", text: `${named(e)} removed` });
  for (const e of m.added) out.push({ area: "event", kind: "added", text: `${named(e)} added` });
  for (const { before: b, after: a, delta: d } of m.changed) {
    const labels: string[] = [];
    if ("predicates" in d) labels.push("conditions");
    if (isObjectDelta(d.action)) {
      if ("title" in d.action) {
        out.push({ area: "event", kind: "changed", text: `${named(a)}: milestone title ${quoted(b.action.title)} → ${quoted(a.action.title)}` });
      }
      labels.push(...touched(d.action, EVENT_FIELDS.slice(1)));
    }
    if (labels.length) out.push({ area: "event", kind: "changed", text: `${named(a)}: ${list(labels)} changed` });
  }
  return out;
}

type Variable = TemplateDocument["variables"][number];
const VARIABLE_FIELDS = [
  ["type", "type"],
  ["description", "description"],
  ["value", "value"],
  ["required", "required"],
  ["origin", "origin"],
  ["source", "source"],
] as const;

/**
 * Variables are matched by name; a variable that left and one that came at the same place (the same step's port, or
 * the same position and type) is one variable renamed — the editor renames in place.
 */
function variableChanges(before: readonly Variable[], after: readonly Variable[], delta: unknown): NamedChange[] {
  const m = matched(delta, before, after);
  const out: NamedChange[] = [];
  const sameSource = (a: Variable, b: Variable) => !!a.source?.step && a.source.step === b.source?.step && a.source.port === b.source?.port;
  const added = [...m.added];
  for (const r of m.removed) {
    const i = added.findIndex((a) => sameSource(r, a) || (before.indexOf(r) === after.indexOf(a) && r.type === a.type));
    if (i >= 0) {
      const [a] = added.splice(i, 1);
      out.push({ area: "variable", kind: "renamed", text: `Variable ${quoted(r.name)} renamed to ${quoted(a!.name)}` });
    } else out.push({ area: "variable", kind: "removed", text: `Variable ${quoted(r.name)} removed` });
  }
  for (const a of added) out.push({ area: "variable", kind: "added", text: `Variable ${quoted(a.name)} added` });
  for (const { after: a, delta: d } of m.changed) {
    const labels = touched(d, VARIABLE_FIELDS);
    if (labels.length) out.push({ area: "variable", kind: "changed", text: `Variable ${quoted(a.name)}: ${list(labels)} changed` });
  }
  return out;
}

/** The roadmap by membership: a step moved between stages, added to or removed from one; stages added or removed. */
function roadmapChanges(before: TemplateDocument, after: TemplateDocument): NamedChange[] {
  const out: NamedChange[] = [];
  const say = (kind: ChangeKind, text: string, key?: string) => out.push({ area: "roadmap", kind, text: `Roadmap: ${text}`, ...(key ? { key } : {}) });
  const names = (doc: TemplateDocument) => doc.roadmap.map((s) => s.name);
  const [was, is] = [names(before), names(after)];
  for (const n of was) if (!is.includes(n)) say("removed", `stage ${quoted(n)} removed`);
  for (const n of is) if (!was.includes(n)) say("added", `stage ${quoted(n)} added`);
  const common = was.filter((n) => is.includes(n));
  if (common.join("\u0000") !== is.filter((n) => was.includes(n)).join("\u0000")) say("moved", "stages reordered");
  const stageOf = (doc: TemplateDocument) => new Map(doc.roadmap.flatMap((s) => s.steps.map((id) => [id, s.name] as const)));
  const [from, to] = [stageOf(before), stageOf(after)];
  const title = (id: string) => {
    const s = after.steps.find((x) => x.id === id) ?? before.steps.find((x) => x.id === id);
    return quoted(s ? stepName(s) : id);
  };
  const stepIds = new Set(after.steps.map((s) => s.id));
  for (const id of new Set([...from.keys(), ...to.keys()])) {
    const [b, a] = [from.get(id), to.get(id)];
    if (b === a) continue;
    if (b && a) say("moved", `${title(id)} moved from ${quoted(b)} to ${quoted(a)}`, id);
    else if (a) say("added", `${title(id)} added to ${quoted(a)}`, id);
    // A step removed from the template leaves its stage with it: the step's own removal says so.
    else if (b && stepIds.has(id)) say("removed", `${title(id)} removed from ${quoted(b)}`, id);
  }
  return out;
}

function templateChanges(before: TemplateDocument, after: TemplateDocument, delta: Rec): NamedChange[] {
  const out: NamedChange[] = [];
  const say = (kind: ChangeKind, text: string) => out.push({ area: "template", kind, text });
  if ("title" in delta) say("renamed", `Title ${quoted(before.title)} → ${quoted(after.title)}`);
  if ("uniqueness" in delta) say("changed", `Uniqueness ${UNIQUENESS_LABELS[before.uniqueness]} → ${UNIQUENESS_LABELS[after.uniqueness]}`);
  if ("hidden" in delta) say("changed", after.hidden ? "Made a shadow milestone" : "No longer a shadow milestone");
  if ("tags" in delta) {
    for (const t of before.tags) if (!after.tags.includes(t)) say("removed", `Tag ${quoted(t)} removed`);
    for (const t of after.tags) if (!before.tags.includes(t)) say("added", `Tag ${quoted(t)} added`);
  }
  return out;
}

/** Drops what is not the document (the commit message), so a template answer and a content compare alike. */
function documentOf(t: TemplateDocument): TemplateDocument {
  const { title, uniqueness, tags, hidden, events, variables, steps, paths, eventSources, roadmap } = t;
  return { title, uniqueness, tags, hidden, events, variables, steps, paths, eventSources, roadmap };
}

/** Every change from `before` to `after`, named, and the steps and paths a compare view marks. */
export function diffTemplates(before: TemplateDocument, after: TemplateDocument): TemplateDiff {
  const [b, a] = [documentOf(before), documentOf(after)];
  const steps: Keys = { added: [], removed: [], changed: [] };
  const paths: Keys = { added: [], removed: [], changed: [] };
  const asKeyed = (d: TemplateDocument) => ({ ...d, ...Object.fromEntries(KEYED.map((k) => [k, keyed<object>(d[k])])) });
  const delta: Delta = differ.diff(asKeyed(b), asKeyed(a));
  if (!isObjectDelta(delta)) return { changes: [], steps, paths };
  const changes = [
    ...templateChanges(b, a, delta),
    ...eventChanges(b.events, a.events, delta.events),
    ...stepChanges("step", b.steps, a.steps, delta.steps, steps),
    ...pathChanges(b, a, delta.paths, paths),
    ...variableChanges(b.variables, a.variables, delta.variables),
    ...("roadmap" in delta ? roadmapChanges(b, a) : []),
    ...stepChanges("eventSource", b.eventSources, a.eventSources, delta.eventSources, null),
  ];
  return { changes, steps, paths };
}

/** The named changes as one line each (the commit modal's "what changes", a default commit message). */
export const changeLines = (diff: TemplateDiff) => diff.changes.map((c) => c.text);
