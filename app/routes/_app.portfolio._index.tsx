import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { portfolioAction } from "~/portfolio/actions.server";
import { PortfolioPage } from "~/portfolio/PortfolioPage";
import { onlyViewChanged } from "~/portfolio/params";
import { portfolioLoader } from "~/portfolio/search.server";
import styles from "~/portfolio/portfolio.css";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction = () => [{ title: "Portfolio · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return portfolioLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  return portfolioAction(args);
}

/** Opening or closing a dialog, or 'show more', changes only what is shown: no new search. */
export const shouldRevalidate: ShouldRevalidateFunction = (args) =>
  onlyViewChanged(args) ? false : args.defaultShouldRevalidate;

export default function Portfolio() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return <PortfolioPage data={data} actionData={actionData} />;
}
