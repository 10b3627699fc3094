import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { WorkflowExport } from "@contract/workflows";
import { requireWrite, type RouteAccess } from "~/auth/guard.server";
import { listLoader, stampsOf } from "~/kit/resource-routes.server";
import { failed, failureToast, intentOf, isConfirmed, reasonOf, statusOf } from "~/lib/actions.server";
import { readForm, textOf } from "~/lib/form.server";
import { isUpstreamError } from "~/lib/upstream.server";
import { toasts } from "~/lib/toast.server";
import { DIALOG_PARAMS, listAddress } from "./addresses";
import { importPost } from "./import.server";
import { CloneSchema } from "./schema";
import { WORKFLOWS } from "./texts";
import { cloneWorkflow, importWorkflow, makeDefault, referencesOf, workflows, type ReferenceChoice } from "./workflows.server";

const W = WORKFLOWS;

export type CloneDialog = { id: string; title: string; references: ReferenceChoice[] };

/** The clone dialog's data when `?clone=id` asks for it (and the user may clone); null when the workflow is gone. */
async function cloneDialogOf(url: URL, access: RouteAccess): Promise<CloneDialog | null> {
  const id = url.searchParams.get(DIALOG_PARAMS.clone);
  if (!id || !access.may.write) return null;
  try {
    const [workflow, references] = await Promise.all([workflows.get(access.api, id), referencesOf(access.api, id)]);
    return { id, title: workflow.title, references };
  } catch (error) {
    if (isUpstreamError(error, 404) || isUpstreamError(error, 400)) return null;
    throw error;
  }
}

/** /workflows: the kit's list (search, sort, page) plus what an open dialog shows. */
export async function workflowListLoader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  return listLoader(args, workflows, {
    row: (w, timeZone) => ({ id: w.id, name: w.title, clientCodes: w.clientCodes, isDefault: w.isDefault, ...stampsOf(w, timeZone) }),
    more: async (access) => ({
      clone: await cloneDialogOf(url, access),
      importOpen: access.may.write && url.searchParams.has(DIALOG_PARAMS.import),
    }),
  });
}

/**
 * The list's posts, behind `workflows` (route table): Make default and Delete, each with its confirmation step
 * (docs/decisions/confirmations-without-js.md); Clone and Import workflow from their dialogs, whose errors come back
 * with everything typed. Successes go back to the list with their toast; failures re-render it with the spec's toast.
 */
export async function workflowListAction(args: ActionFunctionArgs) {
  const { api } = await requireWrite(args);
  const form = await readForm(args.request);
  const back = listAddress(new URL(args.request.url).searchParams);
  const flash = toasts(args.context);
  const intent = intentOf(form);
  const id = textOf(form, "id");

  if (intent === "makeDefault" || intent === "delete") {
    if (!id) return json({ toast: null }, { status: 400 });
    if (!isConfirmed(form)) return json({ confirm: intent, id, toast: null });
    try {
      if (intent === "makeDefault") {
        const w = await makeDefault(api, id);
        return flash.redirectWithSuccess(back, W.makeDefault.done(w.title));
      }
      await workflows.remove(api, id);
      return flash.redirectWithSuccess(back, W.toasts.deleted);
    } catch (error) {
      // Delete: 'Delete failed' with the server's message (the default workflow's 409 says why) or the generic text.
      const toast =
        intent === "delete"
          ? { type: "error" as const, message: W.toasts.deleteFailed, description: reasonOf(error) }
          : failureToast(W.makeDefault.failed, error);
      return failed({ confirm: null, id }, toast, statusOf(error));
    }
  }

  if (intent === "clone") {
    const submission = parseWithZod(form, { schema: CloneSchema });
    if (submission.status !== "success") return json({ ...submission.reply(), toast: null }, { status: 400 });
    try {
      await cloneWorkflow(api, submission.value.id, submission.value);
    } catch (error) {
      return failed(submission.reply(), failureToast(W.toasts.cloneFailed, error), statusOf(error));
    }
    return flash.redirectWithSuccess(back, W.toasts.cloned);
  }

  if (intent === "import") {
    return importPost(form, {
      shape: WorkflowExport,
      required: W.import.required,
      send: (text) => importWorkflow(api, text),
      done: () => flash.redirectWithSuccess(back, W.import.successful),
    });
  }

  return json({ toast: null }, { status: 400 });
}
