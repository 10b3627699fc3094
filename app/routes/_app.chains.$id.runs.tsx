import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { startRunAction } from "~/chains/run/runs.server";

/** Run (the whole chain, or one link by `index`): a post that lands on the run's page (app/chains/run). */
export const action = startRunAction;

export function loader(args: LoaderFunctionArgs) {
  return redirect(`/chains/${encodeURIComponent(args.params.id ?? "")}`);
}
