import { Link } from "@remix-run/react";
import { ChoiceFilter, NO_VALUE, Stamp, tagsCell, type Column } from "~/ui/list";
import { editColumn } from "~/ui/resource-list";
import { CHAINS } from "./texts";

/** A chain as its row shows it (chains.server `chainRow`). */
export type ChainListRow = {
  id: string;
  name: string;
  description: string;
  tags: string[];
  organizations: string[];
  generic: boolean;
  updatedAt: string;
  updatedBy: string | null;
};

const C = CHAINS.columns;

/** The Prompts table (spec 3 §2.8). */
export const chainColumns: Column<ChainListRow>[] = [
  { header: C.name, cell: (c) => <Link to={`/chains/${c.id}`}>{c.name}</Link> },
  { header: C.description, cell: (c) => c.description || NO_VALUE },
  { header: C.tags, cell: (c) => tagsCell(c.tags) },
  { header: C.organizations, cell: (c) => (c.organizations.length ? c.organizations.join(", ") : NO_VALUE) },
  { header: C.generic, cell: (c) => (c.generic ? CHAINS.yes : CHAINS.no) },
  { header: C.modified, cell: (c) => <Stamp at={c.updatedAt} by={c.updatedBy} /> },
  editColumn((c) => `/chains/${c.id}/edit`),
];

/**
 * The tag and organization filters (spec 3 §2.8: a chain passes with any chosen tag, and with any chosen
 * organization): checkboxes of the list's GET form, carried in the URL (`tag=…&organization=…`).
 */
export function ChainFilters({
  tags,
  organizations,
  chosen,
}: {
  tags: readonly string[];
  organizations: readonly { id: string; name: string }[];
  chosen: { tags: readonly string[]; organizations: readonly string[] };
}) {
  return (
    <div className="chain-filters">
      {tags.length ? (
        <div role="group" aria-labelledby="chain-filter-tags">
          <span id="chain-filter-tags" className="muted small">
            {CHAINS.filters.tags}
          </span>
          <ChoiceFilter legend={CHAINS.filters.tags} param="tag" options={tags} labels={Object.fromEntries(tags.map((t) => [t, t]))} chosen={chosen.tags} multiple />
        </div>
      ) : null}
      {organizations.length ? (
        <div role="group" aria-labelledby="chain-filter-organizations">
          <span id="chain-filter-organizations" className="muted small">
            {CHAINS.filters.organizations}
          </span>
          <ChoiceFilter
            legend={CHAINS.filters.organizations}
            param="organization"
            options={organizations.map((o) => o.id)}
            labels={Object.fromEntries(organizations.map((o) => [o.id, o.name]))}
            chosen={chosen.organizations}
            multiple
          />
        </div>
      ) : null}
    </div>
  );
}
