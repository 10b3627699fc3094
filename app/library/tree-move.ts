/**
 * Where a dragged category lands in the tree as the page shows it (a flat list in pre-order, each row with its depth).
 * Pure, so the drag-and-drop tree, its announcements and the tests share one answer.
 *
 * The row is placed where it is dropped in the list; its depth is its own plus the horizontal move (in indentation
 * steps: right arrow, or a pointer moved right), kept between what the rows around it allow: at most one deeper than
 * the row above (becoming its last child or a sibling of its children), at least as deep as the row below (which must
 * keep its parent).
 */

export type TreeRow = {
  id: string;
  name: string;
  path: string;
  parentId: string | null;
  depth: number;
  /** Its place among its siblings (0 first). */
  order: number;
  /** Its number of children, and whether they are all shown (its branch is open). */
  children: number;
  open: boolean;
};

export type Projection = {
  depth: number;
  parentId: string | null;
  /**
   * Its place among its new siblings, not counting itself (0 first), or undefined for last: under a category whose
   * children are not shown, the only place the page can name is after them.
   */
  order: number | undefined;
  /** Its place and number of siblings as the page shows them (for the announcement: "position 2 of 3"). */
  position: number;
  of: number;
};

/** The rows without the descendants of `id` (they travel with it and are hidden while it is dragged). */
export function withoutDescendants(rows: readonly TreeRow[], id: string): TreeRow[] {
  const at = rows.findIndex((r) => r.id === id);
  if (at < 0) return [...rows];
  let end = at + 1;
  while (end < rows.length && rows[end]!.depth > rows[at]!.depth) end++;
  return [...rows.slice(0, at + 1), ...rows.slice(end)];
}

/** `list` with the item at `from` moved to `to`. */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  if (item !== undefined) copy.splice(to, 0, item);
  return copy;
}

/**
 * Where `activeId` lands when dropped over `overId` with `depthChange` indentation steps to the right (negative: left).
 * Null when either row is not in the list.
 */
export function projectMove(rows: readonly TreeRow[], activeId: string, overId: string, depthChange: number): Projection | null {
  const list = withoutDescendants(rows, activeId);
  const from = list.findIndex((r) => r.id === activeId);
  const to = list.findIndex((r) => r.id === overId);
  if (from < 0 || to < 0) return null;
  const active = list[from]!;
  const after = moved(list, from, to);
  const above = after[to - 1];
  const below = after[to + 1];
  const most = above ? above.depth + 1 : 0;
  const least = below ? below.depth : 0;
  const depth = Math.max(least, Math.min(most, active.depth + depthChange));
  // The parent: the nearest row above at one level less.
  let parentAt = -1;
  if (depth > 0) for (let i = to - 1; i >= 0; i--) if (after[i]!.depth === depth - 1) { parentAt = i; break; }
  const parent = parentAt >= 0 ? after[parentAt]! : null;
  // Siblings before it: the rows at its depth between its parent and it; and after it, until the branch ends.
  let before = 0;
  for (let i = parentAt + 1; i < to; i++) if (after[i]!.depth === depth) before++;
  let later = 0;
  for (let i = to + 1; i < after.length && after[i]!.depth >= depth; i++) if (after[i]!.depth === depth) later++;
  // Under a category whose children are hidden, this row is its only shown child: it goes after the hidden ones.
  const hidden = parent !== null && parent.id === above?.id && parent.children > 0 && !parent.open;
  return {
    depth,
    parentId: parent?.id ?? null,
    order: hidden ? undefined : before,
    position: hidden ? parent.children + 1 : before + 1,
    of: hidden ? parent.children + 1 : before + later + 1,
  };
}

/** Whether the projection changes nothing (same parent, same place). */
export function isNoMove(row: TreeRow, p: Projection): boolean {
  return p.parentId === row.parentId && p.order === row.order;
}
