import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { TEAM_FILTERS } from "@contract/teams";
import { listLoader } from "~/kit/resource-routes.server";
import { TEAM_LIST_FILTERS, teamList, teamRow } from "~/teams/list.server";
import { teamColumns } from "~/teams/TeamList";
import { TEAMS } from "~/teams/texts";
import { ChoiceFilter, NoMatch } from "~/ui/list";
import { ResourceList } from "~/ui/resource-list";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Teams · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return listLoader(args, teamList, { row: teamRow, filters: TEAM_LIST_FILTERS });
}

export default function Teams() {
  const data = useLoaderData<typeof loader>();
  const show = data.filters.show[0];
  return (
    <ResourceList
      data={data}
      texts={TEAMS}
      columns={teamColumns(data.may.write)}
      createTo="/teams/new"
      filters={
        <ChoiceFilter legend={TEAMS.filter.legend} param="show" options={TEAM_FILTERS} labels={TEAMS.filter} chosen={data.filters.show} />
      }
      filtered={show === "assistants" ? <NoMatch showAll="?show=all" /> : null}
      clearSearch={`?show=${show}`}
    />
  );
}
