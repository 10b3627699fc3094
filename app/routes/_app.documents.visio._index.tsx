import type { LoaderFunctionArgs } from "@remix-run/node";
import { templateListLoader } from "~/templates/kinds.server";
import { templateListScreen, templateMeta } from "~/templates/TemplateScreens";

/** Visio templates: the template kinds' list screen (spec 2 §2), configured by kind. */
export { ErrorBoundary } from "~/templates/TemplateScreens";
export const meta = templateMeta("visio", "list");
export const loader = (args: LoaderFunctionArgs) => templateListLoader(args, "visio");
export default templateListScreen("visio");
