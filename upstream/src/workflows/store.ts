/**
 * Workflows (the resource kit's collection, plus client codes and the default) and milestone templates (with their
 * drafts). docs/decisions/workflows.md says why a client code belongs to one workflow and what a clone takes over.
 */
import crypto from "node:crypto";
import type { Db } from "../db";
import { prepared } from "../lib/collection";
import { CollectionStore, columns, type ValuesOf } from "../lib/collection-store";
import { conflict, isoNow, notFound } from "../lib/http";
import { DEFAULT_STEP_HOURS, DEFAULT_TASK_TITLE, NOWHERE_ID, type TemplateType, WORKFLOW_MESSAGES as M } from "../../contract/workflow-constants";
import { type MilestoneTemplate, type TemplateContent } from "../../contract/milestone-templates";
import { richTextToStore } from "../../contract/rich-text";
import { type Workflow } from "../../contract/workflows";

export type StoredWorkflow = Omit<Workflow, "isDefault">;

const DEFAULT_KEY = "defaultWorkflow";

export class WorkflowsStore extends CollectionStore<StoredWorkflow> {
  constructor(db: Db, now: () => number) {
    super(db, now, {
      table: "workflows",
      columns: { title: columns.text("title"), clientCodes: columns.json("client_codes") },
      search: ["title", "client_codes"],
      nameOrder: "lower(title)",
    });
  }

  defaultId(): string | null {
    const row = prepared(this.db, "select value from workflow_settings where key = ?").get(DEFAULT_KEY) as { value: string } | undefined;
    return row?.value ?? null;
  }

  setDefault(id: string): void {
    prepared(this.db, "insert into workflow_settings (key, value) values (?, ?) on conflict (key) do update set value = excluded.value").run(DEFAULT_KEY, id);
  }

  /** The workflow holding a client code (any case), or null. */
  byClientCode(code: string): string | null {
    const row = prepared(this.db, "select workflow_id from workflow_client_codes where code = ?").get(code) as { workflow_id: string } | undefined;
    return row?.workflow_id ?? null;
  }

  /** Makes `codes` the client codes of workflow `id`; 409 naming a code another workflow holds. */
  private claim(id: string, codes: readonly string[]): void {
    prepared(this.db, "delete from workflow_client_codes where workflow_id = ?").run(id);
    for (const code of codes) {
      const holder = this.byClientCode(code);
      if (holder && holder !== id) throw conflict(M.clientCodeTaken(code, this.get(holder)?.title ?? holder));
      prepared(this.db, "insert into workflow_client_codes (code, workflow_id) values (?, ?)").run(code, id);
    }
  }

  /** The first workflow becomes the default (events of unclaimed client codes need one). */
  override create(values: Partial<ValuesOf<StoredWorkflow>>, actor: string | null): StoredWorkflow {
    return this.db.transaction(() => {
      const item = super.create(values, actor);
      this.claim(item.id, item.clientCodes);
      if (!this.defaultId()) this.setDefault(item.id);
      return item;
    })();
  }

  override update(id: string, changes: Partial<ValuesOf<StoredWorkflow>>, actor: string | null): StoredWorkflow | null {
    return this.db.transaction(() => {
      const item = super.update(id, changes, actor);
      if (item && changes.clientCodes) this.claim(id, item.clientCodes);
      return item;
    })();
  }

  /** 409 for the default workflow and for one with open milestones; its templates go with it. */
  override remove(id: string): boolean {
    return this.db.transaction(() => {
      if (!this.get(id)) return false;
      if (this.defaultId() === id) throw conflict(M.defaultNotDeletable);
      const open = (prepared(this.db, "select count(*) as n from milestones where workflow_id = ? and status = 'open'").get(id) as { n: number }).n;
      if (open) throw conflict(M.openMilestones(open));
      prepared(this.db, "delete from milestone_templates where workflow_id = ?").run(id);
      return super.remove(id);
    })();
  }

