import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireRoute } from "~/auth/guard.server";
import { startRunAction } from "~/chains/run/runs.server";

/** Run (the whole chain, or one link by `index`): a post that lands on the run's page (app/chains/run). */
export const action = startRunAction;

/** A GET goes back to the chain, for a reader of chains only (others: the not-found view, as every guarded route). */
export async function loader(args: LoaderFunctionArgs) {
  await requireRoute(args);
  return redirect(`/chains/${encodeURIComponent(args.params.id ?? "")}`);
}
