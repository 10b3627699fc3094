/**
 * The canvas's keyboard, as data: a key press (with its modifiers) names a command, apart from any screen, so the
 * bindings are tested without a browser and listed once for the hint under the canvas.
 */
export type Command =
  | { kind: "move"; dx: number; dy: number }
  | { kind: "edit" }
  | { kind: "connect" }
  | { kind: "delete" }
  | { kind: "undo" }
  | { kind: "redo" }
  | { kind: "copy" }
  | { kind: "paste" }
  | { kind: "selectAll" }
  | { kind: "deselect" };

/** An arrow moves the focused step by a grid step; with Shift, by five. */
export const MOVE_STEP = 10;
export const MOVE_STEP_LARGE = 50;

export type KeyPress = { key: string; ctrlKey?: boolean; metaKey?: boolean; shiftKey?: boolean; altKey?: boolean };

const ARROWS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

export function commandOf(press: KeyPress): Command | null {
  const mod = !!(press.ctrlKey || press.metaKey);
  if (press.altKey) return null;
  const key = press.key.length === 1 ? press.key.toLowerCase() : press.key;
  if (mod) {
    if (key === "z") return press.shiftKey ? { kind: "redo" } : { kind: "undo" };
    if (key === "y") return { kind: "redo" };
    if (key === "c") return { kind: "copy" };
    if (key === "v") return { kind: "paste" };
    if (key === "a") return { kind: "selectAll" };
    return null;
  }
  const arrow = ARROWS[key];
  if (arrow) {
    const by = press.shiftKey ? MOVE_STEP_LARGE : MOVE_STEP;
    return { kind: "move", dx: arrow[0] * by, dy: arrow[1] * by };
  }
  if (press.shiftKey) return null;
  if (key === "Enter") return { kind: "edit" };
  if (key === "c") return { kind: "connect" };
  if (key === "Delete" || key === "Backspace") return { kind: "delete" };
  if (key === "Escape") return { kind: "deselect" };
  return null;
}
