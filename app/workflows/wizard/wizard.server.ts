import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { MilestoneTemplate, TemplateCreate } from "@contract/milestone-templates";
import { WorkflowsResource } from "@contract/workflows";
import { requireRoute, requireWrite } from "~/auth/guard.server";
import { failed, intentOf, rethrowResponse, statusOf } from "~/lib/actions.server";
import { readForm } from "~/lib/form.server";
import { resourceClient } from "~/lib/resource.server";
import { richTextToStore } from "~/lib/rich-text.server";
import { toasts } from "~/lib/toast.server";
import type { Api } from "~/lib/upstream.server";
import { NEW_TEMPLATE, applyIntent, listPath, firstInvalid, readWizard, stepErrors, stepOf, toTemplateCreate, type Step, type WizardErrors, type WizardState } from "./state";
import { WIZARD } from "./texts";

const workflows = resourceClient(WorkflowsResource);

/** POST .../{id}/milestones/draft/template (spec 3 §7): the template, offline, with its first graph. */
export function createTemplate(api: Api, workflowId: string, body: TemplateCreate) {
  return api.post(MilestoneTemplate, `${WorkflowsResource.path}/${encodeURIComponent(workflowId)}/milestones/draft/template`, body);
}

/** The wizard's answer to a post: the state to show, on which step, with which messages (and a failure toast). */
export type WizardReply = { state: WizardState; step: Step; errors: WizardErrors; stayed?: boolean };

/** The wizard: the workflow (or the not-found view) and the empty template; `workflows` is needed to see it at all. */
export async function wizardLoader(args: LoaderFunctionArgs) {
  const { api } = await requireRoute(args);
  const workflow = await workflows.getOr404(api, args.params.id ?? "");
  return json({ workflow: { id: workflow.id, title: workflow.title }, initial: NEW_TEMPLATE });
}

/**
 * The wizard's posts. Every post carries all six steps' fields and the step shown. `next` checks that step (the
 * required value of spec 3 §2.4) and moves on; `back` moves back; the editing buttons of a page without JavaScript
 * (conditions, notes, variables) answer the edited state; `create` checks every step, sends the template and goes back
 * to the list, or shows 'Milestone creation failed' with everything kept.
 */
export async function wizardAction(args: ActionFunctionArgs) {
  const { api } = await requireWrite(args);
  const workflowId = args.params.id ?? "";
  const form = await readForm(args.request);
  const { state, changed } = readWizard(form);
  const step = stepOf(form.get("step"));
  const intent = intentOf(form);
  const reply = (r: WizardReply, status = 200) => json({ ...r, toast: null }, { status });

  const edited = applyIntent(state, intent, form);
  if (edited) return reply({ state: edited, step, errors: {} });
  if (intent === "back") return reply({ state, step: Math.max(1, step - 1) as Step, errors: {} });
  if (intent === "next") {
    const errors = stepErrors(state, step);
    if (Object.keys(errors).length) return reply({ state, step, errors }, 400);
    if (changed) return reply({ state, step, errors: {}, stayed: true });
    return reply({ state, step: Math.min(6, step + 1) as Step, errors: {} });
  }
  if (changed) return reply({ state, step, errors: {}, stayed: true });
  const invalid = firstInvalid(state);
  if (invalid) return reply({ state, step: invalid.step, errors: invalid.errors }, 400);
  const body = TemplateCreate.safeParse(toTemplateCreate(state, workflowId, richTextToStore));
  if (!body.success) {
    // The steps' checks mirror the contract's; a bound only the contract knows still answers here, not upstream.
    const issue = body.error.issues[0];
    return failed({ state, step, errors: {} }, { type: "error", message: WIZARD.failed, description: `${issue?.path.join(".")}: ${issue?.message}` }, 400);
  }
  try {
    await createTemplate(api, workflowId, body.data);
  } catch (error) {
    rethrowResponse(error);
    return failed({ state, step, errors: {} }, { type: "error", message: WIZARD.failed, description: WIZARD.tryLater }, statusOf(error));
  }
  return toasts(args.context).redirectWithSuccess(listPath(workflowId), WIZARD.created);
}
