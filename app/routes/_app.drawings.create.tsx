import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { templateAction, templateCreateLoader } from "~/templates/kinds.server";
import { templateCreateScreen, templateMeta } from "~/templates/TemplateScreens";

/** New Drawings: the template kinds' create screen (spec 2 §5), configured by kind. */
export { ErrorBoundary } from "~/templates/TemplateScreens";
export const meta = templateMeta("drawing", "create");
export const loader = (args: LoaderFunctionArgs) => templateCreateLoader(args, "drawing");
export const action = (args: ActionFunctionArgs) => templateAction(args, "drawing");
export default templateCreateScreen("drawing");
