import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { can } from "@contract/permissions";
import { notFound, requireUser } from "~/auth/guard.server";
import { suggestRecipients } from "~/messages/messages.server";

/** GET /messages/recipients?q= — recipient suggestions (people's e-mails, §9's variables) as JSON string[]. */
export async function loader(args: LoaderFunctionArgs) {
  const { api, identity } = await requireUser(args);
  if (!can(identity.permissions, "messages.read")) throw notFound();
  const q = (new URL(args.request.url).searchParams.get("q") ?? "").trim().slice(0, 200);
  return json(q ? await suggestRecipients(api, q) : [], { headers: { "Cache-Control": "private, max-age=10" } });
}
