import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportLoader } from "~/portfolio/csv.server";

/** /portfolio/csv: the portfolio's CSV export of the search in the URL, streamed. */
export async function loader(args: LoaderFunctionArgs) {
  return exportLoader(args);
}
