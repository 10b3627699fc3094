import type { LoaderFunctionArgs } from "@remix-run/node";
import { categorizationSuggestLoader } from "~/categorization/page.server";

/** /categorization/suggest?q=: tag suggestions for the query's tags (JSON string[]). */
export async function loader(args: LoaderFunctionArgs) {
  return categorizationSuggestLoader(args);
}