  /** Every workflow's id and title (by/references, the docket's workflow filter). */
  titles(): Map<string, string> {
    const rows = prepared(this.db, "select id, title from workflows").all() as { id: string; title: string }[];
    return new Map(rows.map((r) => [r.id, r.title]));
  }
}

type TemplateRow = {
  id: string;
  workflow_id: string;
  title: string;
  type: TemplateType;
  draft_of: string | null;
  active: number;
  revision: number;
  version: number;
  data: string;
  created_at: string;
  created_by: string | null;
  updated_at: string;
  updated_by: string | null;
  has_draft?: number;
};

const SELECT = `select t.*, exists (select 1 from milestone_templates d where d.draft_of = t.id) as has_draft from milestone_templates t`;

/** A template's first graph: start → one task → finish, and the nowhere node (so that it can be activated at once). */
export function firstGraph(): Pick<TemplateContent, "steps" | "paths"> {
  const step = (id: string, type: TemplateContent["steps"][number]["type"], title: string, x: number, durationHours: number) => ({
    id,
    type,
    title,
    durationHours,
    display: { position: { x, y: 0 } },
    transitions: [],
    options: { notifications: { email: "" as const }, instructions: "" },
    isCriticalDate: false,
  });
  return {
    steps: [
      step("start", "milestone-start", "Start", 0, 0),
      step("task-1", "task", DEFAULT_TASK_TITLE, 250, DEFAULT_STEP_HOURS),
      step("finish", "finish", "Finish", 500, 0),
      step(NOWHERE_ID, "nowhere", "Nowhere", 500, 0),
    ],
    paths: [
      { from: { step: "start", action: {} }, to: { step: "task-1", action: { predicates: [] } }, display: { pins: [] } },
      { from: { step: "task-1", action: {} }, to: { step: "finish", action: { predicates: [] } }, display: { pins: [] } },
    ],
  };
}

const storedNotes = (notes: readonly string[]) => notes.map(richTextToStore).filter((n) => n !== "");
type PathNotes = NonNullable<TemplateContent["paths"][number]["to"]["action"]["notes"]>;
const isNoteList = (notes: PathNotes): notes is string[] => notes.every((n: PathNotes[number]) => typeof n === "string");
const storedPathNotes = (notes: PathNotes): PathNotes =>
  isNoteList(notes) ? storedNotes(notes) : notes.map((a) => ({ ...a, value: storedNotes(a.value) }));

/**
 * Notes and instructions are rich text, stored by the rule the back office renders by (contract/rich-text.ts): an
 * empty paragraph is stored as "", and an empty note is dropped. A path's notes (a list, or conditional alternatives
 * of lists) become the notes of the tasks it creates: the same rule.
 */
function sanitized(content: TemplateContent): TemplateContent {
  return {
    ...content,
    events: content.events.map((e) => ({ ...e, action: { ...e.action, notes: storedNotes(e.action.notes) } })),
    steps: content.steps.map((s) => ({ ...s, options: { ...s.options, instructions: richTextToStore(s.options.instructions) } })),
    paths: content.paths.map((p) => {
      const notes = p.to.action.notes;
      return notes === undefined ? p : { ...p, to: { ...p.to, action: { ...p.to.action, notes: storedPathNotes(notes) } } };
    }),
  };
}

