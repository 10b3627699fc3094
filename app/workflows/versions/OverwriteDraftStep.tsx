/**
 * 'Overwrite draft?' (spec 3 §4.1, §8), the step a draft save answers when the draft moved on since the page was
 * loaded: who saved the newer draft and when, yes posting the same save again based on the version it was told
 * (`fields`), Cancel focused. Without JavaScript Cancel is a link back to the page; with it, Cancel only closes the
 * step, so an editor's unsaved document (a canvas) stays as it is. Any versioned document's editor can show it.
 */
import { Form, Link } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "~/ui/hydrated";
import type { OverwriteDraft } from "./drafts.server";
import { VERSIONS } from "./texts";

export function OverwriteDraftStep({ overwrite, intent, fields }: { overwrite: OverwriteDraft; intent: string; fields: Record<string, string> }) {
  const hydrated = useHydrated();
  const [dismissed, setDismissed] = useState(false);
  if (dismissed) return null;
  return (
    <section className="confirm-inline" role="alertdialog" aria-labelledby="overwrite-draft-title" aria-describedby="overwrite-draft-text">
      <h2 id="overwrite-draft-title">{VERSIONS.overwriteTitle}</h2>
      <p id="overwrite-draft-text">{VERSIONS.overwriteMessage(overwrite.author, overwrite.date)}</p>
      <Form method="post" className="confirm-actions">
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button type="submit" name="intent" value={intent} className="btn btn-danger">
          {VERSIONS.overwriteConfirm}
        </button>
        {/* Focus on the safe choice: Enter right after the step appears must not overwrite. */}
        {hydrated ? (
          <button type="button" className="btn btn-secondary" autoFocus onClick={() => setDismissed(true)}>
            {VERSIONS.cancel}
          </button>
        ) : (
          <Link to="." className="btn btn-secondary" autoFocus>
            {VERSIONS.cancel}
          </Link>
        )}
      </Form>
    </section>
  );
}
