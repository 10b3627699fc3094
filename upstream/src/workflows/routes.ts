/**
 * /api/workflows/* (spec 3 §7): workflows on the resource kit plus clone, import/export, default, settings,
 * contracts and by/…; milestone templates of a workflow (create from the wizard, update, activate/deactivate, drafts,
 * steps' statistics and options); the docket (events, milestones, task completion). Permissions (spec 3 §6, spec 1):
 * workflows.read reads, `workflows` changes, docketing_tasks.read reads the docket (403 otherwise, as every domain).
 */
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { activationProblem, validateTemplate } from "../../contract/graph";
import type { TaskStatus } from "../../contract/workflow-constants";
import { IMPORT_BODY_BYTES, WORKFLOW_MESSAGES as M } from "../../contract/workflow-constants";
import { CONTRACTS } from "../../contract/workflow-contracts";
import { type MilestoneTemplate, StepOptionsChange, TemplateContent, TemplateCreate, TemplateExport } from "../../contract/milestone-templates";
import { CloneQuery, ImportBody, parseImportString, WorkflowExport, WorkflowsResource, WorkflowUpdate } from "../../contract/workflows";
import { EventInput, MilestoneListQuery, TaskCompletion, type WorkflowEvent } from "../../contract/milestones";
import { changeLines, diffTemplates } from "../../contract/template-diff";
import { ActivateRevision, BaseVersion, HistoryQuery, VERSION_MESSAGES as VM, VersionRefParam } from "../../contract/versions";
import type { Db } from "../db";
import { prepared } from "../lib/collection";
import { badRequest, conflict, jsonBody, notFound, requireAny, requirePermission, validate, type AppContext, type AppEnv } from "../lib/http";
import { resourceRoutes } from "../lib/resource-routes";
import type { Docket } from "./docket";
import { queueWorkflowEvent } from "./events";
import { TemplatesStore, firstGraph, type StoredWorkflow, type WorkflowsStore } from "./store";

export type WorkflowDeps = {
  db: Db;
  now: () => number;
  workflows: WorkflowsStore;
  templates: TemplatesStore;
  docket: Docket;
  requireAuth: MiddlewareHandler<AppEnv>;
};

const actorOf = (c: AppContext) => c.get("actor").email;
/** A template document the graph model finds sound, else 400 naming its first problem (whatever the browser sent). */
function sound<T extends TemplateContent>(content: T): T {
  const [problem] = validateTemplate(content);
  if (problem) throw badRequest(problem);
  return content;
}
/**
 * A repeated query parameter (`?references=A&references=B`), one value each. Never split on commas: a client code
 * may hold one ("ACME, Inc."), and a split would make two references of it that no workflow claims.
 */
const queryList = (c: AppContext, name: string) => (c.req.queries(name) ?? []).map((v) => v.trim()).filter(Boolean);

/** A save of a template document: the version it was based on, and for a commit of the draft, the draft's version. */
const TemplateSaveBody = TemplateContent.extend({ baseVersion: BaseVersion.optional(), draftVersion: BaseVersion.optional() });
/**
 * POST …/workflows/compare: two template documents (spec 3 §7), compared by the named-change differ. Its body has
 * the bound of every JSON body (1 MB), as a template's own PUT has.
 */
const CompareBody = z.object({ current: TemplateContent, next: TemplateContent });
/** `?baseVersion=N` of a DELETE (no body), else undefined. */
const baseVersionQuery = (c: AppContext) => {
  const raw = c.req.query("baseVersion");
  return raw === undefined ? undefined : validate(z.coerce.number().pipe(BaseVersion), raw);
};

