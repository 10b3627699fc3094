import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { CategorizationPage } from "~/categorization/CategorizationPage";
import { categorizationAction, categorizationLoader, type ActionAnswer } from "~/categorization/page.server";
import styles from "~/categorization/categorization.css";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction = () => [{ title: "Categorization · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return categorizationLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  return categorizationAction(args);
}

/** Saving the panel size, or running the query, changes nothing the loader reads: no reload. */
export const shouldRevalidate: ShouldRevalidateFunction = (args) => {
  const intent = args.formData?.get("intent");
  if (intent === "layout" || intent === "run" || (args.formData && !intent && args.formData.has("from"))) return false;
  return args.defaultShouldRevalidate;
};

export default function Categorization() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return <CategorizationPage data={data} actionData={(actionData ?? undefined) as ActionAnswer | undefined} />;
}
