import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ConfigScreen } from "~/queues/ConfigScreen";
import { configAction, configLoader } from "~/queues/queues.server";
import styles from "~/queues/queues.css";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "USPTO configuration · Backoffice" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const loader = (args: LoaderFunctionArgs) => configLoader(args);
export const action = (args: ActionFunctionArgs) => configAction(args);

export default function UsptoConfiguration() {
  return <ConfigScreen />;
}
