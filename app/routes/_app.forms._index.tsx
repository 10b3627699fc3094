import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { formsListLoader } from "~/forms/forms.server";
import { formColumns } from "~/forms/FormList";
import { FORMS } from "~/forms/texts";
import { ResourceList } from "~/ui/resource-list";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Forms · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return formsListLoader(args);
}

export default function Forms() {
  const data = useLoaderData<typeof loader>();
  return <ResourceList data={data} texts={FORMS} columns={formColumns} createTo="/forms/create" />;
}
