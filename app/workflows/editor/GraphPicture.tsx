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

/**
 * The picture's SVG as markup. A static image, so it is written as a string rather than as React elements: at 300
 * steps and 600 paths it is ~2,000 elements, which took the server's render as long as all the tables together and
 * the browser's hydration as long again, for markup that never changes on the page.
 */
function pictureSvg(steps: readonly Step[], paths: readonly Path[], id: string, marks: PictureMarks | undefined): string {
  const at = new Map(steps.map((s) => [s.id, s.display.position]));
  const xs = steps.map((s) => s.display.position.x);
  const ys = steps.map((s) => s.display.position.y);
  const minX = Math.min(...xs) - MARGIN;
  const minY = Math.min(...ys) - MARGIN;
  const width = Math.max(...xs) - minX + W + MARGIN;
  const height = Math.max(...ys) - minY + H + MARGIN;
  const a = escape(id);
  const out = [
    `<svg viewBox="${minX} ${minY} ${width} ${height}" role="img" aria-labelledby="${a}-caption" preserveAspectRatio="xMidYMin meet">`,
    `<defs><marker id="${a}-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">`,
    `<path d="M 0 0 L 10 5 L 0 10 z" class="graph-arrow"></path></marker></defs>`,
  ];
  paths.forEach((p, i) => {
    const from = at.get(p.from.step);
    const to = at.get(p.to.step);
    if (!from || !to) return;
    const points = [{ x: from.x + W, y: from.y + H / 2 }, ...p.display.pins, { x: to.x, y: to.y + H / 2 }];
    const mark = marks?.paths[i];
    out.push(`<polyline class="graph-edge${mark ? ` diff-${mark}` : ""}" points="${points.map((q) => `${q.x},${q.y}`).join(" ")}" marker-end="url(#${a}-arrow)"></polyline>`);
  });
  for (const s of steps) {
    const mark = marks?.steps[s.id];
    out.push(
      `<g transform="translate(${s.display.position.x} ${s.display.position.y})" class="graph-node graph-node-${escape(s.type)}${mark ? ` diff-${mark}` : ""}">`,
      `<rect width="${W}" height="${H}" rx="6"></rect><text x="8" y="19">${escape((s.title || s.id).slice(0, 22))}</text>`,
      `<text x="8" y="37" class="graph-node-type">${escape(STEP_TYPE_LABELS[s.type])}</text></g>`,
    );
  }
  out.push("</svg>");
  return out.join("");
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

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
  return (
    <figure className="graph-picture">
      <div className="graph-picture-image" dangerouslySetInnerHTML={{ __html: pictureSvg(steps, paths, id, marks) }} />
      <figcaption id={`${id}-caption`}>{caption}</figcaption>
    </figure>
  );
}
