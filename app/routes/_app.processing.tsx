import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { QueueDashboard } from "~/queues/QueueDashboard";
import { queueAction, queueLoader } from "~/queues/queues.server";
import styles from "~/queues/queues.css";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Processing dashboard · Backoffice" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const loader = (args: LoaderFunctionArgs) => queueLoader(args, "processing");
export const action = (args: ActionFunctionArgs) => queueAction(args, "processing");

export default function Processing() {
  return <QueueDashboard />;
}
