import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdministrationPage } from "~/ai-admin/AdministrationPage";
import { administrationLoader } from "~/ai-admin/ai-admin.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Administration · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return administrationLoader(args);
}

export default function Administration() {
  const data = useLoaderData<typeof loader>();
  return <AdministrationPage {...data} />;
}
