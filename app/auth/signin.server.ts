import { json, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { AuthorizationError } from "remix-auth";
import { getAuthenticator, getSessionStorage, safeRedirect, SignInError } from "./session.server";
import { SIGN_IN } from "./texts";

/** The sign-in form's action: the remix-auth form strategy, then the session cookie; a failure keeps the email. */
export async function signIn({ request, context }: ActionFunctionArgs) {
  // remix-auth re-reads the request, so read a copy here.
  const formData = await request.clone().formData();
  const email = String(formData.get("email") ?? "");
  const redirectTo = safeRedirect(formData.get("redirectTo"));
  try {
    const user = await getAuthenticator(context).authenticate("form", request, {
      throwOnError: true,
      context: { ...context, formData },
    });
    const storage = getSessionStorage(context);
    const session = await storage.getSession(request.headers.get("Cookie"));
    session.set("user", user);
    return redirect(redirectTo, { headers: { "Set-Cookie": await storage.commitSession(session) } });
  } catch (error) {
    const cause = error instanceof AuthorizationError ? error.cause : error;
    if (!(cause instanceof SignInError)) throw error;
    const message =
      cause.kind === "throttled"
        ? `${SIGN_IN.failed} ${SIGN_IN.throttled(cause.retryAfterSeconds)}`
        : cause.kind === "invalid"
          ? SIGN_IN.failed
          : SIGN_IN.unavailable;
    const status = cause.kind === "throttled" ? 429 : cause.kind === "invalid" ? 401 : 503;
    return json({ email, message }, { status });
  }
}
