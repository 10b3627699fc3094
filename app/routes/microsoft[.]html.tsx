import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { commitToken } from "~/auth/session.server";
import { finishOidc, logRefusal, ssoFailure } from "~/auth/sso.server";

/** The corporate provider's callback (spec 1 §7: `{origin}/microsoft.html`): completes the sign-in. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  let result: Awaited<ReturnType<typeof finishOidc>>;
  try {
    result = await finishOidc(request, context);
  } catch (error) {
    logRefusal("oidc", error);
    const headers = new Headers();
    const clear = (error as { clearCookie?: unknown }).clearCookie;
    if (typeof clear === "string") headers.append("Set-Cookie", clear);
    return ssoFailure(context, "oidc", headers);
  }
  const headers = new Headers();
  headers.append("Set-Cookie", result.clearCookie);
  headers.append("Set-Cookie", await commitToken(request, context, result.token));
  return redirect(result.redirectTo, { headers });
}
