/**
 * A template's draft from the editor (spec 3 §4.1): Save as draft (create or overwrite the template's draft, or save a
 * draft that is itself a new template in place), 'Overwrite draft?' when the draft is not the one the page was loaded
 * with, and Discard draft (a template's draft dropped, back to the template; a draft template deleted, back to the
 * workflow). Each is a form post, so it works without JavaScript; with JavaScript the canvas's document travels with
 * Save as draft as it does with Save (the `formdata` event, intent `save`), told apart by the form's `to=draft`.
 */
import { json } from "@remix-run/node";
import { MilestoneTemplate, type TemplateContent } from "@contract/milestone-templates";
import { VERSION_MESSAGES } from "@contract/versions";
import { failed, failureToast, isConfirmed, rethrowResponse, statusOf } from "~/lib/actions.server";
import { textOf } from "~/lib/form.server";
import { formatDateTime } from "~/lib/format";
import type { toasts } from "~/lib/toast.server";
import { isUpstreamError, type Api } from "~/lib/upstream.server";
import { VERSIONS } from "./texts";
import { authorName, sentDraftBase, sentVersions } from "./versions.server";

/** What the editor's action knows when a draft post reaches it. */
export type DraftPost = {
  api: Api;
  form: FormData;
  template: MilestoneTemplate;
  /** The upstream path of the template. */
  base: string;
  /** The document to keep: the canvas's (JavaScript) or the working one the server holds (the draft, or the template). */
  doc: TemplateContent;
  /** Whether the canvas sent its document: its page stays (a JSON answer), a no-JS page is sent back to the editor. */
  fromCanvas: boolean;
  editorUrl: string;
  workflowUrl: string;
  flash: ReturnType<typeof toasts>;
  timeZone: string;
};

/** The newer draft a Save as draft would overwrite: who saved it and when, and the version to send once confirmed. */
export type OverwriteDraft = { version: number; author: string; date: string };

/** What a draft post answers when it does not navigate away. */
export type DraftReply = {
  ok: boolean;
  message?: string;
  confirm?: "overwrite-draft" | "discard-draft";
  overwrite?: OverwriteDraft;
  /** The page keeps what it shows (the canvas's unsaved document): see versions.tsx `shouldRevalidate`. */
  stale?: boolean;
  toast?: unknown;
};

/** Whether the editor's post is Save as draft: intent `save` (the canvas adds its document) from the draft form. */
export const isDraftSave = (form: FormData) => textOf(form, "to") === "draft";

/** The draft there is now (a template's draft, or a draft template itself), for 'Overwrite draft?'. */
async function draftNow(p: DraftPost): Promise<MilestoneTemplate | null> {
  try {
    return await p.api.get(MilestoneTemplate, p.template.type === "draft" ? p.base : `${p.base}/draft`);
  } catch (error) {
    rethrowResponse(error);
    return null;
  }
}

/**
 * Save as draft: a template's draft created or overwritten (PUT …/draft), a draft template saved in place
 * (PUT …/draft/template), each based on the draft version the page was loaded with. A draft saved since by someone
 * (or in another tab) is not overwritten unseen: the answer asks 'Overwrite draft?' and carries the version to send
 * on yes, with who saved it and when.
 */
export async function saveDraftPost(p: DraftPost) {
  const { api, form, template, base } = p;
  // A draft template's token is its own write counter (the page's baseVersion); a template's draft, the draft's version.
  const baseVersion = template.type === "draft" ? sentVersions(form).base : sentDraftBase(form);
  const path = template.type === "draft" ? `${base}/draft/template` : `${base}/draft`;
  try {
    await api.put(MilestoneTemplate, path, { ...p.doc, ...(baseVersion !== undefined ? { baseVersion } : {}) });
  } catch (error) {
    rethrowResponse(error);
    if (isUpstreamError(error, 409) && error.message === VERSION_MESSAGES.overwriteDraft) {
      const now = await draftNow(p);
      if (now) {
        const overwrite: OverwriteDraft = {
          version: now.version ?? 0,
          author: authorName(now.updatedBy) ?? VERSIONS.unknownAuthor,
          date: formatDateTime(now.updatedAt, p.timeZone),
        };
        return json<DraftReply>({ ok: false, confirm: "overwrite-draft", overwrite, stale: true }, { status: 409 });
      }
    }
    const status = statusOf(error);
    return failed<DraftReply>({ ok: false, ...(status === 409 ? { stale: true } : {}) }, failureToast(VERSIONS.updateDraftFailed, error), status);
  }
  if (p.fromCanvas) return json<DraftReply>({ ok: true, toast: { type: "success", message: VERSIONS.draftSaved } });
  return p.flash.redirectWithSuccess(p.editorUrl, VERSIONS.draftSaved);
}

/**
 * Discard draft, after its confirmation: a template's draft dropped (based on the draft version the page showed: a
 * draft changed since is not dropped unseen), back to the template with 'Draft discarded'; a draft that is itself a
 * new template deleted, back to the workflow with 'Draft deleted' (§4.1).
 */
export async function discardDraftPost(p: DraftPost) {
  const { api, form, template, base } = p;
  if (!isConfirmed(form)) return json<DraftReply>({ ok: false, confirm: "discard-draft" });
  const standalone = template.type === "draft";
  const baseVersion = sentDraftBase(form);
  try {
    if (standalone) await api.send("DELETE", `${base}/draft/template`);
    else await api.send("DELETE", `${base}/draft/discard${baseVersion !== undefined ? `?baseVersion=${baseVersion}` : ""}`);
  } catch (error) {
    rethrowResponse(error);
    const changed = isUpstreamError(error, 409);
    const toast = changed ? { type: "error" as const, message: VERSIONS.deleteDraftFailed, description: VERSIONS.draftChanged } : failureToast(VERSIONS.deleteDraftFailed, error);
    return failed<DraftReply>({ ok: false, ...(changed ? { message: VERSIONS.draftChanged } : {}) }, toast, statusOf(error));
  }
  if (standalone) return p.flash.redirectWithSuccess(p.workflowUrl, VERSIONS.draftDeleted);
  return p.flash.redirectWithSuccess(p.editorUrl, VERSIONS.draftDiscarded);
}
