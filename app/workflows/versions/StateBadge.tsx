/**
 * The editor's state badge (spec 3 §2.6): DRAFT, or ONLINE / OFFLINE — for a writer a button that toggles the
 * template's activation after its confirmation (§4.1 'Activate template' / 'Deactivate template'), as the template
 * list's Activate / Suspend does. A revision's label is the preview page's badge (RevisionPreview).
 */
import { ConfirmAction } from "~/ui/confirm";
import type { EditorBadge } from "../editor/editor.server";
import { EDITOR } from "../editor/texts";
import { TEMPLATES } from "../texts";
import { VERSIONS } from "./texts";

/** The badge as text (inside the page's heading): a draft's, a reader's, or the toggle's place before it hydrates. */
export function BadgeText({ badge }: { badge: EditorBadge }) {
  return <span className={`badge badge-${badge}`}>{EDITOR.badge[badge]}</span>;
}

/** ONLINE / OFFLINE as the activation toggle, for a writer (rendered beside the heading: a form cannot sit in it). */
export function BadgeToggle({ badge, title, confirming }: { badge: EditorBadge; title: string; confirming: boolean }) {
  if (badge === "draft") return null;
  const active = badge === "online";
  const texts = active ? TEMPLATES.confirmDeactivate : TEMPLATES.confirmActivate;
  const action = active ? TEMPLATES.suspend : TEMPLATES.activate;
  return (
    <ConfirmAction
      id="badge-toggle"
      intent="toggle"
      label={EDITOR.badge[badge]}
      title={texts.title}
      message={texts.message(title)}
      confirmLabel={texts.confirm}
      confirming={confirming}
      danger={false}
      fields={{ to: active ? "deactivate" : "activate" }}
      ariaLabel={VERSIONS.toggleBadge(EDITOR.badge[badge], action)}
      buttonClassName={`badge badge-${badge} badge-toggle`}
    />
  );
}
