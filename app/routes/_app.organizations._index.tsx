import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { listLoader, stampsOf } from "~/kit/resource-routes.server";
import { organizationColumns } from "~/organizations/OrganizationList";
import { organizations } from "~/organizations/organizations.server";
import { ORGANIZATIONS } from "~/organizations/texts";
import { ResourceList } from "~/ui/resource-list";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Organizations · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return listLoader(args, organizations, {
    row: (o, timeZone) => ({ id: o.id, name: o.name, ...stampsOf(o, timeZone) }),
  });
}

export default function Organizations() {
  const data = useLoaderData<typeof loader>();
  return <ResourceList data={data} texts={ORGANIZATIONS} columns={organizationColumns} createTo="/organizations/new" />;
}
