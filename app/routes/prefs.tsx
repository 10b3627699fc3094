import { json, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { safeRedirect } from "~/auth/session.server";
import { readPrefs, writePrefs } from "~/lib/prefs.server";
import { readForm } from "~/lib/form.server";

/**
 * Remembers the side panel's state (spec 1 §1) in the prefs cookie. A plain form post (no JavaScript) comes back to
 * `redirectTo`; a fetcher gets JSON.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const sidebar = form.get("sidebar");
  if (sidebar !== "expanded" && sidebar !== "collapsed") {
    return json({ message: "sidebar must be expanded or collapsed" }, { status: 400 });
  }
  const prefs = await readPrefs(request, context);
  const headers = { "Set-Cookie": await writePrefs({ ...prefs, sidebar }, context) };
  const to = form.get("redirectTo");
  return to ? redirect(safeRedirect(to), { headers }) : json({ ok: true }, { headers });
}

export async function loader() {
  return redirect("/");
}
