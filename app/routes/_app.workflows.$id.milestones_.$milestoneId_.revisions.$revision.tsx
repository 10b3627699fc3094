import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import styles from "~/workflows/editor/editor.css";
import { RevisionPreview } from "~/workflows/versions/RevisionPreview";
import { revisionAction, revisionLoader, type RevisionReply } from "~/workflows/versions/templates.server";
import versionsStyles from "~/workflows/versions/versions.css";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

/**
 * /workflows/{workflowId}/milestones/{milestoneId}/revisions/{n}: a revision's read-only preview (spec 3 §2.6), a page
 * of its own beside the editor (the `$milestoneId_` segment keeps it out of the editor's layout).
 */
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.template.title ?? "Template"} · Revision ${data?.revision ?? ""} · Backoffice` }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "stylesheet", href: versionsStyles },
];

export const loader = (args: LoaderFunctionArgs) => revisionLoader(args);
export const action = (args: ActionFunctionArgs) => revisionAction(args);

export default function TemplateRevision() {
  return <RevisionPreview data={useLoaderData<typeof loader>()} reply={useActionData<typeof action>() as RevisionReply | undefined} />;
}
