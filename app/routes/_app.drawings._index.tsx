import type { LoaderFunctionArgs } from "@remix-run/node";
import { templateListLoader } from "~/templates/kinds.server";
import { templateListScreen, templateMeta } from "~/templates/TemplateScreens";

/** Drawings: the template kinds' list screen (spec 2 §2), configured by kind. */
export { ErrorBoundary } from "~/templates/TemplateScreens";
export const meta = templateMeta("drawing", "list");
export const loader = (args: LoaderFunctionArgs) => templateListLoader(args, "drawing");
export default templateListScreen("drawing");
