import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { TEAM_FILTERS } from "../../upstream/contract/teams";
import { loadTeamList } from "~/teams/list.server";
import { TEAMS } from "~/teams/texts";
import { Icon } from "~/ui/icons";
import { DataTable, ListHeader, ListToolbar, NoMatch, Pagination, Stamp, type Column } from "~/ui/list";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Teams · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  const { data, setCookie } = await loadTeamList(args);
  return json(data, { headers: setCookie ? { "Set-Cookie": setCookie } : undefined });
}

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Row = Data["rows"][number];
const C = TEAMS.columns;

function columnsFor(canWrite: boolean): Column<Row>[] {
  return [
    {
      header: C.name,
      cell: (t) => <Link to={`/teams/${t.id}`}>{t.name}</Link>,
    },
    {
      header: C.members,
      cell: (t) =>
        t.members.length === 0 ? (
          "—"
        ) : (
          <span className="team-members">
            {t.members.join(", ")}
            {t.more > 0 ? <span className="muted"> {TEAMS.more(t.more)}</span> : null}
          </span>
        ),
    },
    { header: C.createdAt, cell: (t) => <Stamp at={t.createdAt} by={t.createdBy} /> },
    { header: C.updatedAt, cell: (t) => <Stamp at={t.updatedAt} by={t.updatedBy} /> },
    ...(canWrite
      ? [
          {
            header: "Actions",
            className: "actions",
            cell: (t: Row) => (
              <Link to={`/teams/${t.id}`} className="icon-button" aria-label={`Edit ${t.name}`} title="Edit">
                <Icon name="pencil" />
              </Link>
            ),
          },
        ]
      : []),
  ];
}

export default function Teams() {
  const data = useLoaderData<typeof loader>();
  return (
    <>
      <ListHeader
        title={TEAMS.listTitle}
        total={TEAMS.total(data.total)}
        action={
          data.canWrite ? (
            <Link to="/teams/new" className="btn btn-primary">
              {TEAMS.addNew}
            </Link>
          ) : null
        }
      />
      <ListToolbar q={data.q} sort={data.sort} searchLabel={TEAMS.searchLabel}>
        <fieldset className="segmented" key={data.show}>
          <legend className="visually-hidden">{TEAMS.filter.legend}</legend>
          {TEAM_FILTERS.map((f) => (
            <label key={f}>
              <input
                type="radio"
                name="show"
                value={f}
                defaultChecked={data.show === f}
                onChange={(e) => e.currentTarget.form?.requestSubmit()}
              />
              {TEAMS.filter[f]}
            </label>
          ))}
        </fieldset>
      </ListToolbar>
      <DataTable
        caption={TEAMS.listTitle}
        columns={columnsFor(data.canWrite)}
        rows={data.rows}
        rowKey={(t) => t.id}
        empty={
          data.q ? (
            <p>
              {TEAMS.emptySearch(data.q)} <Link to={`?show=${data.show}`}>Clear the search</Link>
            </p>
          ) : data.show === "assistants" ? (
            <NoMatch showAll="?show=all" />
          ) : (
            <p>{TEAMS.empty}</p>
          )
        }
      />
      <Pagination page={data.page} pageSize={data.pageSize} total={data.total} />
    </>
  );
}
