import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { templateAction, templateCreateLoader } from "~/templates/kinds.server";
import { templateCreateScreen, templateMeta } from "~/templates/TemplateScreens";

/** New Visio templates: the template kinds' create screen (spec 2 §5), configured by kind. */
export { ErrorBoundary } from "~/templates/TemplateScreens";
export const meta = templateMeta("visio", "create");
export const loader = (args: LoaderFunctionArgs) => templateCreateLoader(args, "visio");
export const action = (args: ActionFunctionArgs) => templateAction(args, "visio");
export default templateCreateScreen("visio");
