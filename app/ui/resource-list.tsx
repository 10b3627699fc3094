import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import type { Sort } from "../../upstream/contract/common";
import { Icon } from "./icons";
import { DataTable, ListHeader, ListToolbar, Pagination, type Column } from "./list";

/** What the resource kit's list loader answers (lib/resource-routes.server `listLoader`), as the page receives it. */
export type ListData<Row> = {
  q: string;
  sort: Sort;
  page: number;
  pageSize: number;
  total: number;
  rows: Row[];
  may: { create: boolean };
};

/** The texts of a list screen (each domain's texts module has them). */
export type ListTexts = {
  listTitle: string;
  addNew: string;
  searchLabel: string;
  empty: string;
  emptySearch: (q: string) => string;
  total: (n: number) => string;
};

/** The pencil link of a row's Actions column. */
export const editColumn = <Row extends { id: string; name: string }>(href: (row: Row) => string): Column<Row> => ({
  header: "Actions",
  className: "actions",
  cell: (row) => (
    <Link to={href(row)} className="icon-button" aria-label={`Edit ${row.name}`} title="Edit">
      <Icon name="pencil" />
    </Link>
  ),
});

/**
 * A list screen: title and total, "+ add new" (with `may.create`), search and sort (plus `filters`, inputs of the same
 * GET form), the table, its empty states and the pagination.
 */
export function ResourceList<Row extends { id: string }>({
  data,
  texts,
  columns,
  createTo,
  filters,
  filtered,
  clearSearch = "?",
}: {
  data: ListData<Row>;
  texts: ListTexts;
  columns: Column<Row>[];
  createTo: string;
  filters?: ReactNode;
  /** The empty state when a filter (not the search) hides every row (`<NoMatch …/>`); null when nothing is filtered. */
  filtered?: ReactNode;
  /** "Clear the search" (default `?`): a filter the URL alone carries stays (`?show=all`). */
  clearSearch?: string;
}) {
  return (
    <>
      <ListHeader
        title={texts.listTitle}
        total={texts.total(data.total)}
        action={
          data.may.create ? (
            <Link to={createTo} className="btn btn-primary">
              {texts.addNew}
            </Link>
          ) : null
        }
      />
      <ListToolbar q={data.q} sort={data.sort} searchLabel={texts.searchLabel}>
        {filters}
      </ListToolbar>
      <DataTable
        caption={texts.listTitle}
        columns={columns}
        rows={data.rows}
        rowKey={(row) => row.id}
        empty={
          data.q ? (
            <p>
              {texts.emptySearch(data.q)} <Link to={clearSearch}>Clear the search</Link>
            </p>
          ) : (
            (filtered ?? <p>{texts.empty}</p>)
          )
        }
      />
      <Pagination page={data.page} pageSize={data.pageSize} total={data.total} />
    </>
  );
}
