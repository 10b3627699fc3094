import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportLoader } from "~/backup/backup.server";

/** The template-storage backup archive, streamed from the upstream (administration.read). */
export async function loader(args: LoaderFunctionArgs) {
  return exportLoader(args);
}
