import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { templateAction, templateEditLoader } from "~/templates/kinds.server";
import { templateEditScreen, templateMeta } from "~/templates/TemplateScreens";

/** Edit Word templates: the template kinds' edit screen (spec 2 §5), configured by kind. */
export { ErrorBoundary, shouldRevalidate } from "~/templates/TemplateScreens";
export const meta = templateMeta("word", "edit");
export const loader = (args: LoaderFunctionArgs) => templateEditLoader(args, "word");
export const action = (args: ActionFunctionArgs) => templateAction(args, "word");
export default templateEditScreen("word");
