import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { listLoader } from "~/kit/resource-routes.server";
import { reportColumns } from "~/reports/ReportList";
import { organizationOptions, reportRow, reports } from "~/reports/reports.server";
import { REPORTS } from "~/reports/texts";
import { ResourceList } from "~/ui/resource-list";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Reports · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return listLoader(args, reports, {
    row: reportRow,
    extra: async ({ api }) => new Map((await organizationOptions(api)).map((o) => [o.id, o.name])),
  });
}

export default function Reports() {
  const data = useLoaderData<typeof loader>();
  return <ResourceList data={data} texts={REPORTS} columns={reportColumns} createTo="/reports" />;
}
