/**
 * A picture of the graph from its saved layout (step positions and path pins), drawn on the server as SVG: beside
 * the table editor, so that a user without JavaScript sees the shape of what the tables list. Read-only; the tables
 * are its text equivalent.
 */
import type { Path, Step } from "@contract/milestone-templates";
import { STEP_TYPE_LABELS } from "./canvas/texts";
import { EDITOR } from "./texts";

/** What a compare view marks on a picture: steps by id, and paths by their place in `paths`, added or removed. */
export type PictureMarks = { steps: Record<string, "added" | "removed">; paths: readonly ("added" | "removed" | null)[] };

const W = 160;
const H = 48;
const MARGIN = 24;

export function GraphPicture({
  steps,
  paths,
  id = "graph-picture",
  caption = EDITOR.picture,
  marks,
}: {
  steps: readonly Step[];
  paths: readonly Path[];
  /** Unique on the page: the compare page shows two pictures. */
  id?: string;
  caption?: string;
  marks?: PictureMarks;
}) {
  if (!steps.length) return <p className="empty-state">{EDITOR.pictureEmpty}</p>;
  const at = new Map(steps.map((s) => [s.id, s.display.position]));
  const xs = steps.map((s) => s.display.position.x);
  const ys = steps.map((s) => s.display.position.y);
  const minX = Math.min(...xs) - MARGIN;
  const minY = Math.min(...ys) - MARGIN;
  const width = Math.max(...xs) - minX + W + MARGIN;
  const height = Math.max(...ys) - minY + H + MARGIN;
  return (
    <figure className="graph-picture">
      <svg viewBox={`${minX} ${minY} ${width} ${height}`} role="img" aria-labelledby={`${id}-caption`} preserveAspectRatio="xMidYMin meet">
        <defs>
          <marker id={`${id}-arrow`} viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" className="graph-arrow" />
          </marker>
        </defs>
        {paths.map((p, i) => {
          const a = at.get(p.from.step);
          const b = at.get(p.to.step);
          if (!a || !b) return null;
          const points = [{ x: a.x + W, y: a.y + H / 2 }, ...p.display.pins, { x: b.x, y: b.y + H / 2 }];
          const mark = marks?.paths[i];
          return (
            <polyline
              key={`${p.from.step}->${p.to.step}`}
              className={`graph-edge${mark ? ` diff-${mark}` : ""}`}
              points={points.map((q) => `${q.x},${q.y}`).join(" ")}
              markerEnd={`url(#${id}-arrow)`}
            />
          );
        })}
        {steps.map((s) => (
          <g key={s.id} transform={`translate(${s.display.position.x} ${s.display.position.y})`} className={`graph-node graph-node-${s.type}${marks?.steps[s.id] ? ` diff-${marks.steps[s.id]}` : ""}`}>
            <rect width={W} height={H} rx={6} />
            <text x={8} y={19}>
              {(s.title || s.id).slice(0, 22)}
            </text>
            <text x={8} y={37} className="graph-node-type">
              {STEP_TYPE_LABELS[s.type]}
            </text>
          </g>
        ))}
      </svg>
      <figcaption id={`${id}-caption`}>{caption}</figcaption>
    </figure>
  );
}
