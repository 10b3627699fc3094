import { createHash, timingSafeEqual } from "node:crypto";
import { createCookie, redirect, type AppLoadContext, type Cookie } from "@remix-run/node";
import { ProviderList, TokenAnswer, type Provider } from "@contract/auth";
import { OIDC_PROVIDER_NAME, SERVICE_CREDENTIAL_HEADER } from "@contract/sso";
import { toasts, TRY_LATER } from "~/lib/toast.server";
import { createApi } from "~/lib/upstream.server";
import { safeRedirect } from "./redirect";
import type { SsoContext } from "./sso-context";
import { SSO_TEXTS } from "./texts";

/** A refused or failed single sign-on; the message is for the log. */
class SsoRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SsoRefused";
  }
}

const OIDC_CALLBACK_PATH = "/microsoft.html";

/** The external providers `GET /api/auth/` lists (spec 1 §2); none when the upstream cannot say. */
export async function listProviders(context: AppLoadContext): Promise<Provider[]> {
  try {
    return await createApi(context, {}).get(ProviderList, "/api/auth/");
  } catch {
    return [];
  }
}

function ssoOf(context: AppLoadContext): SsoContext {
  if (!context.sso) throw new SsoRefused("single sign-on is not configured");
  return context.sso;
}

/** A server-to-server call with the service credential; the token it answers. */
async function serviceCall(context: AppLoadContext, path: string, body: unknown): Promise<string> {
  const sso = ssoOf(context);
  const response = await context.upstream(path, {
    method: "POST",
    headers: {
      Accept: "application/json",
      "Content-Type": "application/json",
      [SERVICE_CREDENTIAL_HEADER]: sso.serviceSecret,
      "X-Client-Address": context.clientAddress,
    },
    body: JSON.stringify(body),
  });
  if (response.status < 200 || response.status > 300) {
    throw new SsoRefused(`${path} answered ${response.status}: ${await response.text()}`);
  }
  return TokenAnswer.parse(await response.json()).token;
}

/** The upstream token of the account with `email` (proven by `provider`), through the service exchange. */
export function exchangeIdentity(context: AppLoadContext, email: string, provider: "oidc" | "saml"): Promise<string> {
  return serviceCall(context, "/api/auth/sso/exchange", { email, provider });
}

/** The failure toast of a provider (spec 1 §8), back on the sign-in screen. */
export function ssoFailure(context: AppLoadContext, provider: "oidc" | "saml", headers?: Headers): Promise<Response> {
  const message = provider === "oidc" ? SSO_TEXTS.oidcFailed : SSO_TEXTS.samlFailed;
  return toasts(context).redirectWithError("/login", { message, description: TRY_LATER }, { headers });
}

export function logRefusal(provider: string, error: unknown) {
  if (process.env.NODE_ENV !== "test" || process.env.SSO_LOG) console.warn(`sso: ${provider} sign-in refused: ${(error as Error).message}`);
}

// ------------------------------------------------------------------ OpenID Connect, the back office's half

type OidcCookie = { state: string; redirectTo: string };
const cookies = new Map<string, Cookie>();

/**
 * Binds a started sign-in to this browser: the state the upstream put in the authorization URL, in a signed httpOnly
 * cookie that only the callback path receives, for 10 minutes. A callback whose state is not this cookie's is refused.
 */
function oidcCookie(context: AppLoadContext): Cookie {
  const key = `${context.cookieSecure}\n${context.sessionSecrets.join("\n")}`;
  let cookie = cookies.get(key);
  if (!cookie) {
    cookie = createCookie("__oidc", {
      httpOnly: true,
      sameSite: "lax",
      secure: context.cookieSecure,
      path: OIDC_CALLBACK_PATH,
      maxAge: 600,
      secrets: context.sessionSecrets,
    });
    cookies.set(key, cookie);
  }
  return cookie;
}

function sameString(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb);
}

/**
 * Starts the corporate sign-in: `GET /api/auth/{provider}?redirect_uri={origin}/microsoft.html` answers the URL to
 * send the browser to (spec 1 §7). Throws SsoRefused when it cannot.
 */
export async function startOidc(context: AppLoadContext, redirectTo: string): Promise<Response> {
  const sso = ssoOf(context);
  const redirectUri = `${sso.publicUrl}${OIDC_CALLBACK_PATH}`;
  let answer: string;
  try {
    answer = await createApi(context, {}).text(
      `/api/auth/${OIDC_PROVIDER_NAME}?redirect_uri=${encodeURIComponent(redirectUri)}`,
    );
  } catch (error) {
    throw new SsoRefused(`the provider's URL: ${(error as Error).message}`);
  }
  let url: URL;
  try {
    url = new URL(answer.trim());
  } catch {
    throw new SsoRefused("the upstream answered no URL");
  }
  const state = url.searchParams.get("state");
  if (!/^https?:$/.test(url.protocol) || !state) throw new SsoRefused("the provider's URL has no state");
  const value: OidcCookie = { state, redirectTo: safeRedirect(redirectTo) };
  return redirect(url.href, { headers: { "Set-Cookie": await oidcCookie(context).serialize(value) } });
}

/** The callback: checks the state is this browser's, then has the upstream redeem the code. */
export async function finishOidc(
  request: Request,
  context: AppLoadContext,
): Promise<{ token: string; redirectTo: string; clearCookie: string }> {
  const sso = ssoOf(context);
  const cookie = oidcCookie(context);
  const clearCookie = await cookie.serialize("", { maxAge: 0 });
  const stored = (await cookie.parse(request.headers.get("Cookie"))) as OidcCookie | null;
  const url = new URL(request.url);
  const state = url.searchParams.get("state") ?? "";
  if (!stored || typeof stored.state !== "string" || !state || !sameString(stored.state, state)) {
    throw Object.assign(new SsoRefused("the state is not this browser's"), { clearCookie });
  }
  // The URL the provider redirected to, on our public origin (what the upstream registered as redirect_uri).
  const callbackUrl = `${sso.publicUrl}${OIDC_CALLBACK_PATH}${url.search}`;
  try {
    const token = await serviceCall(context, `/api/auth/${OIDC_PROVIDER_NAME}/callback`, { callbackUrl });
    return { token, redirectTo: safeRedirect(stored.redirectTo), clearCookie };
  } catch (error) {
    throw Object.assign(error instanceof SsoRefused ? error : new SsoRefused(String(error)), { clearCookie });
  }
}
