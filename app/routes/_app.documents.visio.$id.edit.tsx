import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { templateAction, templateEditLoader } from "~/templates/kinds.server";
import { templateEditScreen, templateMeta } from "~/templates/TemplateScreens";

/** Edit Visio templates: the template kinds' edit screen (spec 2 §5), configured by kind. */
export { ErrorBoundary, shouldRevalidate } from "~/templates/TemplateScreens";
export const meta = templateMeta("visio", "edit");
export const loader = (args: LoaderFunctionArgs) => templateEditLoader(args, "visio");
export const action = (args: ActionFunctionArgs) => templateAction(args, "visio");
export default templateEditScreen("visio");
