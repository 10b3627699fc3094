import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { contextAction, contextTabUrl } from "~/chains/context/context.server";

/** The Context tab's posts (app/chains/context); the tab itself is the chain page's `?tab=context`. */
export const action = contextAction;

export function loader(args: LoaderFunctionArgs) {
  return redirect(contextTabUrl(args.params.id ?? ""));
}
