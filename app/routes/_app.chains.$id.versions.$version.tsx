import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { VersionView } from "~/chains/versions/VersionView";
import chainVersionsStyles from "~/chains/versions/versions.css";
import { versionAction, versionLoader, type VersionReply } from "~/chains/versions/versions.server";
import versionsStyles from "~/workflows/versions/versions.css";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

/** /chains/{id}/versions/{draft|current|n}: a chain's version view (spec 3 §2.9, §4.2), beside the chain page. */
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.chain.name ?? "Chain"} · ${data?.view === "draft" ? "Draft" : `Version ${data?.view ?? ""}`} · Backoffice` }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: versionsStyles },
  { rel: "stylesheet", href: chainVersionsStyles },
];

export const loader = (args: LoaderFunctionArgs) => versionLoader(args);
export const action = (args: ActionFunctionArgs) => versionAction(args);

export default function ChainVersion() {
  return <VersionView data={useLoaderData<typeof loader>()} reply={useActionData<typeof action>() as VersionReply | undefined} />;
}
