import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ApplicationPage } from "~/portfolio/ApplicationPage";
import { applicationLoader } from "~/portfolio/detail.server";
import styles from "~/portfolio/portfolio.css";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.application.id ?? "Application"} · Portfolio · Backoffice` },
];

export async function loader(args: LoaderFunctionArgs) {
  return applicationLoader(args);
}

export default function Application() {
  return <ApplicationPage data={useLoaderData<typeof loader>()} />;
}
