import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { activationProblem, shortestDurationText, type StepStatistics as Statistics } from "@contract/graph";
import { applyEdit, applyEditInput, type EditContext } from "@contract/graph-edits";
import { MilestoneTemplate, StepStatistics, TemplateContent } from "@contract/milestone-templates";
import { itemPath } from "@contract/resource";
import { WorkflowsResource } from "@contract/workflows";
import { requireRoute, requireWrite } from "~/auth/guard.server";
import { failed, failureToast, intentOf, isConfirmed, reasonOf, rethrowResponse, statusOf } from "~/lib/actions.server";
import { readForm, textOf } from "~/lib/form.server";
import { orNotFound } from "~/lib/resource.server";
import { toasts } from "~/lib/toast.server";
import type { Api } from "~/lib/upstream.server";
import { togglePost } from "../versions/activation.server";
import { discardDraftPost, isDraftSave, saveDraftPost, type OverwriteDraft } from "../versions/drafts.server";
import { templateHistory } from "../versions/history.server";
import { draftChanges } from "../versions/templates.server";
import type { PageVersions } from "../versions/versions";
import { pageVersions, sentVersions } from "../versions/versions.server";
import { contractsOf, workflows } from "../workflows.server";
import { alternativesStructure, editsOfForm } from "./forms/parse";
import { EDITOR } from "./texts";

export const templatePath = (workflowId: string, templateId: string) => `${itemPath(WorkflowsResource, workflowId)}/milestones/${encodeURIComponent(templateId)}`;
export const editorPath = (workflowId: string, templateId: string) => `/workflows/${encodeURIComponent(workflowId)}/milestones/${encodeURIComponent(templateId)}`;
const workflowPath = (workflowId: string) => `/workflows/${encodeURIComponent(workflowId)}`;

/** GET …/milestones/{m}/export: the template's export string (the editor's Export template). */
export const openTemplateExport = (api: Api, workflowId: string, templateId: string) => api.raw("GET", `${templatePath(workflowId, templateId)}/export`);

const DOCUMENT_KEYS = Object.keys(TemplateContent.shape).filter((k) => k !== "commitMessage") as (keyof TemplateContent)[];

/**
 * The template document of a template's answer (what the editor edits and saves; server-managed fields dropped). Its
 * fields were parsed with the answer (MilestoneTemplate extends TemplateContent), so they are picked, not parsed again:
 * a second parse of a 300-step document cost the editor's loader about as much as the first.
 */
export function documentOf(t: MilestoneTemplate): TemplateContent {
  return Object.fromEntries(DOCUMENT_KEYS.map((k) => [k, t[k]])) as TemplateContent;
}

/**
 * The template and the document the editor works on: for a template with a draft, the draft (a no-JS user's edits
 * are kept there between posts, docs/decisions/template-editor.md); else the template itself.
 */
async function working(api: Api, workflowId: string, templateId: string) {
  const base = templatePath(workflowId, templateId);
  const template = await orNotFound(api.get(MilestoneTemplate, base));
  const draft = template.type === "template" && template.hasDraft ? await api.get(MilestoneTemplate, `${base}/draft`) : null;
  return { template, draft, doc: documentOf(draft ?? template), base };
}

/** Task counts by status of every step that has tasks (one call for the template: every node shows its counts). */
async function statisticsOf(api: Api, base: string): Promise<Record<string, Statistics>> {
  return api.get(z.record(z.string(), StepStatistics), `${base}/statistics`);
}

export type EditorBadge = "draft" | "online" | "offline";

/**
 * The template editor (spec 3 §2.6): the workflow's title, the template (its state badge, the working document: its
 * draft when it has one), the contracts, each task step's statistics, the shortest planned duration. Not found
 * without workflows.read (the route table) or for a template that is not this workflow's.
 */