export function workflowRoutes(deps: WorkflowDeps): Hono<AppEnv> {
  const { db, workflows, templates, docket, requireAuth } = deps;
  const read = [requireAuth, requirePermission("workflows.read")] as const;
  const write = [requireAuth, requirePermission("workflows")] as const;
  const answer = (w: StoredWorkflow) => ({ ...w, isDefault: w.id === workflows.defaultId() });
  const workflow = (id: string) => {
    const w = workflows.get(id);
    if (!w) throw notFound(M.workflowNotFound);
    return w;
  };

  /** Creates a workflow with templates (import), the client codes another workflow holds left out. */
  const importWorkflow = (value: WorkflowExport, actor: string) =>
    db.transaction(() => {
      const codes = value.workflow.clientCodes.filter((code) => !workflows.byClientCode(code));
      const w = workflows.create({ title: value.workflow.title, clientCodes: codes }, actor);
      // An import never starts docketing by itself: its templates arrive offline.
      for (const { active: _active, ...content } of value.templates) templates.create(w.id, content, { type: "template" }, actor);
      return w;
    })();

  const routes = (app: Hono<AppEnv>) => {
    app.get("/settings", ...read, (c) => c.json({ defaultWorkflow: workflows.defaultId() }));
    app.get("/settings/contracts", requireAuth, requireAny("workflows.read", "docketing_tasks.read"), (c) => c.json(CONTRACTS));
    app.get("/settings/templates", ...read, (c) => {
      const rows = prepared(db, "select id, title, workflow_id as workflowId, active from milestone_templates where type = 'template' order by lower(title), id").all() as {
        id: string;
        title: string;
        workflowId: string;
        active: number;
      }[];
      return c.json(rows.map((r) => ({ ...r, active: r.active === 1 })));
    });
    app.get("/tags", ...read, (c) => c.json(templates.tags()));
    app.get("/by/default", ...read, (c) => {
      const id = workflows.defaultId();
      const w = id ? workflows.get(id) : null;
      if (!w) throw notFound(M.workflowNotFound);
      return c.json(answer(w));
    });
    /**
     * ?references=A&references=B: the workflow serving each client code (claimed by one, else the default).
     * ?workflowId=X: the references of X (its client codes, and for the default the unclaimed client codes its
     * matters carry), with counts.
     */
    app.get("/by/references", ...read, (c) => {
      const workflowId = c.req.query("workflowId");
      if (workflowId) {
        const w = workflow(workflowId);
        const codes = new Map(w.clientCodes.map((code) => [code.toLowerCase(), code]));
        if (workflows.defaultId() === w.id) {
          const rows = prepared(db, "select distinct client_code as code from workflow_references where client_code not in (select code from workflow_client_codes) limit 500").all() as {
            code: string;
          }[];
          for (const r of rows) if (!codes.has(r.code.toLowerCase())) codes.set(r.code.toLowerCase(), r.code);
        }
        return c.json([...codes.values()].map((reference) => ({ reference, workflowId: w.id, claimed: w.clientCodes.includes(reference), count: docket.referenceCount(reference) })));
      }
      const defaultId = workflows.defaultId();
      return c.json(
        queryList(c, "references").slice(0, 200).map((reference) => {
          const claimed = workflows.byClientCode(reference);
          return { reference, workflowId: claimed ?? defaultId, claimed: claimed !== null };
        }),
      );
    });
    app.post("/import", ...write, async (c) => {
      const { importString } = await jsonBody(c, ImportBody, IMPORT_BODY_BYTES);
      const parsed = parseImportString(WorkflowExport, importString);
      if (!parsed.ok) throw badRequest(parsed.message);
      return c.json(answer(importWorkflow(parsed.value, actorOf(c))), 201);
    });
    app.put("/:id", ...write, async (c) => {
      const input = await jsonBody(c, WorkflowUpdate);
      const w = workflows.update(c.req.param("id"), input, actorOf(c));
      if (!w) throw notFound(M.workflowNotFound);
      return c.json(answer(w));
    });
    app.post("/:id/makeDefault", ...write, (c) => {
      const w = workflow(c.req.param("id"));
      workflows.setDefault(w.id);
      return c.json(answer(w));
    });
    app.get("/:id/export", ...read, (c) => {
      const w = workflow(c.req.param("id"));
      const exported: WorkflowExport = {
        workflow: { title: w.title, clientCodes: w.clientCodes },
        templates: templates.list(w.id).filter((t) => t.type === "template").map((t) => ({ ...TemplatesStore.content(t), active: t.active })),
      };
      return c.json(exported);
    });
    /**
     * The clone takes over the chosen references (client codes) from the original: their next events go to the clone;
     * milestones already open stay with the original's templates (docs/decisions/workflows.md).
     */
    app.post("/:id/clone", ...write, (c) => {
      const original = workflow(c.req.param("id"));
      const q = validate(CloneQuery, { title: c.req.query("title"), references: queryList(c, "references") });
      if (!q.references.length) throw badRequest(`references: ${M.cloneReferenceRequired}`);
      const isDefault = workflows.defaultId() === original.id;
      for (const r of q.references) {
        const holder = workflows.byClientCode(r);
        if (holder !== original.id && !(isDefault && holder === null)) throw badRequest(`references: ${M.cloneReferenceUnknown(r)}`);
      }
      const title = q.title?.trim() || `${original.title}${M.cloneSuffix}`;
      const actor = actorOf(c);
      const clone = db.transaction(() => {
        const taken = new Set(q.references.map((r) => r.toLowerCase()));
        workflows.update(original.id, { clientCodes: original.clientCodes.filter((code) => !taken.has(code.toLowerCase())) }, actor);
        const w = workflows.create({ title: title.slice(0, 200), clientCodes: q.references }, actor);
        for (const t of templates.list(original.id)) {
          if (t.type === "template") templates.create(w.id, TemplatesStore.content(t), { type: "template", active: t.active }, actor);
        }
        return w;
      })();
      return c.json(answer(clone), 201);
    });

    app.post("/compare", ...read, async (c) => {
      const { current, next } = await jsonBody(c, CompareBody);
      return c.json(diffTemplates(current, next));
    });

    // Milestone templates of a workflow.
    app.get("/:id/milestones", ...read, (c) => c.json(templates.list(workflow(c.req.param("id")).id)));
    app.post("/:id/milestones/draft/template", ...write, async (c) => {
      const w = workflow(c.req.param("id"));
      const { data } = await jsonBody(c, TemplateCreate);
      const content = validate(TemplateContent, { ...data, ...firstGraph() });
      return c.json(templates.create(w.id, content, { type: "template", active: false }, actorOf(c)), 201);
    });
    app.post("/:id/milestones/import", ...write, async (c) => {
      const w = workflow(c.req.param("id"));
      const { importString } = await jsonBody(c, ImportBody, IMPORT_BODY_BYTES);
      const parsed = parseImportString(TemplateExport, importString);
      if (!parsed.ok) throw badRequest(parsed.message);
      const { active: _active, ...content } = parsed.value;
      return c.json(templates.create(w.id, sound(content), { type: "template", active: false }, actorOf(c)), 201);
    });
    const template = (c: AppContext): MilestoneTemplate => templates.require(workflow(c.req.param("id") ?? "").id, c.req.param("m") ?? "");
    /** A template, or a template's draft by the draft's own id (spec 3 §3: type draft). */
    const templateOrDraft = (c: AppContext): MilestoneTemplate => templates.requireOrDraft(workflow(c.req.param("id") ?? "").id, c.req.param("m") ?? "");
    app.get("/:id/milestones/:m", ...read, (c) => c.json(templateOrDraft(c)));
    app.get("/:id/milestones/:m/export", ...read, (c) => {
      const t = template(c);
      return c.json({ ...TemplatesStore.content(t), active: t.active });
    });
    /**
     * Commits the document as the template's new revision (a draft that is a new template becomes a template);
     * `baseVersion` is the answer's version it was based on, `draftVersion` commits the draft and drops it at once.
     */
    app.put("/:id/milestones/:m", ...write, async (c) => {
      const t = template(c);
      const { baseVersion, draftVersion, ...content } = sound(await jsonBody(c, TemplateSaveBody));
      if (t.active && t.type === "template") {
        const problem = activationProblem(content);
        if (problem) throw badRequest(problem);
      }
      return c.json(templates.update(t.id, content, actorOf(c), { baseVersion, draftVersion }));
    });
    app.delete("/:id/milestones/:m", ...write, (c) => {
      const t = templateOrDraft(c);
      const open = t.draftOf ? 0 : docket.openMilestonesOf(t.id);
      if (open) throw conflict(M.templateOpenMilestones(open));
      templates.remove(t.id);
      return c.body(null, 204);
    });
    const toggle = (active: boolean) => (c: AppContext) => {
      const t = templateOrDraft(c);
      if (t.type !== "template") throw conflict(M.draftsNotToggled);
      if (active) {
        const problem = activationProblem(t);
        if (problem) throw badRequest(problem);
      }
      return c.json(templates.setActive(t.id, active, actorOf(c)));
    };
    app.post("/:id/milestones/:m/activate", ...write, toggle(true));
    app.post("/:id/milestones/:m/deactivate", ...write, toggle(false));
    // Versioned documents (docs/decisions/versions-kit.md): a template's draft (its pending changes), a draft that is
    // itself a new template, the revisions, activation of an old one, compare.
    app.get("/:id/milestones/:m/draft", ...read, (c) => {
      const d = templates.draftOf(template(c).id);
      if (!d) throw notFound(M.draftNotFound);
      return c.json(d);
    });
    /** Creates or overwrites the draft; `baseVersion` is the draft's version it was based on (0: none expected). */
    app.put("/:id/milestones/:m/draft", ...write, async (c) => {
      const t = template(c);
      const { baseVersion, draftVersion: _ignored, ...content } = sound(await jsonBody(c, TemplateSaveBody));
      return c.json(templates.saveDraft(t.id, content, { baseVersion }, actorOf(c)));
    });
    app.delete("/:id/milestones/:m/draft/discard", ...write, (c) => {
      if (!templates.versions.discardDraft(template(c).id, { baseVersion: baseVersionQuery(c) })) throw notFound(M.draftNotFound);
      return c.body(null, 204);
    });
    const standaloneDraft = (c: AppContext) => {
      const t = template(c);
      if (t.type !== "draft") throw notFound(M.draftNotFound);
      return t;
    };
    app.get("/:id/milestones/:m/draft/template", ...read, (c) => c.json(standaloneDraft(c)));
    app.put("/:id/milestones/:m/draft/template", ...write, async (c) => {
      const d = standaloneDraft(c);
      const { baseVersion, draftVersion: _ignored, ...content } = sound(await jsonBody(c, TemplateSaveBody));
      return c.json(templates.saveDraftTemplate(d.id, content, { baseVersion }, actorOf(c)));
    });
    app.delete("/:id/milestones/:m/draft/template", ...write, (c) => {
      templates.remove(standaloneDraft(c).id);
      return c.body(null, 204);
    });
    /** The history, newest first (`?limit`, `?before` a revision number). */
    app.get("/:id/milestones/:m/revisions", ...read, (c) => {
      const t = template(c);
      return c.json(templates.versions.history(t.id, validate(HistoryQuery, c.req.query())));
    });
    app.get("/:id/milestones/:m/revisions/:n", ...read, (c) => {
      const n = validate(z.coerce.number().int().min(1).max(1e9), c.req.param("n"));
      const r = templates.revisionAnswer(template(c), n);
      if (!r) throw notFound(VM.revisionNotFound);
      return c.json(r);
    });
    /** Makes revision N's content current as a new revision (an active template's must still reach Finish). */
    app.put("/:id/milestones/:m/activate/revision", ...write, async (c) => {
      const t = template(c);
      const body = await jsonBody(c, ActivateRevision);
      const old = templates.revisionAnswer(t, body.revision);
      if (!old) throw notFound(VM.revisionNotFound);
      if (t.active && t.type === "template") {
        const problem = activationProblem(old);
        if (problem) throw badRequest(problem);
      }
      templates.versions.activateRevision(t.id, body.revision, { baseRevision: body.baseVersion, commitMessage: body.commitMessage }, actorOf(c));
      return c.json(templates.get(t.id));
    });
    /** Named changes between two versions of the template: `?from=` and `?to=` current, draft or N (current → draft). */
    app.get("/:id/milestones/:m/compare", ...read, (c) => {
      const t = template(c);
      const from = validate(VersionRefParam, c.req.query("from") ?? "current");
      const to = validate(VersionRefParam, c.req.query("to") ?? "draft");
      const { before, after } = templates.versions.compare(t.id, from, to);
      return c.json({ from, to, ...diffTemplates(before, after) });
    });
    // A step's tasks: statistics by status, the count of open ones, and options applied to them.
    /** Every step's task counts by status at once (the editor shows them on every step: one call, not one per step). */
    app.get("/:id/milestones/:m/statistics", ...read, (c) => {
      const rows = prepared(db, "select step_id as step, status, count(*) as count from tasks where template_id = ? group by step_id, status order by step_id, status").all(
        template(c).id,
      ) as { step: string; status: TaskStatus; count: number }[];
      const byStep: Record<string, { status: TaskStatus; count: number }[]> = {};
      for (const r of rows) (byStep[r.step] ??= []).push({ status: r.status, count: r.count });
      return c.json(byStep);
    });
    app.get("/:id/milestones/:m/steps/:s/statistics", ...read, (c) => c.json(docket.statistics(template(c).id, c.req.param("s"))));
    app.get("/:id/milestones/:m/steps/:s/tasks/count", ...read, (c) => c.json(docket.openCount(template(c).id, c.req.param("s"))));
    app.post("/:id/milestones/:m/steps/:s/options", ...write, async (c) => {
      const t = template(c);
      const stepId = c.req.param("s");
      const body = await jsonBody(c, StepOptionsChange);
      const step = t.steps.find((s) => s.id === stepId);
      if (!step) throw notFound("Step not found.");
      const notify = body.options?.notification?.email;
      const updated = db.transaction(() => {
        const steps = t.steps.map((s) =>
          s.id !== stepId
            ? s
            : {
                ...s,
                ...(body.isCriticalDate !== undefined ? { isCriticalDate: body.isCriticalDate } : {}),
                ...(notify !== undefined ? { options: { ...s.options, notifications: { email: notify } } } : {}),
              },
        );
        const before = TemplatesStore.content(t);
        const after = { ...before, steps };
        // A revision like any other: its message names the change.
        templates.update(t.id, { ...after, commitMessage: changeLines(diffTemplates(before, after)).join("; ") }, actorOf(c));
        return docket.applyStepOptions(t.id, stepId, { notify, critical: body.isCriticalDate });
      })();
      return c.json(updated);
    });
  };

  return resourceRoutes(WorkflowsResource, workflows, { requireAuth, hooks: { routes, toItem: answer } });
}

