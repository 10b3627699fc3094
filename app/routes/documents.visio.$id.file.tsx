import type { LoaderFunctionArgs } from "@remix-run/node";
import { templateFileLoader } from "~/templates/kinds.server";

/** The visio template's file (a resource route: templates.read, streamed byte for byte; 404 without a file). */
export const loader = (args: LoaderFunctionArgs) => templateFileLoader(args, "visio");
