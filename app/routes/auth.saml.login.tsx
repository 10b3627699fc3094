import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { getAuthenticator } from "~/auth/session.server";
import { logRefusal, ssoFailure } from "~/auth/sso.server";

/** "Sign in with OKTA": a POST, answered with the redirect to the SAML identity provider (an AuthnRequest). */
export async function action({ request, context }: ActionFunctionArgs) {
  try {
    await getAuthenticator(context).authenticate("saml", request, { throwOnError: true, context });
  } catch (error) {
    if (error instanceof Response) return error;
    logRefusal("saml", error);
  }
  return ssoFailure(context, "saml");
}

export function loader() {
  return redirect("/login");
}
