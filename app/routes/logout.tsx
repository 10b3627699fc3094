import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { getSessionStorage } from "~/auth/session.server";

/** Log out is a POST: it ends the session and reloads onto the sign-in screen. */
export async function action({ request, context }: ActionFunctionArgs) {
  const storage = getSessionStorage(context);
  const session = await storage.getSession(request.headers.get("Cookie"));
  return redirect("/login", { headers: { "Set-Cookie": await storage.destroySession(session) } });
}

export async function loader() {
  return redirect("/");
}
