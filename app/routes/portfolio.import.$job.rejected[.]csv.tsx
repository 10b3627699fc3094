import type { LoaderFunctionArgs } from "@remix-run/node";
import { rejectedLoader } from "~/portfolio/csv.server";

/** /portfolio/import/{job}/rejected.csv: the rejected rows of an import (line, reason). */
export async function loader(args: LoaderFunctionArgs) {
  return rejectedLoader(args);
}
