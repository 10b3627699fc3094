/**
 * A milestone template's revision preview (spec 3 §2.6 view switch, §4.1 Activate for a revision): the revision read
 * only, with the history, the badge saying its label, and Activate, which makes its content current again as a new
 * revision (PUT …/activate/revision, based on the current version the page was loaded with).
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { shortestDurationText } from "@contract/graph";
import { MilestoneTemplate } from "@contract/milestone-templates";
import { diffTemplates } from "@contract/template-diff";
import { requireRoute, requireWrite, notFound } from "~/auth/guard.server";
import { failed, failureToast, intentOf, reasonOf, statusOf } from "~/lib/actions.server";
import { readForm } from "~/lib/form.server";
import { orNotFound } from "~/lib/resource.server";
import { toasts } from "~/lib/toast.server";
import { documentOf, editorPath, templatePath } from "../editor/editor.server";
import { workflows } from "../workflows.server";
import type { ChangeLine } from "./ChangeList";
import { templateHistory } from "./history.server";
import { VERSIONS } from "./texts";
import { sentVersions } from "./versions.server";

const RevisionParam = z.coerce.number().int().min(1).max(999_999_999);

function params(args: LoaderFunctionArgs | ActionFunctionArgs) {
  const workflowId = args.params.id ?? "";
  const templateId = args.params.milestoneId ?? "";
  const revision = RevisionParam.safeParse(args.params.revision);
  if (!revision.success) throw notFound();
  return { workflowId, templateId, revision: revision.data, base: templatePath(workflowId, templateId), editor: editorPath(workflowId, templateId) };
}

export async function revisionLoader(args: LoaderFunctionArgs) {
  const { api, may, timeZone } = await requireRoute(args);
  const { workflowId, revision: n, base, editor } = params(args);
  const [workflow, template] = await Promise.all([workflows.getOr404(api, workflowId), orNotFound(api.get(MilestoneTemplate, base))]);
  const [revision, draft] = await Promise.all([
    orNotFound(api.get(MilestoneTemplate, `${base}/revisions/${n}`)),
    template.type === "template" && template.hasDraft ? api.get(MilestoneTemplate, `${base}/draft`) : null,
  ]);
  const doc = documentOf(revision);
  return json({
    workflow: { id: workflow.id, title: workflow.title },
    template: { id: template.id, title: template.title },
    revision: n,
    /** This revision is the current document: nothing to activate. */
    current: template.revision === n,
    doc,
    duration: shortestDurationText(doc),
    /** Activate is based on the current version this page was loaded with. */
    versions: template.version !== undefined ? { base: template.version } : {},
    history: await templateHistory(api, base, { template, draft }, timeZone, editor, n),
    editor,
    may: { write: may.write },
  });
}

export type RevisionData = Awaited<ReturnType<Awaited<ReturnType<typeof revisionLoader>>["json"]>>;

export type RevisionReply = { ok: false; message: string; stale?: boolean; toast?: unknown };

/** Activate (behind `workflows`): the revision's content current again; back to the editor with 'Template activated'. */
export async function revisionAction(args: ActionFunctionArgs) {
  const { api } = await requireWrite(args);
  const { revision, base, editor } = params(args);
  const form = await readForm(args.request);
  if (intentOf(form) !== "activate") return json<RevisionReply>({ ok: false, message: "Unknown action." }, { status: 400 });
  const { base: baseVersion } = sentVersions(form);
  try {
    await api.put(MilestoneTemplate, `${base}/activate/revision`, { revision, ...(baseVersion !== undefined ? { baseVersion } : {}) });
  } catch (error) {
    const status = statusOf(error);
    return failed<RevisionReply>({ ok: false, message: reasonOf(error), ...(status === 409 ? { stale: true } : {}) }, failureToast(VERSIONS.updateFailed, error), status);
  }
  return toasts(args.context).redirectWithSuccess(editor, VERSIONS.templateActivated);
}

/**
 * What Save & Activate commits when the page shows a template's draft (the commit summary, spec 3 §2.6 commit modal):
 * the differ's named changes from the current template to the draft; null when there is no draft to commit.
 */
export function draftChanges(template: MilestoneTemplate, draft: MilestoneTemplate | null): ChangeLine[] | null {
  if (!draft) return null;
  return diffTemplates(documentOf(template), documentOf(draft)).changes.map(({ kind, text }) => ({ kind, text }));
}
