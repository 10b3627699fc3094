/**
 * A connection drawn on the canvas (spec 3 §4.1): one to finish, nowhere or an AND step needs no editing; one to any
 * other step opens the connection editor at once; one from a task's `nowhere` port opens it on the form, since the
 * model refuses that port without one. Until the editor closes the connection is pending: saved, it and its edits are
 * one undo step; cancelled (or, from the nowhere port, left without a form) it goes, and the history is as before.
 */
import { NOWHERE_PORT, connectionNeedsEditing, type Graph } from "@contract/graph";
import type { GraphEdit } from "@contract/graph-edits";
import type { Path } from "@contract/milestone-templates";
import { record, type History } from "./history";
import { addPathEdit } from "./edits";

/** What a new connection opens: nothing, the connection editor, or the connection editor on its form. */
export type ConnectionEditor = "none" | "path" | "form";

export function editorForConnection(graph: Graph, to: string, port: string | undefined): ConnectionEditor {
  if (port === NOWHERE_PORT) return "form";
  return connectionNeedsEditing(graph, to) ? "path" : "none";
}

/**
 * The edit a new connection is: from the nowhere port it carries an empty form (no name, no properties) for its
 * editor to fill, which the model accepts and `hasForm` does not count as one.
 */
export function newConnectionEdit(from: string, to: string, port: string | undefined): GraphEdit {
  const edit = addPathEdit(from, to, port);
  if (port !== NOWHERE_PORT || edit.type !== "addPath") return edit;
  return { ...edit, path: { ...edit.path, from: { ...edit.path.from, action: { form: { name: "", properties: [] } } } } };
}

/** A path's form is defined when it has a name or a property. */
export const hasForm = (path: Pick<Path, "from"> | undefined) => {
  const form = path?.from.action.form;
  return !!form && (form.name.trim() !== "" || form.properties.length > 0);
};

/** The history before a pending connection, and what its editor's outcome makes of it. */
export type PendingConnection<T> = { before: History<T>; from: string; to: string; editor: Exclude<ConnectionEditor, "none"> };

/** Saved: the connection and its edits are one step after what came before. */
export const keepConnection = <T>(pending: PendingConnection<T>, next: T): History<T> => record(pending.before, next);
/** Cancelled or without its form: the history as it was before the connection, nothing to undo or redo of it. */
export const dropConnection = <T>(pending: PendingConnection<T>): History<T> => pending.before;
