import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { logRefusal, ssoFailure, startOidc } from "~/auth/sso.server";
import { readForm } from "~/lib/form.server";

/** "Sign in with Microsoft" (the first provider): a POST, answered with the redirect to the identity provider. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
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
