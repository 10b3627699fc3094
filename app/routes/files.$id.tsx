import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/auth/guard.server";
import { files } from "~/lib/files.server";
import { orNotFound } from "~/lib/resource.server";

/**
 * A file this user uploaded (e.g. the specification page's sample document), streamed back byte for byte. The
 * upstream keeps uploads per user: anyone else, or an expired upload, gets the not-found answer.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { api } = await requireUser(args);
  return orNotFound(files.download(api, args.params.id ?? ""));
}
