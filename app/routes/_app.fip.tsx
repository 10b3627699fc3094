import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { FipDashboard } from "~/queues/FipDashboard";
import { fipAction, fipLoader } from "~/queues/queues.server";
import styles from "~/queues/queues.css";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "FIP dashboard · Backoffice" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const loader = (args: LoaderFunctionArgs) => fipLoader(args);
export const action = (args: ActionFunctionArgs) => fipAction(args);

export default function Fip() {
  return <FipDashboard />;
}
