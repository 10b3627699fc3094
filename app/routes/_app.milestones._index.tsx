import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { MilestoneList } from "~/workflows/milestones/MilestoneList";
import { milestonesLoader } from "~/workflows/milestones/milestones.server";
import styles from "~/workflows/milestones/milestones.css";
import { MILESTONES } from "~/workflows/milestones/texts";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: `${MILESTONES.title} · Backoffice` }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const loader = (args: LoaderFunctionArgs) => milestonesLoader(args);

export default function Milestones() {
  return <MilestoneList />;
}
