import { childNamed, childrenNamed, readXml, type XmlElement } from "../lib/xml";
import type { ZipArchive } from "../lib/zip";
import { MAX_PART_ELEMENTS } from "./office";

/**
 * Shapes come from the masters of Visio templates (docs/decisions/shapes.md): visio/masters/masters.xml lists them
 * (ID, NameU, Name and the relationship to masterN.xml); each master's geometry sections are drawn as an SVG
 * thumbnail. Only numbers from the file reach the SVG (never text or attributes): it cannot carry script.
 */
export type ExtractedMaster = { master: string; name: string; svg: string };

/** At most this many masters are read from one template (a large stencil has about a hundred). */
const MAX_MASTERS = 500;

const num = (cells: XmlElement[], name: string, fallback = 0): number => {
  const value = Number(cells.find((c) => c.attrs.N === name)?.attrs.V);
  return Number.isFinite(value) ? value : fallback;
};

type Point = [number, number];
type Drawing = { paths: { d: string; fill: boolean }[]; points: Point[] };

const f = (n: number) => (Math.round(n * 1000) / 1000).toString();

/** Draws one shape's geometry (and its sub-shapes') into `out`, offset by its position in its parent. */
function drawShape(shape: XmlElement, origin: Point, out: Drawing, depth: number): void {
  if (depth > 8) return;
  const cells = childrenNamed(shape, "Cell");
  const width = num(cells, "Width", 1);
  const height = num(cells, "Height", 1);
  const ox = origin[0] + num(cells, "PinX") - num(cells, "LocPinX");
  const oy = origin[1] + num(cells, "PinY") - num(cells, "LocPinY");
  const at = (x: number, y: number): Point => {
    const p: Point = [ox + x, oy + y];
    out.points.push(p);
    return p;
  };
  for (const section of childrenNamed(shape, "Section")) {
    if (section.attrs.N !== "Geometry") continue;
    const sectionCells = childrenNamed(section, "Cell");
    const noFill = num(sectionCells, "NoFill") === 1;
    if (num(sectionCells, "NoShow") === 1) continue;
    let d = "";
    let last: Point = [ox, oy];
    for (const row of childrenNamed(section, "Row")) {
      const rc = childrenNamed(row, "Cell");
      const type = row.attrs.T ?? "";
      const x = num(rc, "X");
      const y = num(rc, "Y");
      const rel = type.startsWith("Rel");
      const end = rel ? at(x * width, y * height) : at(x, y);
      switch (type) {
        case "MoveTo":
        case "RelMoveTo":
          d += `M${f(end[0])} ${f(-end[1])}`;
          break;
        case "ArcTo": {
          const bow = num(rc, "A");
          const chord = Math.hypot(end[0] - last[0], end[1] - last[1]);
          if (Math.abs(bow) < 1e-9 || chord < 1e-9) d += `L${f(end[0])} ${f(-end[1])}`;
          else {
            const r = (chord * chord) / 4 / (2 * Math.abs(bow)) + Math.abs(bow) / 2;
            // Y is flipped in SVG: a positive bow (counter-clockwise in Visio) becomes sweep 0.
            d += `A${f(r)} ${f(r)} 0 ${Math.abs(bow) > chord / 2 ? 1 : 0} ${bow > 0 ? 0 : 1} ${f(end[0])} ${f(-end[1])}`;
          }
          break;
        }
        case "EllipticalArcTo": {
          const control = at(num(rc, "A"), num(rc, "B"));
          const cx = 2 * control[0] - (last[0] + end[0]) / 2;
          const cy = 2 * control[1] - (last[1] + end[1]) / 2;
          d += `Q${f(cx)} ${f(-cy)} ${f(end[0])} ${f(-end[1])}`;
          break;
        }
        case "Ellipse": {
          const rx = Math.hypot(num(rc, "A") - x, num(rc, "B") - y);
          const ry = Math.hypot(num(rc, "C") - x, num(rc, "D") - y);
          at(x - rx, y - ry);
          at(x + rx, y + ry);
          const [cx, cy] = end;
          d += `M${f(cx - rx)} ${f(-cy)}A${f(rx)} ${f(ry)} 0 1 0 ${f(cx + rx)} ${f(-cy)}A${f(rx)} ${f(ry)} 0 1 0 ${f(cx - rx)} ${f(-cy)}Z`;
          break;
        }
        case "InfiniteLine":
        case "SplineStart":
          break;
        default:
          // LineTo, RelLineTo, PolylineTo, NURBSTo, SplineKnot, RelCubBezTo, RelQuadBezTo: to the end point.
          d += `L${f(end[0])} ${f(-end[1])}`;
      }
      last = end;
    }
    if (d) out.paths.push({ d, fill: !noFill });
  }
  for (const child of childrenNamed(childNamed(shape, "Shapes"), "Shape")) drawShape(child, [ox, oy], out, depth + 1);
}

