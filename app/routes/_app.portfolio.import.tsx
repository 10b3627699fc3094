import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { importAction, importLoader } from "~/portfolio/import.server";
import { ImportPage } from "~/portfolio/ImportPage";
import styles from "~/portfolio/portfolio.css";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction = () => [{ title: "Upload CSV · Portfolio · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return importLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  return importAction(args);
}

export default function PortfolioImport() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return <ImportPage data={data} actionData={actionData} />;
}
