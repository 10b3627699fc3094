import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { OrganizationOption } from "@contract/organizations";
import { chainColumns, ChainFilters } from "~/chains/ChainList";
import { chainFiltersOf, chainListSource, chainLookups, chainRow } from "~/chains/chains.server";
import { CHAINS } from "~/chains/texts";
import { listLoader } from "~/kit/resource-routes.server";
import type { Api } from "~/lib/upstream.server";
import { NoMatch } from "~/ui/list";
import { ResourceList } from "~/ui/resource-list";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Prompts · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  const filters = chainFiltersOf(new URL(args.request.url));
  // The organizations name the rows' ids and offer the filter's choices: read once.
  let organizations: Promise<OrganizationOption[]> | null = null;
  const organizationsOf = (api: Api) => (organizations ??= chainLookups.organizations(api));
  return listLoader(args, chainListSource(filters), {
    row: chainRow,
    extra: async ({ api }) => new Map((await organizationsOf(api)).map((o) => [o.id, o.name])),
    more: async ({ api }) => {
      const [orgs, tags] = await Promise.all([organizationsOf(api), chainLookups.tags(api)]);
      return { filterOptions: { organizations: orgs, tags }, chosen: filters };
    },
  });
}

export default function Chains() {
  const data = useLoaderData<typeof loader>();
  const filtered = data.chosen.tags.length > 0 || data.chosen.organizations.length > 0;
  return (
    <ResourceList
      data={data}
      texts={CHAINS}
      columns={chainColumns}
      createTo="/chains/create"
      filters={<ChainFilters tags={data.filterOptions.tags} organizations={data.filterOptions.organizations} chosen={data.chosen} />}
      filtered={filtered ? <NoMatch showAll="?" /> : null}
    />
  );
}
