import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireRoute } from "~/auth/guard.server";
import { contextAction, contextTabUrl } from "~/chains/context/context.server";

/** The Context tab's posts (app/chains/context); the tab itself is the chain page's `?tab=context`. */
export const action = contextAction;

/** A GET goes back to the chain, for a reader of chains only (others: the not-found view, as every guarded route). */
export async function loader(args: LoaderFunctionArgs) {
  await requireRoute(args);
  return redirect(contextTabUrl(args.params.id ?? ""));
}
