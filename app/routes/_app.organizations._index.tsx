import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { can } from "../../upstream/contract/permissions";
import { requireRoute } from "~/auth/guard.server";
import { formatDateTime } from "~/lib/format";
import { listQueryOf, loadPage } from "~/lib/list.server";
import { organizations } from "~/organizations/organizations.server";
import { ORGANIZATIONS } from "~/organizations/texts";
import { Icon } from "~/ui/icons";
import { DataTable, ListHeader, ListToolbar, Pagination, type Column } from "~/ui/list";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Organizations · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  const { api, identity, timeZone } = await requireRoute(args);
  const { query: q, setCookie } = await listQueryOf(args.request, args.context, "organizations");
  const page = await loadPage(q, (query) => organizations.list(api, query));
  return json(
    {
      q: q.q,
      sort: q.sort,
      page: page.page,
      pageSize: page.pageSize,
      total: page.total,
      rows: page.items.map((o) => ({
        id: o.id,
        name: o.name,
        createdAt: formatDateTime(o.createdAt, timeZone),
        createdBy: o.createdBy,
        updatedAt: formatDateTime(o.updatedAt, timeZone),
        updatedBy: o.updatedBy,
      })),
      canCreate: can(identity.permissions, "organizations"),
    },
    { headers: setCookie ? { "Set-Cookie": setCookie } : undefined },
  );
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>["rows"][number];
const C = ORGANIZATIONS.columns;

const stamp = (at: string, by: string | null) => (
  <>
    <span className="nowrap">{at}</span>
    {by ? <span className="muted small"> {ORGANIZATIONS.by(by)}</span> : null}
  </>
);

const columns: Column<Row>[] = [
  { header: C.name, cell: (o) => <Link to={`/organizations/${o.id}/edit`}>{o.name}</Link> },
  { header: C.createdAt, cell: (o) => stamp(o.createdAt, o.createdBy) },
  { header: C.updatedAt, cell: (o) => stamp(o.updatedAt, o.updatedBy) },
  {
    header: "Actions",
    className: "actions",
    cell: (o) => (
      <Link to={`/organizations/${o.id}/edit`} className="icon-button" aria-label={`Edit ${o.name}`} title="Edit">
        <Icon name="pencil" />
      </Link>
    ),
  },
];

export default function Organizations() {
  const data = useLoaderData<typeof loader>();
  return (
    <>
      <ListHeader
        title={ORGANIZATIONS.listTitle}
        total={ORGANIZATIONS.total(data.total)}
        action={
          data.canCreate ? (
            <Link to="/organizations/new" className="btn btn-primary">
              {ORGANIZATIONS.addNew}
            </Link>
          ) : null
        }
      />
      <ListToolbar q={data.q} sort={data.sort} searchLabel={ORGANIZATIONS.searchLabel} />
      <DataTable
        caption={ORGANIZATIONS.listTitle}
        columns={columns}
        rows={data.rows}
        rowKey={(o) => o.id}
        empty={
          data.q ? (
            <p>
              {ORGANIZATIONS.emptySearch(data.q)} <Link to="?">Clear the search</Link>
            </p>
          ) : (
            <p>{ORGANIZATIONS.empty}</p>
          )
        }
      />
      <Pagination page={data.page} pageSize={data.pageSize} total={data.total} />
    </>
  );
}