type EventRow = { id: string; code: string; reference: string; client_code: string | null; source: string; status: WorkflowEvent["status"]; milestones: string; created_at: string; processed_at: string | null };
const eventOf = (r: EventRow): WorkflowEvent => ({
  id: r.id,
  code: r.code,
  reference: r.reference,
  clientCode: r.client_code,
  source: r.source,
  status: r.status,
  milestones: JSON.parse(r.milestones) as string[],
  createdAt: r.created_at,
  processedAt: r.processed_at,
});

/** /api/workflows/{milestones,tasks,events,migration}: the docket and its events. */
export function docketRoutes(deps: WorkflowDeps & { queued?: () => void }): Hono<AppEnv> {
  const { db, now, docket, requireAuth } = deps;
  const app = new Hono<AppEnv>({ strict: false });
  const docketRead = [requireAuth, requirePermission("docketing_tasks.read")] as const;
  const event = (id: string) => {
    const r = prepared(db, "select * from workflow_events where id = ?").get(id) as EventRow | undefined;
    if (!r) throw notFound(M.eventNotFound);
    return eventOf(r);
  };

  /** An event for a matter, queued for the engine: 202 with the event (the same one again for a repeated key). */
  app.post("/milestones", requireAuth, requireAny("workflows", "docketing_tasks"), async (c) => {
    const input = await jsonBody(c, EventInput);
    const key = c.req.header("idempotency-key")?.slice(0, 200) ?? input.idempotencyKey;
    const { id, created } = db.transaction(() =>
      queueWorkflowEvent(
        db,
        {
          id: key ? `api:${key}` : undefined,
          code: input.code,
          reference: input.reference,
          clientCode: input.clientCode ?? null,
          source: "api",
          data: input.data,
          actor: actorOf(c),
        },
        now,
      ),
    )();
    return c.json(event(id), created ? 202 : 200);
  });
  app.get("/milestones", ...docketRead, (c) => {
    const q = validate(MilestoneListQuery, c.req.query());
    return c.json(docket.list(q, actorOf(c), c.req.header("x-timezone")));
  });
  app.get("/milestones/:id", ...docketRead, (c) => c.json(docket.get(c.req.param("id"))));
  app.post("/tasks/:id/complete", ...docketRead, async (c) => {
    const input = await jsonBody(c, TaskCompletion);
    const actor = c.get("actor");
    return c.json(docket.complete(c.req.param("id"), input, { email: actor.email, permissions: actor.permissions }));
  });
  app.get("/events/:id", requireAuth, requireAny("docketing_tasks.read", "workflows.read"), (c) => c.json(event(c.req.param("id"))));
  app.get("/migration/inventions/:reference/count", requireAuth, requirePermission("workflows.read"), (c) => {
    const reference = z.string().max(200).parse(c.req.param("reference"));
    return c.json({ reference, count: docket.referenceCount(reference) });
  });
  return app;
}
