import type { LoaderFunctionArgs } from "@remix-run/node";
import { templateListLoader } from "~/templates/kinds.server";
import { templateListScreen, templateMeta } from "~/templates/TemplateScreens";

/** Word templates: the template kinds' list screen (spec 2 §2), configured by kind. */
export { ErrorBoundary } from "~/templates/TemplateScreens";
export const meta = templateMeta("word", "list");
export const loader = (args: LoaderFunctionArgs) => templateListLoader(args, "word");
export default templateListScreen("word");
