import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { EditorPage } from "~/workflows/editor/EditorPage";
import { CanvasMount } from "~/workflows/editor/canvas/CanvasMount";
import { editorAction, editorLoader, type EditorReply } from "~/workflows/editor/editor.server";
import styles from "~/workflows/editor/editor.css";
import versionsStyles from "~/workflows/versions/versions.css";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";
export { shouldRevalidate } from "~/workflows/versions/versions";

/**
 * /workflows/{workflowId}/milestones/{milestoneId}: the template editor (spec 3 §2.6). The `milestones_` segment
 * keeps it out of the template list's layout: it is a page of its own, not a child rendered over the list.
 */
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.template.title ?? "Template"} · Backoffice` }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "stylesheet", href: versionsStyles },
];

export const loader = (args: LoaderFunctionArgs) => editorLoader(args);
export const action = (args: ActionFunctionArgs) => editorAction(args);

export default function TemplateEditor() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as EditorReply | undefined;
  return (
    <EditorPage
      data={data}
      reply={reply}
      canvas={(tables) => <CanvasMount fallback={tables} doc={data.doc} statistics={data.statistics} canWrite={data.may.write} />}
    />
  );
}
