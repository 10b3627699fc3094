import { json, redirect, type ActionFunctionArgs, type AppLoadContext } from "@remix-run/node";
import { AuthorizationError } from "remix-auth";
import { UserSettings } from "@contract/settings";
import { TIME_ZONE_SETTING, TZ_COOKIE, timeZoneCookie } from "~/lib/timezone.server";
import { createApi } from "~/lib/upstream.server";
import { decodeToken } from "./identity";
import { getAuthenticator, getSessionStorage, safeRedirect, SignInError } from "./session.server";
import { SIGN_IN } from "./texts";

/**
 * A browser that has not told its zone (no JavaScript) gets the one saved in the user's settings, if any, as its
 * `tz` cookie: dates on a docket are then in the user's day, not UTC's. Best effort: no setting, no permission to
 * read settings, or an upstream failure leaves UTC, which the dates then name.
 */
async function savedTimeZone(context: AppLoadContext, token: string): Promise<string | null> {
  const email = decodeToken(token)?.email;
  if (!email) return null;
  try {
    const settings = await createApi(context, { token }).get(UserSettings, `/api/settings/users/${encodeURIComponent(email)}`);
    return timeZoneCookie(settings.find((s) => s.key === TIME_ZONE_SETTING)?.value);
  } catch {
    return null;
  }
}

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
    const headers = new Headers({ "Set-Cookie": await storage.commitSession(session) });
    const zone = request.headers.get("Cookie")?.includes(`${TZ_COOKIE}=`) ? null : await savedTimeZone(context, user.token);
    if (zone) headers.append("Set-Cookie", zone);
    return redirect(redirectTo, { headers });
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
