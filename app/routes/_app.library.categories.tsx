import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { requireRoute } from "~/auth/guard.server";
import { libraryApi } from "~/library/library.server";
import { categoryNodes, pickCategories } from "~/library/state";

/**
 * The item settings' category picker with JavaScript: the categories whose path holds `q` (empty, or 3 characters or
 * more), at most 50 (spec 3 §5, §9). Without JavaScript the page itself answers the same pick (`?pick=`).
 */
export async function loader(args: LoaderFunctionArgs) {
  const { api } = await requireRoute(args);
  const q = (new URL(args.request.url).searchParams.get("q") ?? "").trim().slice(0, 200);
  return json(pickCategories(categoryNodes(await libraryApi.categories(api)), q), { headers: { "Cache-Control": "no-store" } });
}
