import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { safeRedirect } from "~/auth/redirect";
import { commitToken, getAuthenticator } from "~/auth/session.server";
import { logRefusal, ssoFailure } from "~/auth/sso.server";

/**
 * The SAML assertion consumer service (HTTP-POST binding): the identity provider posts SAMLResponse and RelayState
 * here. Accepted: the session starts and the browser goes to RelayState (a path on this site). Refused: the failure
 * toast on the sign-in screen.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const relayState = (await request.clone().formData()).get("RelayState");
  try {
    const user = await getAuthenticator(context).authenticate("saml", request, { throwOnError: true, context });
    return redirect(safeRedirect(relayState), {
      // 303: the browser follows with a GET.
      status: 303,
      headers: { "Set-Cookie": await commitToken(request, context, user.token) },
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    logRefusal("saml", error);
    return ssoFailure(context, "saml");
  }
}

export function loader() {
  return redirect("/login");
}