export async function editorLoader(args: LoaderFunctionArgs) {
  const { api, may, timeZone } = await requireRoute(args);
  const workflowId = args.params.id ?? "";
  const templateId = args.params.milestoneId ?? "";
  const [workflow, { template, draft, doc, base }, contracts] = await Promise.all([
    workflows.getOr404(api, workflowId),
    working(api, workflowId, templateId),
    contractsOf(api),
  ]);
  const shown = draft || template.type === "draft" ? "draft" : "current";
  const [statistics, history] = await Promise.all([
    statisticsOf(api, base),
    templateHistory(api, base, { template, draft }, timeZone, editorPath(workflowId, templateId), shown),
  ]);
  const badge: EditorBadge = draft || template.type === "draft" ? "draft" : template.active ? "online" : "offline";
  return json({
    workflow: { id: workflow.id, title: workflow.title },
    template: { id: template.id, title: template.title, type: template.type, active: template.active, hasDraft: template.hasDraft },
    badge,
    doc,
    /** What the page's saves send back: a save based on an older version is refused (409), never a lost update. */
    versions: pageVersions(template, draft),
    history,
    /** What Save & Activate commits from the draft the page shows, in the differ's words (null: no draft). */
    changes: draftChanges(template, draft),
    /**
     * The saved layout of the template itself, for the picture (a draft's steps have no position worth drawing yet);
     * without a draft it is `doc`'s, which the page reads instead of carrying the graph twice.
     */
    saved: draft ? { steps: template.steps, paths: template.paths } : null,
    duration: shortestDurationText(doc),
    statistics,
    /** The row whose editing form is open (`?edit=`): one form on the page, not one per row. */
    editing: new URL(args.request.url).searchParams.get("edit"),
    contracts,
    may: { write: may.write },
  });
}

export type EditorData = Awaited<ReturnType<Awaited<ReturnType<typeof editorLoader>>["json"]>>;

/** What a failed post answers: the message (the model's or the upstream's), which form it came from, and a toast. */
export type EditorReply = {
  ok: boolean;
  message?: string;
  /** The table form that posted (its `form` field), to show the message beside it and keep what was typed. */
  form?: string;
  values?: Record<string, string>;
  /** A save refused because the template or its draft moved on since the page was loaded (409). */
  stale?: boolean;
  confirm?: "delete" | "step-options" | "toggle" | "discard-draft" | "overwrite-draft";
  /** The newer draft a Save as draft would overwrite ('Overwrite draft?'). */
  overwrite?: OverwriteDraft;
  tasks?: number;
  toast?: unknown;
};

const valuesOf = (form: FormData) => Object.fromEntries([...form.entries()].filter((e): e is [string, string] => typeof e[1] === "string"));

/** Saves the working document where the editor keeps unsaved work: the template's draft, or a draft template itself. */
async function keep(api: Api, template: MilestoneTemplate, base: string, doc: TemplateContent) {
  if (template.type === "draft") await api.put(MilestoneTemplate, `${base}/draft/template`, doc);
  else await api.put(MilestoneTemplate, `${base}/draft`, doc);
}

/**
 * Makes `doc` the template (PUT, the upstream validates it again) and drops the draft it came from, based on the
 * versions the page was loaded with: a page that showed the draft commits it and drops it in one call; a draft begun
 * since by someone else is left alone. A post without versions saves unconditionally.
 */
async function saveTemplate(api: Api, template: MilestoneTemplate, base: string, doc: TemplateContent & { commitMessage?: string }, sent: PageVersions, commit = false) {
  const baseVersion = sent.base !== undefined ? { baseVersion: sent.base } : {};
  // A draft template's Save keeps it a draft; its Save & Activate commits it (it becomes a template, then is activated).
  if (template.type === "draft" && !commit) return api.put(MilestoneTemplate, `${base}/draft/template`, { ...doc, ...baseVersion });
  if (sent.draft !== undefined) return api.put(MilestoneTemplate, base, { ...doc, ...baseVersion, draftVersion: sent.draft });
  const saved = await api.put(MilestoneTemplate, base, { ...doc, ...baseVersion });
  if (template.hasDraft && sent.base === undefined) await api.send("DELETE", `${base}/draft/discard`);
  return saved;
}

/** A `document` field (the canvas's whole document, JSON), parsed by the contract; a message when it is not one. */
function documentField(form: FormData): TemplateContent | string | null {
  const raw = form.get("document");
  if (typeof raw !== "string" || raw === "") return null;
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return EDITOR.updateFailed;
  }
  const parsed = TemplateContent.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message;
  }
  return parsed.data;
}

/** The step-options change (spec 3 §7 POST …/steps/{s}/options) between two documents for step `id`, or null. */
function changedOptions(before: TemplateContent, after: TemplateContent, id: string) {
  const a = before.steps.find((s) => s.id === id);
  const b = after.steps.find((s) => s.id === id);
  if (!a || !b) return null;
  const notify = a.options.notifications.email !== b.options.notifications.email ? b.options.notifications.email : undefined;
  const critical = a.isCriticalDate !== b.isCriticalDate ? b.isCriticalDate : undefined;
  if (notify === undefined && critical === undefined) return null;
  return {
    step: id,
    body: { ...(notify !== undefined ? { options: { notification: { email: notify } } } : {}), ...(critical !== undefined ? { isCriticalDate: critical } : {}) },
  };
}

