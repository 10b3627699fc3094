import { Form, Link, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { Sort } from "@contract/common";
import { AppLink } from "./app-link";
import { Icon } from "./icons";
import { DataTable, ListHeader, ListToolbar, Pagination, type Column } from "./list";

/** What the resource kit's list loader answers (kit/resource-routes.server `listLoader`), as the page receives it. */
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
export const editColumn = <Row extends { id: string; name: string }>(href: (row: Row) => `/${string}`): Column<Row> => ({
  header: "Actions",
  className: "actions",
  cell: (row) => (
    <AppLink to={href(row)} className="icon-button" aria-label={`Edit ${row.name}`} title="Edit">
      <Icon name="pencil" />
    </AppLink>
  ),
});

/** The Clone button of a row (a POST form: `intent=clone`, `id`; the list's action is the kit's `cloneAction`). */
function CloneButton({ id, name, label = "Clone" }: { id: string; name: string; label?: string }) {
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formData?.get("id") === id;
  return (
    <Form method="post" className="inline-form">
      <input type="hidden" name="id" value={id} />
      <button type="submit" name="intent" value="clone" className="btn btn-secondary btn-small" aria-label={`${label} ${name}`} disabled={pending}>
        {pending ? `${label}…` : label}
      </button>
    </Form>
  );
}

/** A row's Actions column with Clone (when `canClone`) and the edit pencil (spec 2 §2: "Clone and Edit actions"). */
export const cloneEditColumn = <Row extends { id: string; name: string }>(
  href: (row: Row) => `/${string}`,
  canClone: boolean,
): Column<Row> => ({
  header: "Actions",
  className: "actions",
  cell: (row) => (
    <span className="row-actions">
      {canClone ? <CloneButton id={row.id} name={row.name} /> : null}
      <AppLink to={href(row)} className="icon-button" aria-label={`Edit ${row.name}`} title="Edit">
        <Icon name="pencil" />
      </AppLink>
    </span>
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
  actions,
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
  /** More buttons of the header, before "+ add new" (an Import). */
  actions?: ReactNode;
}) {
  const create = data.may.create ? (
    <Link to={createTo} className="btn btn-primary">
      {texts.addNew}
    </Link>
  ) : null;
  return (
    <>
      <ListHeader
        title={texts.listTitle}
        total={texts.total(data.total)}
        action={
          actions ? (
            <div className="header-actions">
              {actions}
              {create}
            </div>
          ) : (
            create
          )
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
        sort={data.sort}
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
