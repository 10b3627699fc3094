import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { advancedExportAction, exportLoader } from "~/portfolio/csv.server";

/** /portfolio/csv: the portfolio's CSV export, streamed (GET: the simple search; POST: an advanced one). */
export async function loader(args: LoaderFunctionArgs) {
  return exportLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  return advancedExportAction(args);
}
