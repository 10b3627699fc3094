import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { listLoader } from "~/kit/resource-routes.server";
import { SPECIFICATION_FILTERS, specificationRow, specifications } from "~/specifications/specifications.server";
import { specificationColumns, TypeFilter, typeFilterNoMatch } from "~/specifications/SpecificationList";
import { SPECIFICATIONS } from "~/specifications/texts";
import { ResourceList } from "~/ui/resource-list";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Specifications · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return listLoader(args, specifications, { row: specificationRow, filters: SPECIFICATION_FILTERS });
}

export default function Specifications() {
  const data = useLoaderData<typeof loader>();
  return (
    <ResourceList
      data={data}
      texts={SPECIFICATIONS}
      columns={specificationColumns}
      createTo="/specifications/create"
      filters={<TypeFilter types={data.filters.types} />}
      filtered={typeFilterNoMatch(data.filters.types)}
    />
  );
}
