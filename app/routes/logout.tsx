import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { getSessionStorage, readSession, revokeSession } from "~/auth/session.server";

/**
 * Log out is a POST: it revokes the session upstream (so a copied cookie stops working; a failure there is ignored),
 * ends the cookie session and reloads onto the sign-in screen.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { session, token } = await readSession(request, context);
  if (token) await revokeSession(context, token);
  return redirect("/login", { headers: { "Set-Cookie": await getSessionStorage(context).destroySession(session) } });
}

export async function loader() {
  return redirect("/");
}
