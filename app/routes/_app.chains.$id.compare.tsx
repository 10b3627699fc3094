import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ChainCompare } from "~/chains/versions/ChainCompare";
import { compareLoader } from "~/chains/versions/versions.server";
import versionsStyles from "~/workflows/versions/versions.css";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

/** /chains/{id}/compare?to=draft|N: the active version compared with the draft or version N (spec 3 §2.9). */
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.chain.name ?? "Chain"} · Compare · Backoffice` }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: versionsStyles }];

export const loader = (args: LoaderFunctionArgs) => compareLoader(args);

export default function ChainComparePage() {
  return <ChainCompare data={useLoaderData<typeof loader>()} />;
}
