import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportDownload } from "~/chains/toolbar/transfer.server";

/** /chains/{id}/export/download?of=current|draft|n: a chain template's JSON as a file (spec 3 §2.9 export), prompts.read. */
export const loader = (args: LoaderFunctionArgs) => exportDownload(args);
