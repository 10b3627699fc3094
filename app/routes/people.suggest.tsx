import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { can } from "@contract/permissions";
import { notFound, requireUser } from "~/auth/guard.server";
import { teams } from "~/teams/teams.server";

/** GET /people/suggest?q= — user emails for the Assistants tag input (JSON string[]); [] for empty text. */
export async function loader(args: LoaderFunctionArgs) {
  const { api, identity } = await requireUser(args);
  if (!can(identity.permissions, "users.read")) throw notFound();
  const q = (new URL(args.request.url).searchParams.get("q") ?? "").trim();
  return json(q ? await teams.suggestUsers(api, q) : [], { headers: { "Cache-Control": "no-store" } });
}
