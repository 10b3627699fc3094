import { XMLParser } from "fast-xml-parser";
import type { ZipArchive } from "../lib/zip";

/**
 * Shapes come from the masters of Visio templates (docs/decisions/shapes.md): visio/masters/masters.xml lists them
 * (ID, NameU, Name and the relationship to masterN.xml); each master's geometry sections are drawn as an SVG
 * thumbnail. Only numbers from the file reach the SVG (never text or attributes): it cannot carry script.
 */
export type ExtractedMaster = { master: string; name: string; svg: string };

/** At most this many masters are read from one template (a large stencil has about a hundred). */
export const MAX_MASTERS = 500;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  removeNSPrefix: true,
  processEntities: false,
  isArray: (name) => ["Master", "Relationship", "Shape", "Section", "Row", "Cell"].includes(name),
});

type Xml = Record<string, unknown>;
type Cell = { "@_N"?: string; "@_V"?: string };
const list = (v: unknown): Xml[] => (Array.isArray(v) ? (v as Xml[]) : []);
const num = (cells: Xml[] | undefined, name: string, fallback = 0): number => {
  const cell = (cells ?? []).find((c) => (c as Cell)["@_N"] === name) as Cell | undefined;
  const value = Number(cell?.["@_V"]);
  return Number.isFinite(value) ? value : fallback;
};

type Point = [number, number];
type Drawing = { paths: { d: string; fill: boolean }[]; points: Point[] };

const f = (n: number) => (Math.round(n * 1000) / 1000).toString();

/** Draws one shape's geometry (and its sub-shapes') into `out`, offset by its position in its parent. */
function drawShape(shape: Xml, origin: Point, out: Drawing, depth: number): void {
  if (depth > 8) return;
  const cells = list(shape.Cell);
  const width = num(cells, "Width", 1);
  const height = num(cells, "Height", 1);
  const ox = origin[0] + num(cells, "PinX") - num(cells, "LocPinX");
  const oy = origin[1] + num(cells, "PinY") - num(cells, "LocPinY");
  const at = (x: number, y: number): Point => {
    const p: Point = [ox + x, oy + y];
    out.points.push(p);
    return p;
  };
  for (const section of list(shape.Section)) {
    if (section["@_N"] !== "Geometry") continue;
    const noFill = num(list(section.Cell), "NoFill") === 1;
    if (num(list(section.Cell), "NoShow") === 1) continue;
    let d = "";
    let last: Point = [ox, oy];
    for (const row of list(section.Row)) {
      const rc = list(row.Cell);
      const type = String(row["@_T"] ?? "");
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
  for (const child of list((shape.Shapes as Xml | undefined)?.Shape)) drawShape(child, [ox, oy], out, depth + 1);
}

/** The SVG thumbnail of one master's contents (its shapes' geometry, scaled into a 96 × 96 box). */
export function masterSvg(xml: string): string {
  const contents = (parser.parse(xml) as Xml).MasterContents as Xml | undefined;
  const out: Drawing = { paths: [], points: [] };
  for (const shape of list((contents?.Shapes as Xml | undefined)?.Shape)) drawShape(shape, [0, 0], out, 0);
  if (!out.paths.length || !out.points.length) {
    return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96" width="96" height="96"><rect x="8" y="8" width="80" height="80" fill="none" stroke="#888" stroke-dasharray="6 4"/></svg>';
  }
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
  if (rels) {
    const root = (parser.parse(rels) as Xml).Relationships as Xml | undefined;
    for (const r of list(root?.Relationship)) targets.set(String(r["@_Id"]), String(r["@_Target"]));
  }
  const masters = list(((parser.parse(mastersXml) as Xml).Masters as Xml | undefined)?.Master).slice(0, MAX_MASTERS);
  const found: ExtractedMaster[] = [];
  for (const m of masters) {
    const master = String(m["@_NameU"] ?? m["@_Name"] ?? m["@_ID"] ?? "").slice(0, 200);
    const name = String(m["@_Name"] ?? master).slice(0, 200).trim() || master;
    const relId = (m.Rel as Xml | undefined)?.["@_id"];
    const target = typeof relId === "string" ? targets.get(relId) : undefined;
    // Targets are relative to visio/masters/; the zip reader answers null for a name it does not hold.
    const part = target ? `visio/masters/${target.replace(/^\.\//, "")}` : null;
    const contents = part && !part.includes("..") ? await zip.readText(part) : null;
    let svg: string;
    try {
      svg = masterSvg(contents ?? "");
    } catch {
      svg = masterSvg("");
    }
    if (master) found.push({ master, name, svg });
  }
  return found;
}
