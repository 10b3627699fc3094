/** The shared texts of form posts that are refused before any field is validated (app/lib/form.server.ts). */
export const FORM_TEXTS = {
  /** A body that cannot be parsed (the request guard refuses most such bodies before Remix sees them). */
  unreadable: "The form could not be read. Reload the page and try again.",
  /** A post that lacks fields its form always sends: not from that form (a stale or forged page). */
  incomplete: "The form is incomplete. Reload the page and try again.",
} as const;

/** Spec 2 §8's toasts of a collection's create, update and delete (each screen's texts.ts spreads them). */
export const SAVE_TOASTS = {
  created: "Create completed",
  updated: "Update completed",
  deleted: "Delete completed",
  createFailed: "Create failed",
  updateFailed: "Update failed",
  deleteFailed: "Delete failed",
} as const;

/** Spec 2 §8's clone toasts. */
export const CLONE_TOASTS = { cloned: "Clone completed", cloneFailed: "Clone failed" } as const;

/** "Please, try again later or contact our development team." — added to most failure toasts (spec 1 §8). */
export const TRY_LATER = "Please, try again later or contact our development team.";
