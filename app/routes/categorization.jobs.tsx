import type { LoaderFunctionArgs } from "@remix-run/node";
import { categorizationJobsLoader } from "~/categorization/page.server";

/** /categorization/jobs?query=: the progress of a query's jobs (JSON), polled by the page. */
export async function loader(args: LoaderFunctionArgs) {
  return categorizationJobsLoader(args);
}
