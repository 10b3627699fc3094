/** The shared texts of form posts that are refused before any field is validated (app/lib/form.server.ts). */
export const FORM_TEXTS = {
  /** A body that cannot be parsed (the request guard refuses most such bodies before Remix sees them). */
  unreadable: "The form could not be read. Reload the page and try again.",
  /** A post that lacks fields its form always sends: not from that form (a stale or forged page). */
  incomplete: "The form is incomplete. Reload the page and try again.",
} as const;

/** Spec 2 §8's clone toasts. */
export const CLONE_TOASTS = { cloned: "Clone completed", cloneFailed: "Clone failed" } as const;

/** Defined in the contract (its own texts use them too); each screen's texts.ts spreads SAVE_TOASTS. */
export { SAVE_TOASTS, TRY_LATER } from "@contract/limits";
