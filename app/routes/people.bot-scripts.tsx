import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { can } from "@contract/permissions";
import { notFound, requireUser } from "~/auth/guard.server";
import { resolveBotChoices } from "~/people/bots.server";

/**
 * GET /people/bot-scripts?email=&script=&scriptKey=&preselect=1 — the bot fields' choices for that state, as JSON
 * (scripts, candidate, versions). Used by the people forms with JavaScript; needs users.read.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { api, identity, timeZone } = await requireUser(args);
  if (!can(identity.permissions, "users.read")) throw notFound();
  const p = new URL(args.request.url).searchParams;
  const choices = await resolveBotChoices(api, {
    isBot: true,
    email: p.get("email") ?? "",
    script: p.get("script") ?? "",
    scriptKey: p.get("scriptKey") ?? "",
    preselectFirst: p.get("preselect") === "1",
  }, timeZone);
  return json(choices, { headers: { "Cache-Control": "no-store" } });
}
