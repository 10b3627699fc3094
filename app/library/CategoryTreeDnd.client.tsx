import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragMoveEvent,
  type DragOverEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
  type UniqueIdentifier,
} from "@dnd-kit/core";
import { SortableContext, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from "react";
import { LIBRARY } from "./texts";
import { isNoMove, projectMove, withoutDescendants, type Projection, type TreeRow } from "./tree-move";

/** One level of the tree, in pixels: the rows' indentation, and the horizontal move that nests a dragged row one deeper. */
const INDENT = 20;

export type CategoryTreeDndProps = {
  rows: readonly TreeRow[];
  /** The row's own content (its link, Edit, the forms while edited). */
  renderRow: (row: TreeRow) => ReactNode;
  /** Saves a drop: the category's new parent and place among its siblings (undefined: last). */
  onMove: (id: string, parentId: string | null, order: number | undefined) => void;
  /** Called once mounted: the server-rendered tree then steps aside. */
  onReady: () => void;
};

/**
 * Arrow keys while a category is lifted: up and down go to the row above or below the one it is over (`target` says
 * which, so that the keyboard's collision is that row whatever the rows' heights: a row being edited is taller);
 * right and left nest it one level deeper or take it one level out. The horizontal offset is kept across rows.
 */
function keyboardCoordinates(target: { current: UniqueIdentifier | null }): KeyboardCoordinateGetter {
  return (event, { currentCoordinates: at, context }) => {
    const { collisionRect, droppableRects, droppableContainers, over } = context;
    if (event.code === "ArrowRight" || event.code === "ArrowLeft") {
      event.preventDefault();
      return { x: at.x + (event.code === "ArrowRight" ? INDENT : -INDENT), y: at.y };
    }
    if (event.code !== "ArrowDown" && event.code !== "ArrowUp") return undefined;
    event.preventDefault();
    const from = target.current ?? over?.id;
    const current = from === undefined ? undefined : droppableRects.get(from);
    if (!collisionRect || !current) return undefined;
    const rows = droppableContainers
      .getEnabled()
      .flatMap((c) => {
        const rect = droppableRects.get(c.id);
        return rect ? [{ id: c.id, rect }] : [];
      })
      .sort((a, b) => a.rect.top - b.rect.top);
    const next =
      event.code === "ArrowDown"
        ? rows.find((r) => r.rect.top > current.top)
        : [...rows].reverse().find((r) => r.rect.top < current.top);
    if (!next) return undefined;
    target.current = next.id;
    // Its centre on the row's centre, for the picture; the collision is `target`.
    return { x: at.x, y: at.y + (next.rect.top + next.rect.height / 2) - (collisionRect.top + collisionRect.height / 2) };
  };
}

/**
 * The category tree with JavaScript, for writers: a flat list in tree order, each row indented by its depth, dragged by
 * its handle with the pointer or the keyboard (space lifts, arrows move, space drops, Escape cancels), each move
 * announced in words. A drop posts the same move as the no-JavaScript forms.
 */
export default function CategoryTreeDnd({ rows, renderRow, onMove, onReady }: CategoryTreeDndProps) {
  useEffect(onReady, [onReady]);
  const [activeId, setActiveId] = useState<string | null>(null);
  const [overId, setOverId] = useState<string | null>(null);
  const [offset, setOffset] = useState(0);
  // The announcements read the latest drag state, which dnd-kit reports before it asks for them.
  const drag = useRef({ offset: 0 });
  const lastSaid = useRef("");
  const dropSaid = useRef("");
  // The row the keyboard has moved it over (null: where it started); a pointer drag finds the nearest row instead.
  const keyboardTarget = useRef<UniqueIdentifier | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: useMemo(() => keyboardCoordinates(keyboardTarget), []) }),
  );
  const collisions: CollisionDetection = (args) =>
    args.pointerCoordinates ? closestCenter(args) : [{ id: keyboardTarget.current ?? args.active.id }];
  const shown = useMemo(() => (activeId ? withoutDescendants(rows, activeId) : [...rows]), [rows, activeId]);
  const byId = useMemo(() => new Map(rows.map((r) => [r.id, r])), [rows]);
  const depthChange = (x: number) => Math.round(x / INDENT);
  const projected = activeId && overId ? projectMove(rows, activeId, overId, depthChange(offset)) : null;

  const where = (p: Projection) => {
    const parent = p.parentId ? byId.get(p.parentId) : null;
    return LIBRARY.dnd.where(parent ? parent.path : null, p.position, p.of);
  };
  const projectionOf = (active: UniqueIdentifier, over: UniqueIdentifier | undefined) =>
    over === undefined ? null : projectMove(rows, String(active), String(over), depthChange(drag.current.offset));
  const nameOf = (id: UniqueIdentifier) => byId.get(String(id))?.path ?? String(id);
  const movement = (active: UniqueIdentifier, over: UniqueIdentifier | undefined): string | undefined => {
    const p = projectionOf(active, over);
    if (!p) return undefined;
    const said = LIBRARY.dnd.over(nameOf(active), where(p));
    if (said === lastSaid.current) return undefined;
    lastSaid.current = said;
    return said;
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      // Where it already is goes unsaid: the first report of its place would talk over "Picked up".
      const p = projectMove(rows, String(active.id), String(active.id), 0);
      lastSaid.current = p ? LIBRARY.dnd.over(nameOf(active.id), where(p)) : "";
      return LIBRARY.dnd.picked(nameOf(active.id));
    },
    onDragMove: ({ active, over }) => movement(active.id, over?.id),
    onDragOver: ({ active, over }) => movement(active.id, over?.id),
    // What the drop did, as onDragEnd (called first, in the same update) decided it: the drag state may be gone by now.
    onDragEnd: ({ active }) => dropSaid.current || LIBRARY.dnd.unchanged(nameOf(active.id)),
    onDragCancel: ({ active }) => LIBRARY.dnd.cancelled(nameOf(active.id)),
  };

  const reset = () => {
    setActiveId(null);
    setOverId(null);
    setOffset(0);
  };
  // The ref is zeroed when a drag starts, not when it ends: the drop's announcement, asked for after onDragEnd, reads it.
  const onDragStart = ({ active }: DragStartEvent) => {
    drag.current.offset = 0;
    keyboardTarget.current = null;
    setActiveId(String(active.id));
    setOverId(String(active.id));
  };
  const onDragMove = ({ delta }: DragMoveEvent) => {
    drag.current.offset = delta.x;
    setOffset(delta.x);
  };
  const onDragOver = ({ over }: DragOverEvent) => setOverId(over ? String(over.id) : null);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const row = byId.get(String(active.id));
    const p = over ? projectMove(rows, String(active.id), String(over.id), depthChange(drag.current.offset)) : null;
    const moves = row && p && !isNoMove(row, p);
    dropSaid.current = moves ? LIBRARY.dnd.dropped(nameOf(active.id), where(p)) : LIBRARY.dnd.unchanged(nameOf(active.id));
    reset();
    if (moves) onMove(row.id, p.parentId, p.order);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collisions}
      accessibility={{ announcements, screenReaderInstructions: { draggable: LIBRARY.dnd.instructions } }}
      onDragStart={onDragStart}
      onDragMove={onDragMove}
      onDragOver={onDragOver}
      onDragEnd={onDragEnd}
      onDragCancel={reset}
    >
      <SortableContext items={shown.map((r) => r.id)} strategy={verticalListSortingStrategy}>
        <ul className="library-tree library-tree-dnd">
          {shown.map((r) => (
            <SortableRow
              key={r.id}
              row={r}
              depth={r.id === activeId && projected ? projected.depth : r.depth}
              dragging={r.id === activeId}
            >
              {renderRow(r)}
            </SortableRow>
          ))}
        </ul>
      </SortableContext>
    </DndContext>
  );
}

function SortableRow({ row, depth, dragging, children }: { row: TreeRow; depth: number; dragging: boolean; children: ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition } = useSortable({ id: row.id });
  const style: CSSProperties = {
    // Only vertical: the row's depth shows the nesting a horizontal move makes.
    transform: transform ? `translate3d(0, ${Math.round(transform.y)}px, 0)` : undefined,
    transition,
    paddingLeft: `${depth * INDENT}px`,
  };
  return (
    <li ref={setNodeRef} style={style} className={dragging ? "library-tree-row is-dragging" : "library-tree-row"}>
      <button
        type="button"
        ref={setActivatorNodeRef}
        className="library-drag-handle"
        {...attributes}
        {...listeners}
        aria-label={LIBRARY.dnd.handle(row.path)}
      >
        <span aria-hidden="true">⠿</span>
      </button>
      {children}
    </li>
  );
}