/** The table each form's edit belongs to (the section ids of TableEditor). */
const SECTION_OF: Record<string, string> = {
  addStep: "steps",
  updateStep: "steps",
  deleteStep: "steps",
  addPath: "paths",
  updatePath: "paths",
  deletePath: "paths",
  addFormProperty: "paths",
  deleteFormProperty: "paths",
  setAlternatives: "paths",
  setTransitions: "steps",
  updateFormProperty: "paths",
  addVariable: "variables",
  updateVariable: "variables",
  deleteVariable: "variables",
  addStage: "roadmap",
  renameStage: "roadmap",
  deleteStage: "roadmap",
  setProperties: "properties",
};

const StepOptionsForm = z.object({ step: z.string().min(1), notification: z.enum(["", "always", "never"]).optional(), isCriticalDate: z.enum(["true", "false"]).optional() });

/**
 * The editor's posts, behind `workflows` (spec 3 §6): `edit` (one graph edit: the canvas's JSON `edit`, or a table
 * form's fields), kept in the draft; `save` (the whole document, the canvas's, or the draft's); `save-activate` (with
 * an optional commit message; the finish must be reachable); `export` (to the download, a GET); `delete`
 * (after its confirmation); `step-options` (a step's notification or critical date, confirmed when tasks exist).
 */