/** A part's element tree; null when it is not well-formed or too large (a master then draws as the dashed box). */
const readPart = (xml: string) => readXml(xml, MAX_PART_ELEMENTS).catch(() => null);

const EMPTY_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96" width="96" height="96"><rect x="8" y="8" width="80" height="80" fill="none" stroke="#888" stroke-dasharray="6 4"/></svg>';

/**
 * The SVG thumbnail of one master's contents (its shapes' geometry, scaled into a 96 × 96 box); a dashed box when it
 * draws nothing or cannot be read.
 */
export async function masterSvg(xml: string): Promise<string> {
  const contents = await readPart(xml);
  const out: Drawing = { paths: [], points: [] };
  if (contents?.name === "MasterContents") {
    for (const shape of childrenNamed(childNamed(contents, "Shapes"), "Shape")) drawShape(shape, [0, 0], out, 0);
  }
  if (!out.paths.length || !out.points.length) return EMPTY_SVG;
  const xs = out.points.map((p) => p[0]);
  const ys = out.points.map((p) => -p[1]);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const w = Math.max(Math.max(...xs) - minX, 1e-3);
  const h = Math.max(Math.max(...ys) - minY, 1e-3);
  const pad = Math.max(w, h) * 0.06;
  const box = `${f(minX - pad)} ${f(minY - pad)} ${f(w + 2 * pad)} ${f(h + 2 * pad)}`;
  const paths = out.paths
    .map(
      (p) =>
        `<path d="${p.d}" fill="${p.fill ? "#dbe7f6" : "none"}" stroke="#1f4e8c" stroke-width="1.5" vector-effect="non-scaling-stroke"/>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${box}" width="96" height="96" preserveAspectRatio="xMidYMid meet">${paths}</svg>`;
}

/** The masters of a Visio package (template or drawing), each with its thumbnail; [] when it has none. */
export async function extractMasters(zip: ZipArchive): Promise<ExtractedMaster[]> {
  const mastersXml = await zip.readText("visio/masters/masters.xml");
  if (!mastersXml) return [];
  const rels = await zip.readText("visio/masters/_rels/masters.xml.rels");
  const targets = new Map<string, string>();
  const relationships = rels ? await readPart(rels) : null;
  for (const r of childrenNamed(relationships, "Relationship")) targets.set(r.attrs.Id ?? "", r.attrs.Target ?? "");
  const root = await readPart(mastersXml);
  const masters = (root?.name === "Masters" ? childrenNamed(root, "Master") : []).slice(0, MAX_MASTERS);
  const found: ExtractedMaster[] = [];
  for (const m of masters) {
    const master = (m.attrs.NameU ?? m.attrs.Name ?? m.attrs.ID ?? "").slice(0, 200);
    const name = (m.attrs.Name ?? master).slice(0, 200).trim() || master;
    const relId = childNamed(m, "Rel")?.attrs.id;
    const target = relId ? targets.get(relId) : undefined;
    // Targets are relative to visio/masters/; the zip reader answers null for a name it does not hold.
    const part = target ? `visio/masters/${target.replace(/^\.\//, "")}` : null;
    const contents = part && !part.includes("..") ? await zip.readText(part) : null;
    if (master) found.push({ master, name, svg: await masterSvg(contents ?? "") });
  }
  return found;
}
