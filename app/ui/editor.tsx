import type { SubmissionResult } from "@conform-to/react";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { ConfirmAction } from "./confirm";

/**
 * The browser side of the resource kit's editor action (kit/resource-routes.server `editorAction`): what its answers
 * mean to the page.
 */

/** conform's reply in an action's answer (a failed validation or upstream call), unless a new post is under way. */
export function lastResultOf(data: unknown, pending = false): SubmissionResult<string[]> | undefined {
  // A list intent's reply (Add/Remove row without JavaScript) has no status, only the form's new initialValue.
  if (pending || !data || typeof data !== "object" || !("status" in data || "initialValue" in data)) return undefined;
  return data as SubmissionResult<string[]>;
}

/** The action answered with the inline confirmation step of `intent` (no JavaScript). */
export function isConfirming(data: unknown, intent = "delete"): boolean {
  return !!data && typeof data === "object" && "confirm" in data && data.confirm === intent;
}

/**
 * Keeps the page as it is after a save that found the record gone (deleted by someone else meanwhile): reloading it
 * would replace the form, and what the user typed, with the not-found view. Export it as the route's
 * `shouldRevalidate`.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) => {
  if (actionResult && typeof actionResult === "object" && "gone" in actionResult && actionResult.gone) return false;
  return defaultShouldRevalidate;
};

/** The texts of a record's Delete with confirmation (each domain's texts module has them). */
export type DeleteTexts = {
  delete: string;
  confirmDelete: { title: string; message: (name: string) => string; confirm: string };
};

/** The Delete button of an edit screen, with its confirmation step (dialog, or inline without JavaScript). */
export function DeleteZone({
  label,
  name,
  texts,
  actionData,
}: {
  /** The region's name: "Delete organization". */
  label: string;
  /** The record's name, in the confirmation's message. */
  name: string;
  texts: DeleteTexts;
  actionData: unknown;
}) {
  return (
    <section className="danger-zone" aria-label={label}>
      <ConfirmAction
        intent="delete"
        label={texts.delete}
        title={texts.confirmDelete.title}
        message={texts.confirmDelete.message(name)}
        confirmLabel={texts.confirmDelete.confirm}
        confirming={isConfirming(actionData)}
      />
    </section>
  );
}
