import { Link } from "@remix-run/react";
import { SPECIFICATION_TYPES, type SpecificationType } from "@contract/specifications";
import { ChoiceFilter, NO_VALUE, NoMatch, Stamp, tagsCell, type Column } from "~/ui/list";
import { editColumn } from "~/ui/resource-list";
import { SPECIFICATIONS } from "./texts";

export type SpecificationRow = {
  id: string;
  name: string;
  description: string;
  tags: string[];
  type: SpecificationType;
  updatedAt: string;
  updatedBy: string | null;
  createdBy: string | null;
};

const C = SPECIFICATIONS.columns;

/** The specifications table (spec 1 §2). */
export const specificationColumns: Column<SpecificationRow>[] = [
  { header: C.name, cell: (s) => <Link to={`/specifications/${s.id}`}>{s.name}</Link> },
  { header: C.description, cell: (s) => s.description || NO_VALUE },
  { header: C.tags, cell: (s) => tagsCell(s.tags) },
  { header: C.type, cell: (s) => SPECIFICATIONS.types[s.type] },
  { header: C.modified, cell: (s) => <Stamp at={s.updatedAt} by={s.updatedBy ?? s.createdBy} /> },
  editColumn((s) => `/specifications/${s.id}/edit`),
];

/** The type filter (spec 1 §2: all selected by default, remembered): inputs of the list's GET form. */
export function TypeFilter({ types }: { types: readonly string[] }) {
  return (
    <ChoiceFilter
      legend={SPECIFICATIONS.filterLegend}
      param="type"
      options={SPECIFICATION_TYPES}
      labels={SPECIFICATIONS.types}
      chosen={types}
      multiple
    />
  );
}

/** The empty state when the type filter hides every row; null when every type is shown. */
export function typeFilterNoMatch(types: readonly string[]) {
  if (types.length === SPECIFICATION_TYPES.length) return null;
  return <NoMatch showAll={`?filtered=1&${SPECIFICATION_TYPES.map((t) => `type=${t}`).join("&")}`} />;
}
