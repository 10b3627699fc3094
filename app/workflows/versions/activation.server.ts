/**
 * The editor's state badge as the activation toggle (spec 3 §2.6 "ONLINE or OFFLINE (clickable)", §4.1): a
 * confirmation first ('Activate template' / 'Deactivate template'), then the template's activate or deactivate call,
 * back to the editor with "'{title}' activated" or "'{title}' deactivated". Drafts cannot be toggled (the upstream
 * refuses too). A toggle changes no content: it never makes the page's saves stale.
 */
import { json } from "@remix-run/node";
import { failed, failureToast, isConfirmed, statusOf } from "~/lib/actions.server";
import { textOf } from "~/lib/form.server";
import { TEMPLATES } from "../texts";
import { setTemplateActive } from "../workflows.server";
import type { DraftPost } from "./drafts.server";

export type ToggleReply = { ok: false; confirm?: "toggle"; toast?: unknown };

export async function togglePost(p: Pick<DraftPost, "api" | "form" | "template" | "editorUrl" | "flash"> & { workflowId: string }) {
  const to = textOf(p.form, "to");
  if (p.template.type !== "template" || (to !== "activate" && to !== "deactivate")) return json<ToggleReply>({ ok: false }, { status: 400 });
  if (!isConfirmed(p.form)) return json<ToggleReply>({ ok: false, confirm: "toggle" });
  try {
    const t = await setTemplateActive(p.api, p.workflowId, p.template.id, to === "activate");
    return p.flash.redirectWithSuccess(p.editorUrl, to === "activate" ? TEMPLATES.activated(t.title) : TEMPLATES.deactivated(t.title));
  } catch (error) {
    return failed<ToggleReply>({ ok: false }, failureToast(TEMPLATES.toggleFailed, error), statusOf(error));
  }
}
