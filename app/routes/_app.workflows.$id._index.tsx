import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { TemplatesPage } from "~/workflows/TemplatesPage";
import { templatesAction, templatesLoader } from "~/workflows/templates.server";
import styles from "~/workflows/workflows.css";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

/** /workflows/{id}: a workflow's milestone templates (spec 3 §2.3), the same page as /workflows/{id}/milestones. */
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.workflow.title ?? "Workflow"} · Backoffice` }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader(args: LoaderFunctionArgs) {
  return templatesLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  return templatesAction(args);
}

export default TemplatesPage;
