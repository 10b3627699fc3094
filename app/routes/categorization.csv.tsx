import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { categorizationCsvAction, categorizationCsvLoader } from "~/categorization/page.server";

/**
 * /categorization/csv: a query's results as CSV, streamed from the upstream. POST the query JSON as `text` (the
 * editor's download CSV, as edited), or GET `?query=<id>` (a saved query).
 */
export async function action(args: ActionFunctionArgs) {
  return categorizationCsvAction(args);
}

export async function loader(args: LoaderFunctionArgs) {
  return categorizationCsvLoader(args);
}
