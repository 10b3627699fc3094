import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { MilestonePage } from "~/workflows/milestones/MilestonePage";
import { milestoneAction, milestoneLoader } from "~/workflows/milestones/milestones.server";
import styles from "~/workflows/milestones/milestones.css";
import { MILESTONES } from "~/workflows/milestones/texts";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.milestone.title ?? MILESTONES.title} · ${MILESTONES.title} · Backoffice` },
];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const loader = (args: LoaderFunctionArgs) => milestoneLoader(args);
export const action = (args: ActionFunctionArgs) => milestoneAction(args);

export default function Milestone() {
  return <MilestonePage />;
}
