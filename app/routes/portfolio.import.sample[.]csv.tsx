import type { LoaderFunctionArgs } from "@remix-run/node";
import { sampleLoader } from "~/portfolio/csv.server";

/** /portfolio/import/sample.csv: a file showing every column of the import. */
export async function loader(args: LoaderFunctionArgs) {
  return sampleLoader(args);
}
