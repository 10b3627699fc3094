/**
 * Undo and redo as a stack of whole documents. Every edit yields a new document (graph-edits' `applyEdit` is pure
 * and copies what it changes), so keeping the documents themselves costs only what changed, and undo can never
 * disagree with the edit that was applied: there is no inverse edit to get wrong.
 */
export type History<T> = {
  readonly past: readonly T[];
  readonly present: T;
  readonly future: readonly T[];
};

/** How many documents undo keeps; the oldest go first. */
export const HISTORY_LIMIT = 100;

export const historyOf = <T>(present: T): History<T> => ({ past: [], present, future: [] });

/** `next` becomes the present; what was undone is forgotten. The same document (a refused edit) records nothing. */
export function record<T>(history: History<T>, next: T, limit = HISTORY_LIMIT): History<T> {
  if (next === history.present) return history;
  const past = [...history.past, history.present];
  return { past: past.length > limit ? past.slice(past.length - limit) : past, present: next, future: [] };
}

export function undo<T>(history: History<T>): History<T> {
  const previous = history.past.at(-1);
  if (previous === undefined) return history;
  return { past: history.past.slice(0, -1), present: previous, future: [history.present, ...history.future] };
}

export function redo<T>(history: History<T>): History<T> {
  const [next, ...rest] = history.future;
  if (next === undefined) return history;
  return { past: [...history.past, history.present], present: next, future: rest };
}

export const canUndo = (history: History<unknown>) => history.past.length > 0;
export const canRedo = (history: History<unknown>) => history.future.length > 0;

/**
 * What the canvas does when the server answers a document (`next`, after any action: a save, the activation toggle,
 * a history menu): the loader answers a new object each time, so identity says nothing.
 * - `keep`: the same content as the last answer (a revalidation that changed nothing of the graph) — unsaved work
 *   stays, as it is;
 * - `saved`: the content the canvas shows (its own save came back) — the work is now saved, its undo kept;
 * - `reset`: other content (a discarded draft, a revision activated) — the canvas starts again from it.
 */
export function reconcile<T>(last: T, next: T, present: T): "keep" | "saved" | "reset" {
  if (next === last) return "keep";
  const text = JSON.stringify(next);
  if (text === JSON.stringify(last)) return "keep";
  return text === JSON.stringify(present) ? "saved" : "reset";
}
