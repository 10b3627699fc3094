import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import styles from "~/workflows/editor/editor.css";
import { ComparePage } from "~/workflows/versions/ComparePage";
import { compareLoader } from "~/workflows/versions/compare.server";
import versionsStyles from "~/workflows/versions/versions.css";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

/**
 * /workflows/{workflowId}/milestones/{milestoneId}/compare?to=draft|N: the current template compared with its draft
 * or revision N (spec 3 §2.6), a page of its own beside the editor.
 */
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.template.title ?? "Template"} · Compare · Backoffice` }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "stylesheet", href: versionsStyles },
];

export const loader = (args: LoaderFunctionArgs) => compareLoader(args);

export default function TemplateCompare() {
  return <ComparePage data={useLoaderData<typeof loader>()} />;
}
