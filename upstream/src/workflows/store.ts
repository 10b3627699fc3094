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
import { VERSION_MESSAGES as VM } from "../../contract/versions";
import { richTextToStore } from "../../contract/rich-text";
import { type Workflow } from "../../contract/workflows";
import type { TemplateDocument } from "../../contract/template-diff";
import { staleSave, VersionedStore, type Draft, type Revision } from "../versions/store";

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
      // Its templates' drafts and revisions go with them (the kit's tables hold no foreign key to any kind's).
      for (const table of ["versioned_drafts", "versioned_revisions"]) {
        prepared(this.db, `delete from ${table} where kind = ? and document_id in (select id from milestone_templates where workflow_id = ?)`).run(TEMPLATE_KIND, id);
      }
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

/** The kind milestone templates are in the versioned-document store (their drafts and revisions). */
export const TEMPLATE_KIND = "milestone-template";
const SELECT = `select t.*, exists (select 1 from versioned_drafts d where d.kind = '${TEMPLATE_KIND}' and d.document_id = t.id) as has_draft from milestone_templates t`;

/** A template's first graph: start → one task → finish, and the nowhere node (so that it can be activated at once). */
export function firstGraph(): Pick<TemplateContent, "steps" | "paths"> {
  const step = (id: string, type: TemplateContent["steps"][number]["type"], title: string, x: number, durationHours: number, y = 0) => ({
    id,
    type,
    title,
    durationHours,
    display: { position: { x, y } },
    transitions: [],
    options: { notifications: { email: "" as const }, instructions: "" },
    isCriticalDate: false,
  });
  return {
    steps: [
      step("start", "milestone-start", "Start", 0, 0),
      step("task-1", "task", DEFAULT_TASK_TITLE, 250, DEFAULT_STEP_HOURS),
      step("finish", "finish", "Finish", 500, 0),
      // Under the task, whose second port leads to it: never on top of the finish.
      step(NOWHERE_ID, "nowhere", "Nowhere", 250, 0, 150),
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

/** A template's document as the versioned store keeps it: the content without the commit message. */
const documentOf = (content: TemplateContent): TemplateDocument => {
  const { commitMessage: _message, ...doc } = sanitized(content);
  return doc;
};

export type TemplateSave = {
  /** The version of the answer the save was based on (contract/versions.ts); omitted: unconditional. */
  baseVersion?: number;
  /** Commits the template's draft at this version, dropping it in the same transaction. */
  draftVersion?: number;
};

export class TemplatesStore {
  /** Drafts and revisions of templates (docs/decisions/versions-kit.md); the current one stays in milestone_templates. */
  readonly versions: VersionedStore<TemplateDocument>;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    this.versions = new VersionedStore<TemplateDocument>(db, now, {
      kind: TEMPLATE_KIND,
      current: (id) => {
        const t = this.get(id);
        return t ? { document: documentOf(TemplatesStore.content(t)), revision: t.revision, updatedBy: t.updatedBy, updatedAt: t.updatedAt } : null;
      },
      // A commit makes a draft that is a new template a template (offline until activated).
      replace: (id, document, revision, commitMessage, actor) => {
        const { title, ...data } = document;
        prepared(
          this.db,
          "update milestone_templates set title = ?, data = ?, type = 'template', revision = ?, version = version + 1, updated_at = ?, updated_by = ? where id = ?",
        ).run(title, JSON.stringify({ ...data, commitMessage }), revision, isoNow(this.now), actor, id);
      },
    });
  }

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
      // The concurrency token a save sends back: a template's revision; a draft template's write counter.
      version: row.type === "draft" ? row.version : row.revision,
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

  /** The template `id` of the workflow, or a template's draft by the draft's own id (type draft), else 404. */
  requireOrDraft(workflowId: string, id: string): MilestoneTemplate {
    const t = this.get(id);
    if (t) return this.require(workflowId, id);
    const d = this.versions.draftById(id);
    const of = d ? this.get(d.documentId) : null;
    if (!d || !of || of.workflowId !== workflowId) throw notFound(M.templateNotFound);
    return this.draftAnswer(of, d);
  }

  /** A template's draft as a template answer: type draft, its own id and version, the revision it started from. */
  private draftAnswer(of: MilestoneTemplate, d: Draft<TemplateDocument>): MilestoneTemplate {
    return {
      ...d.document,
      commitMessage: "",
      id: d.id,
      workflowId: of.workflowId,
      type: "draft",
      active: false,
      isDraft: true,
      hasDraft: false,
      revision: d.baseRevision,
      version: d.version,
      author: d.updatedBy ?? d.createdBy,
      draftOf: of.id,
      createdAt: d.createdAt,
      createdBy: d.createdBy,
      updatedAt: d.updatedAt,
      updatedBy: d.updatedBy,
    };
  }

  /** Revision `n` of a template as a template answer (type revision), or null. */
  revisionAnswer(of: MilestoneTemplate, n: number): MilestoneTemplate | null {
    const r: Revision<TemplateDocument> | null = this.versions.revision(of.id, n);
    if (!r) return null;
    return {
      ...r.document,
      commitMessage: r.commitMessage,
      id: of.id,
      workflowId: of.workflowId,
      type: "revision",
      active: false,
      isDraft: false,
      hasDraft: false,
      revision: r.revision,
      version: r.revision,
      author: r.author,
      draftOf: null,
      createdAt: r.createdAt,
      createdBy: r.author,
      updatedAt: r.createdAt,
      updatedBy: r.author,
    };
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
    const t = this.get(id);
    const d = t ? this.versions.draft(id) : null;
    return t && d ? this.draftAnswer(t, d) : null;
  }

  /** Creates or overwrites a template's draft (409 'Overwrite draft?' when the draft is not the one it was based on). */
  saveDraft(id: string, content: TemplateContent, save: TemplateSave, actor: string | null): MilestoneTemplate {
    return this.db.transaction(() => {
      this.versions.saveDraft(id, documentOf(content), { baseVersion: save.baseVersion }, actor);
      return this.draftOf(id)!;
    })();
  }

  /**
   * A template (type template) is created with its content as revision 1; a draft that is a new template has no
   * revision until its first commit.
   */
  create(workflowId: string, content: TemplateContent, options: { type: TemplateType; active?: boolean }, actor: string | null): MilestoneTemplate {
    return this.db.transaction(() => {
      const id = crypto.randomUUID();
      const at = isoNow(this.now);
      const { title, ...data } = sanitized(content);
      const revision = options.type === "template" ? 1 : 0;
      prepared(
        this.db,
        `insert into milestone_templates (id, workflow_id, title, type, active, revision, data, created_at, created_by, updated_at, updated_by)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(id, workflowId, title, options.type, options.active ? 1 : 0, revision, JSON.stringify(data), at, actor, at, actor);
      if (revision) this.versions.start(id, documentOf(content), content.commitMessage ?? "", actor);
      return this.get(id)!;
    })();
  }

  /**
   * Commits `content` as the template's new revision (the engine reads it anew: the version moves on); a draft that
   * is a new template becomes a template. 409 when the template moved past `baseVersion`, or its draft past
   * `draftVersion`.
   */
  update(id: string, content: TemplateContent, actor: string | null, save: TemplateSave = {}): MilestoneTemplate {
    return this.db.transaction(() => {
      const t = this.get(id);
      if (!t) throw notFound(M.templateNotFound);
      // A draft template's token is its write counter (its revision is 0 until this commit).
      if (t.type === "draft" && save.baseVersion !== undefined && save.baseVersion !== t.version) {
        throw staleSave(VM.stale(t.version ?? 0, t.updatedBy), t.version ?? 0, t.updatedBy, t.updatedAt);
      }
      this.versions.commit(
        id,
        documentOf(content),
        {
          commitMessage: content.commitMessage ?? "",
          baseRevision: t.type === "template" ? save.baseVersion : undefined,
          draftVersion: save.draftVersion,
        },
        actor,
      );
      return this.get(id)!;
    })();
  }

  /**
   * Saves a draft that is a new template in place (it stays a draft, no revision): 409 when it moved past
   * `baseVersion`.
   */
  saveDraftTemplate(id: string, content: TemplateContent, save: TemplateSave, actor: string | null): MilestoneTemplate {
    return this.db.transaction(() => {
      const t = this.get(id);
      if (!t || t.type !== "draft") throw notFound(M.draftNotFound);
      if (save.baseVersion !== undefined && save.baseVersion !== t.version) {
        throw staleSave(VM.overwriteDraft, t.version ?? 0, t.updatedBy, t.updatedAt);
      }
      const { title, ...data } = sanitized(content);
      prepared(this.db, "update milestone_templates set title = ?, data = ?, version = version + 1, updated_at = ?, updated_by = ? where id = ?").run(
        title,
        JSON.stringify(data),
        isoNow(this.now),
        actor,
        id,
      );
      return this.get(id)!;
    })();
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

  /** Deletes a template with its draft and revisions; a template's draft (by the draft's id) is discarded. */
  remove(id: string): void {
    this.db.transaction(() => {
      const d = this.get(id) ? null : this.versions.draftById(id);
      if (d) {
        this.versions.discardDraft(d.documentId);
        return;
      }
      prepared(this.db, "delete from milestone_templates where id = ? or draft_of = ?").run(id, id);
      this.versions.forget(id);
    })();
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
