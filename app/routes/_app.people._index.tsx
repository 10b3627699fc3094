import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AppLink } from "~/ui/app-link";
import { loadPeopleList } from "~/people/list.server";
import { PEOPLE } from "~/people/texts";
import { Icon } from "~/ui/icons";
import { DataTable, ListHeader, ListToolbar, NO_VALUE, Pagination, Stamp, type Column } from "~/ui/list";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "People · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  const { data, setCookie } = await loadPeopleList(args);
  return json(data, { headers: setCookie ? { "Set-Cookie": setCookie } : undefined });
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>["rows"][number];

const C = PEOPLE.columns;
const columns: Column<Row>[] = [
  {
    header: C.email,
    // The wrapper only when there is an icon to keep beside the link (25 elements fewer on a page of people).
    cell: (u) =>
      u.isBot ? (
        <span className="cell-with-icon">
          <AppLink to={`/people/${u.id}`}>{u.email}</AppLink>
          <Icon name="bot" title={PEOPLE.botTitle} className="bot-icon" />
        </span>
      ) : (
        <AppLink to={`/people/${u.id}`}>{u.email}</AppLink>
      ),
  },
  // The upstream's name order is the full name's (then the email).
  { header: C.fullName, cell: (u) => u.fullName || NO_VALUE, sort: ["name"] },
  // From the portfolio authorization (pair-authorizator), matched by email.
  { header: C.registrationNumbers, cell: (u) => u.registrationNumbers.join("; ") || NO_VALUE },
  { header: C.customerNumbers, cell: (u) => u.customerNumbers.join("; ") || NO_VALUE },
  { header: C.createdAt, cell: (u) => <Stamp at={u.createdAt} by={u.createdBy} /> },
  { header: C.updatedAt, cell: (u) => <Stamp at={u.updatedAt} by={u.updatedBy} /> },
  {
    header: "Actions",
    className: "actions",
    cell: (u) => (
      <AppLink to={`/people/${u.id}`} className="icon-button" aria-label={`Edit ${u.email}`} title="Edit">
        <Icon name="pencil" />
      </AppLink>
    ),
  },
];

export default function People() {
  const data = useLoaderData<typeof loader>();
  return (
    <>
      <ListHeader
        title={PEOPLE.listTitle}
        total={PEOPLE.total(data.total)}
        action={
          data.canCreate ? (
            <Link to="/people/new" className="btn btn-primary">
              {PEOPLE.addNew}
            </Link>
          ) : null
        }
      />
      <ListToolbar q={data.q} sort={data.sort} searchLabel={PEOPLE.searchLabel} />
      <DataTable
        caption={PEOPLE.listTitle}
        columns={columns}
        rows={data.rows}
        rowKey={(u) => u.id}
        sort={data.sort}
        empty={
          data.q ? (
            <p>
              {PEOPLE.emptySearch(data.q)} <Link to="?">Clear the search</Link>
            </p>
          ) : (
            <p>{PEOPLE.empty}</p>
          )
        }
      />
      <Pagination page={data.page} pageSize={data.pageSize} total={data.total} />
    </>
  );
}
