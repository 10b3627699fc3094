import { Link } from "@remix-run/react";
import type { Column } from "~/ui/list";
import { editColumn } from "~/ui/resource-list";
import { SHAPES } from "./texts";

export type ShapeRow = { id: string; name: string; templateName: string; tags: string[]; modified: string; thumbnail: string };

const C = SHAPES.columns;
const editPath = (s: { id: string }): `/${string}` => `/shapes/${s.id}/edit`;

/** The shapes table (spec 2 §2: a list with thumbnails): the SVG drawn from the master, name, its template, tags. */
export const shapeColumns: Column<ShapeRow>[] = [
  {
    header: C.thumbnail,
    cell: (s) => <img src={s.thumbnail} alt={SHAPES.thumbnailAlt(s.name)} width={48} height={48} className="shape-thumb" loading="lazy" />,
  },
  { header: C.name, cell: (s) => <Link to={editPath(s)}>{s.name}</Link> },
  { header: C.template, cell: (s) => s.templateName },
  { header: C.tags, cell: (s) => s.tags.join(", ") },
  { header: C.modified, cell: (s) => <span className="nowrap">{s.modified}</span> },
  editColumn(editPath),
];
