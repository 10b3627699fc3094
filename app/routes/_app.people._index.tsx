import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ListQuery } from "../../upstream/contract/common";
import { can } from "../../upstream/contract/permissions";
import { requireRoute } from "~/auth/guard.server";
import { formatDateTime } from "~/lib/format";
import { resolveSort } from "~/lib/prefs.server";
import { fullName } from "~/people/names";
import { users } from "~/people/users.server";
import { PEOPLE } from "~/people/texts";
import { Icon } from "~/ui/icons";
import { DataTable, ListHeader, ListToolbar, Pagination, type Column } from "~/ui/list";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "People · Backoffice" }];

const PAGE_SIZE = 25;

export async function loader(args: LoaderFunctionArgs) {
  const { api, identity, timeZone } = await requireRoute(args);
  const url = new URL(args.request.url);
  const { sort, setCookie } = await resolveSort(args.request, args.context, "people");
  const query = ListQuery.safeParse({
    q: url.searchParams.get("q") ?? undefined,
    page: url.searchParams.get("page") ?? undefined,
    sort,
    pageSize: PAGE_SIZE,
  });
  const q = query.success ? query.data : ListQuery.parse({ sort, pageSize: PAGE_SIZE });
  const page = await users.list(api, q);
  return json(
    {
      q: q.q,
      sort: q.sort,
      page: page.page,
      pageSize: page.pageSize,
      total: page.total,
      rows: page.items.map((u) => ({
        id: u.id,
        email: u.email,
        fullName: fullName(u),
        isBot: u.isBot,
        createdAt: formatDateTime(u.createdAt, timeZone),
        updatedAt: formatDateTime(u.updatedAt, timeZone),
      })),
      canCreate: can(identity.permissions, "users"),
    },
    { headers: setCookie ? { "Set-Cookie": setCookie } : undefined },
  );
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>["rows"][number];

const C = PEOPLE.columns;
const columns: Column<Row>[] = [
  {
    header: C.email,
    cell: (u) => (
      <span className="cell-with-icon">
        <Link to={`/people/${u.id}`}>{u.email}</Link>
        {u.isBot ? <Icon name="bot" title={PEOPLE.botTitle} className="bot-icon" /> : null}
      </span>
    ),
  },
  { header: C.fullName, cell: (u) => u.fullName || "—" },
  // Filled from the portfolio authorization (pair-authorizator) once that screen lands.
  { header: C.registrationNumbers, cell: () => "—" },
  { header: C.customerNumbers, cell: () => "—" },
  { header: C.createdAt, cell: (u) => u.createdAt, className: "nowrap" },
  { header: C.updatedAt, cell: (u) => u.updatedAt, className: "nowrap" },
  {
    header: "Actions",
    className: "actions",
    cell: (u) => (
      <Link to={`/people/${u.id}`} className="icon-button" aria-label={`Edit ${u.email}`} title="Edit">
        <Icon name="pencil" />
      </Link>
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
