import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { logRefusal, ssoFailure, startOidc } from "~/auth/sso.server";

/** "Sign in with Microsoft" (the first provider): a POST, answered with the redirect to the identity provider. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  try {
    return await startOidc(context, String(form.get("redirectTo") ?? "/"));
  } catch (error) {
    logRefusal("oidc", error);
    return ssoFailure(context, "oidc");
  }
}

export function loader() {
  return redirect("/login");
}