export async function editorAction(args: ActionFunctionArgs) {
  const { api, timeZone } = await requireWrite(args);
  const workflowId = args.params.id ?? "";
  const templateId = args.params.milestoneId ?? "";
  const form = await readForm(args.request);
  const intent = intentOf(form);
  const flash = toasts(args.context);
  const here = editorPath(workflowId, templateId);
  const { template, doc, base } = await working(api, workflowId, templateId);
  const draftPost = { api, form, template, base, editorUrl: here, workflowUrl: workflowPath(workflowId), flash, timeZone };
  const refuse = (message: string, status = 400) =>
    json<EditorReply>({ ok: false, message, form: textOf(form, "form") || undefined, values: valuesOf(form) }, { status });

  if (intent === "edit") {
    const ctx: EditContext = {};
    if (form.get("op") === "deleteStep" || (typeof form.get("edit") === "string" && String(form.get("edit")).includes("deleteSteps"))) {
      const stats = await statisticsOf(api, base);
      ctx.statistics = (id) => stats[id] ?? [];
    }
    let next = doc;
    const raw = form.get("edit");
    if (typeof raw === "string" && raw !== "") {
      let input: unknown;
      try {
        input = JSON.parse(raw);
      } catch {
        return refuse(EDITOR.updateFailed);
      }
      const r = applyEditInput(doc, input, ctx);
      if (!r.ok) return refuse(r.message);
      next = r.doc;
    } else {
      // The alternatives form's Add and Remove buttons post without JavaScript: the form comes back edited, nothing kept.
      const structural = alternativesStructure(form, doc);
      if (structural) return json<EditorReply>({ ok: false, form: textOf(form, "form") || undefined, values: structural });
      const edits = editsOfForm(form, doc);
      if (typeof edits === "string") return refuse(edits);
      for (const e of edits) {
        const r = applyEditInput(next, e, ctx);
        if (!r.ok) return refuse(r.message);
        next = r.doc;
      }
    }
    // Spec 3 §4.1: a step's notification or critical date changed while it has tasks asks first, then updates them.
    const options = changedOptions(doc, next, textOf(form, "op") === "updateStep" ? textOf(form, "id") : "");
    if (options) {
      const tasks = await api.get(z.number().int(), `${base}/steps/${encodeURIComponent(options.step)}/tasks/count`);
      if (tasks > 0) {
        if (!isConfirmed(form)) return json<EditorReply>({ ok: false, confirm: "step-options", tasks, values: valuesOf(form) });
        try {
          const updated = await api.post(z.number().int(), `${base}/steps/${encodeURIComponent(options.step)}/options`, options.body);
          await keep(api, template, base, next);
          return flash.redirectWithSuccess(here, { message: EDITOR.tasksUpdated, description: EDITOR.tasksUpdatedMessage(updated) });
        } catch (error) {
          rethrowResponse(error);
          return failed<EditorReply>({ ok: false }, { type: "error", message: EDITOR.taskUpdateError, description: EDITOR.taskUpdateErrorMessage }, statusOf(error));
        }
      }
    }
    try {
      await keep(api, template, base, next);
    } catch (error) {
      return failed<EditorReply>({ ok: false, message: reasonOf(error), form: textOf(form, "form") || undefined, values: valuesOf(form) }, failureToast(EDITOR.updateFailed, error), statusOf(error));
    }
    // Back to the table the form belongs to (not the form: a fragment inside a closed row editor would open it).
    const section = SECTION_OF[textOf(form, "op")];
    return flash.redirectWithSuccess(`${here}${section ? `#${section}` : ""}`, EDITOR.editSaved);
  }

  if (intent === "save" || intent === "save-activate") {
    const sent = documentField(form);
    if (typeof sent === "string") return refuse(sent);
    const content = sent ?? doc;
    if (intent === "save" && isDraftSave(form)) return saveDraftPost({ ...draftPost, doc: content, fromCanvas: sent !== null });
    if (intent === "save-activate") {
      const problem = activationProblem(content);
      if (problem) return failed<EditorReply>({ ok: false, message: EDITOR.finishUnreachable }, { type: "error", message: EDITOR.finishUnreachable }, 400);
    }
    const commitMessage = textOf(form, "commitMessage");
    try {
      const saved = await saveTemplate(api, template, base, { ...content, ...(commitMessage ? { commitMessage } : {}) }, sentVersions(form), intent === "save-activate");
      if (intent === "save-activate") {
        if (saved.type === "template" && !saved.active) await api.post(MilestoneTemplate, `${base}/activate`);
        return flash.redirectWithSuccess(workflowPath(workflowId), EDITOR.savedAndActivated);
      }
    } catch (error) {
      // The commit message typed is kept; the document is the canvas's (kept in the browser) or the draft (upstream).
      const status = statusOf(error);
      const reply: EditorReply = { ok: false, message: reasonOf(error), values: { commitMessage }, ...(status === 409 ? { stale: true } : {}) };
      return failed<EditorReply>(reply, failureToast(EDITOR.updateFailed, error), status);
    }
    // The canvas saves through a fetcher and stays; a no-JS Save comes back to the page.
    if (sent) return json<EditorReply>({ ok: true, toast: { type: "success", message: EDITOR.saved } });
    return flash.redirectWithSuccess(here, EDITOR.saved);
  }

  if (intent === "discard-draft") return discardDraftPost({ ...draftPost, doc, fromCanvas: false });

  if (intent === "toggle") return togglePost({ ...draftPost, workflowId });

  if (intent === "export") return redirect(`${here}/export`);

  if (intent === "delete") {
    if (!isConfirmed(form)) return json<EditorReply>({ ok: false, confirm: "delete" });
    try {
      await api.send("DELETE", base);
    } catch (error) {
      return failed<EditorReply>({ ok: false }, failureToast(EDITOR.deleteFailed, error), statusOf(error));
    }
    return flash.redirectWithSuccess(workflowPath(workflowId), EDITOR.deleted);
  }

  if (intent === "step-options") {
    const parsed = StepOptionsForm.safeParse(valuesOf(form));
    if (!parsed.success) return refuse(EDITOR.taskUpdateErrorMessage);
    const { step, notification, isCriticalDate } = parsed.data;
    const critical = isCriticalDate === undefined ? undefined : isCriticalDate === "true";
    const tasks = await api.get(z.number().int(), `${base}/steps/${encodeURIComponent(step)}/tasks/count`);
    if (tasks === 0) {
      // No task to update: an ordinary edit of the step, kept in the draft.
      const r = applyEdit(doc, { type: "updateStep", id: step, fields: { ...(notification !== undefined ? { notification } : {}), ...(critical !== undefined ? { isCriticalDate: critical } : {}) } });
      if (!r.ok) return refuse(r.message);
      await keep(api, template, base, r.doc);
      return flash.redirectWithSuccess(here, EDITOR.editSaved);
    }
    if (!isConfirmed(form)) return json<EditorReply>({ ok: false, confirm: "step-options", tasks, values: valuesOf(form) });
    try {
      const body = { ...(notification !== undefined ? { options: { notification: { email: notification } } } : {}), ...(critical !== undefined ? { isCriticalDate: critical } : {}) };
      const updated = await api.post(z.number().int(), `${base}/steps/${encodeURIComponent(step)}/options`, body);
      // The upstream changed the template's step; the draft the editor shows gets the same change.
      if (template.hasDraft) {
        const r = applyEdit(doc, { type: "updateStep", id: step, fields: { ...(notification !== undefined ? { notification } : {}), ...(critical !== undefined ? { isCriticalDate: critical } : {}) } });
        if (r.ok) await keep(api, template, base, r.doc);
      }
      return flash.redirectWithSuccess(here, { message: EDITOR.tasksUpdated, description: EDITOR.tasksUpdatedMessage(updated) });
    } catch (error) {
      rethrowResponse(error);
      return failed<EditorReply>({ ok: false }, { type: "error", message: EDITOR.taskUpdateError, description: EDITOR.taskUpdateErrorMessage }, statusOf(error));
    }
  }

  return refuse("Unknown action.");
}
