import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { can } from "@contract/permissions";
import { requireUser } from "~/auth/guard.server";
import { generator } from "~/specifications/specifications.server";

/** Tag suggestions for the specification form's tag input: `GET /specifications/suggest?q=` → JSON string[]. */
export async function loader(args: LoaderFunctionArgs) {
  const { api, identity } = await requireUser(args);
  if (!can(identity.permissions, "specifications.read")) return json([], { status: 404 });
  const q = (new URL(args.request.url).searchParams.get("q") ?? "").trim().slice(0, 200);
  if (!q) return json([]);
  try {
    return json(await generator.suggestTags(api, q), { headers: { "Cache-Control": "private, max-age=10" } });
  } catch {
    return json([]);
  }
}