export class TemplatesStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  private toItem(row: TemplateRow): MilestoneTemplate {
    const data = JSON.parse(row.data) as Omit<TemplateContent, "title">;
    return {
      ...data,
      commitMessage: data.commitMessage ?? "",
      id: row.id,
      workflowId: row.workflow_id,
      title: row.title,
      type: row.type,
      active: row.active === 1,
      isDraft: row.type === "draft",
      hasDraft: row.has_draft === 1,
      revision: row.revision,
      author: row.updated_by ?? row.created_by,
      draftOf: row.draft_of,
      createdAt: row.created_at,
      createdBy: row.created_by,
      updatedAt: row.updated_at,
      updatedBy: row.updated_by,
    };
  }

  get(id: string): MilestoneTemplate | null {
    const row = prepared(this.db, `${SELECT} where t.id = ?`).get(id) as TemplateRow | undefined;
    return row ? this.toItem(row) : null;
  }

  /** The template `id` of workflow `workflowId`, else 404. */
  require(workflowId: string, id: string): MilestoneTemplate {
    const t = this.get(id);
    if (!t || t.workflowId !== workflowId) throw notFound(M.templateNotFound);
    return t;
  }

  /** The templates of a workflow and its drafts that are new templates (not a template's pending changes), by title. */
  list(workflowId: string): MilestoneTemplate[] {
    const rows = prepared(
      this.db,
      `${SELECT} where t.workflow_id = ? and (t.type = 'template' or (t.type = 'draft' and t.draft_of is null)) order by lower(t.title), t.id`,
    ).all(workflowId) as TemplateRow[];
    return rows.map((r) => this.toItem(r));
  }

  /** The draft holding a template's pending changes, or null. */
  draftOf(id: string): MilestoneTemplate | null {
    const row = prepared(this.db, `${SELECT} where t.draft_of = ?`).get(id) as TemplateRow | undefined;
    return row ? this.toItem(row) : null;
  }

  create(
    workflowId: string,
    content: TemplateContent,
    options: { type: TemplateType; active?: boolean; draftOf?: string | null },
    actor: string | null,
  ): MilestoneTemplate {
    const id = crypto.randomUUID();
    const at = isoNow(this.now);
    const { title, ...data } = sanitized(content);
    prepared(
      this.db,
      `insert into milestone_templates (id, workflow_id, title, type, draft_of, active, data, created_at, created_by, updated_at, updated_by)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(id, workflowId, title, options.type, options.draftOf ?? null, options.active ? 1 : 0, JSON.stringify(data), at, actor, at, actor);
    return this.get(id)!;
  }

  /** Replaces the content (title and data); the version moves on so the engine reads it anew. */
  update(id: string, content: TemplateContent, actor: string | null): MilestoneTemplate {
    const { title, ...data } = sanitized(content);
    prepared(this.db, "update milestone_templates set title = ?, data = ?, version = version + 1, updated_at = ?, updated_by = ? where id = ?").run(
      title,
      JSON.stringify(data),
      isoNow(this.now),
      actor,
      id,
    );
    return this.get(id)!;
  }

  setActive(id: string, active: boolean, actor: string | null): MilestoneTemplate {
    prepared(this.db, "update milestone_templates set active = ?, version = version + 1, updated_at = ?, updated_by = ? where id = ?").run(
      active ? 1 : 0,
      isoNow(this.now),
      actor,
      id,
    );
    return this.get(id)!;
  }

  remove(id: string): void {
    prepared(this.db, "delete from milestone_templates where id = ? or draft_of = ?").run(id, id);
  }

  /** Every tag of the templates, sorted. */
  tags(): string[] {
    const rows = prepared(this.db, "select distinct value as tag from milestone_templates, json_each(milestone_templates.data, '$.tags') order by value").all() as {
      tag: string;
    }[];
    return rows.map((r) => r.tag);
  }

  /** The content of a template as the editor saves it and the export string carries it. */
  static content(t: MilestoneTemplate): TemplateContent {
    const { title, uniqueness, tags, hidden, events, variables, steps, paths, eventSources, roadmap } = t;
    return { title, uniqueness, tags, hidden, events, variables, steps, paths, eventSources, roadmap };
  }

  /** Active templates of a workflow, id and version (the engine's cache reads the content only when it changed). */
  activeVersions(workflowId: string): { id: string; version: number }[] {
    return prepared(this.db, "select id, version from milestone_templates where workflow_id = ? and type = 'template' and active = 1").all(workflowId) as {
      id: string;
      version: number;
    }[];
  }
}
