import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { templateAction, templateEditLoader } from "~/templates/kinds.server";
import { templateEditScreen, templateMeta } from "~/templates/TemplateScreens";

/** Edit Drawings: the template kinds' edit screen (spec 2 §5), configured by kind. */
export { ErrorBoundary, shouldRevalidate } from "~/templates/TemplateScreens";
export const meta = templateMeta("drawing", "edit");
export const loader = (args: LoaderFunctionArgs) => templateEditLoader(args, "drawing");
export const action = (args: ActionFunctionArgs) => templateAction(args, "drawing");
export default templateEditScreen("drawing");
