import { createCookieSessionStorage, redirect, type AppLoadContext, type SessionStorage } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { PermissionCatalogue, TokenAnswer } from "@contract/auth";
import { createApi, isUpstreamError } from "~/lib/upstream.server";
import { decodeToken, isExpired, needsRefresh, type Identity } from "./identity";
import { SamlStrategy } from "./saml.server";
import { exchangeIdentity } from "./sso.server";

/** What the session cookie holds: the upstream token only; the identity is decoded from it. */
export type SessionUser = { token: string };

type Ctx = Pick<AppLoadContext, "sessionSecrets" | "cookieSecure" | "upstream" | "clientAddress">;

/** 12 hours; the token inside is refreshed well before that while the user is active. */
const SESSION_MAX_AGE_S = 12 * 60 * 60;

const storages = new Map<string, SessionStorage>();
const authenticators = new Map<string, Authenticator<SessionUser>>();

const keyOf = (ctx: Ctx) => `${ctx.cookieSecure}\n${ctx.sessionSecrets.join("\n")}`;

export function getSessionStorage(ctx: Ctx): SessionStorage {
  const key = keyOf(ctx);
  let storage = storages.get(key);
  if (!storage) {
    storage = createCookieSessionStorage({
      cookie: {
        name: "__session",
        httpOnly: true,
        sameSite: "lax",
        secure: ctx.cookieSecure,
        path: "/",
        secrets: ctx.sessionSecrets,
        maxAge: SESSION_MAX_AGE_S,
      },
    });
    storages.set(key, storage);
  }
  return storage;
}

/** Why a sign-in failed, carried from the strategy to the sign-in action. */
export class SignInError extends Error {
  constructor(
    readonly kind: "invalid" | "throttled" | "unavailable",
    readonly retryAfterSeconds = 0,
  ) {
    super(kind);
    this.name = "SignInError";
  }
}

type SignInContext = Ctx & { formData: FormData };

export function getAuthenticator(ctx: Ctx): Authenticator<SessionUser> {
  const key = keyOf(ctx);
  let authenticator = authenticators.get(key);
  if (!authenticator) {
    authenticator = new Authenticator<SessionUser>(getSessionStorage(ctx), { sessionKey: "user" });
    authenticator.use(
      new FormStrategy<SessionUser>(async ({ form, context }) => {
        // remix-auth hands back the context given to authenticate(): the sign-in action passes an AppLoadContext.
        const c = context as unknown as SignInContext;
        const email = String(form.get("email") ?? "").trim();
        const password = String(form.get("password") ?? "");
        if (!email || !password) throw new SignInError("invalid");
        try {
          const { token } = await createApi(c, {}).post(TokenAnswer, "/api/auth/login", { email, password });
          return { token };
        } catch (error) {
          if (isUpstreamError(error, 429)) {
            throw new SignInError("throttled", Number(error.headers.get("Retry-After")) || 60);
          }
          if (isUpstreamError(error, 401) || isUpstreamError(error, 400)) throw new SignInError("invalid");
          throw new SignInError("unavailable");
        }
      }),
      "form",
    );
    // Single sign-on "Sign in with OKTA" (SAML): the proven email is exchanged for that user's upstream token.
    authenticator.use(
      new SamlStrategy<SessionUser>(async ({ email, context }) => ({ token: await exchangeIdentity(context, email, "saml") })),
      "saml",
    );
    authenticators.set(key, authenticator);
  }
  return authenticator;
}

/** The session's token and identity, or null when signed out or the token has expired. */
export async function readSession(request: Request, ctx: Ctx) {
  const session = await getSessionStorage(ctx).getSession(request.headers.get("Cookie"));
  const user = session.get("user") as SessionUser | undefined;
  const identity = user ? decodeToken(user.token) : null;
  if (!user || !identity || isExpired(identity)) return { session, token: null, identity: null };
  return { session, token: user.token, identity };
}

export { safeRedirect } from "./redirect";

function loginRedirect(request: Request, headers?: HeadersInit): Response {
  const url = new URL(request.url);
  // A client-side navigation's data request comes back to the page, not to its data.
  url.searchParams.delete("_data");
  const back = url.pathname + url.search;
  const search = back === "/" ? "" : `?${new URLSearchParams({ redirectTo: back })}`;
  return redirect(`/login${search}`, { headers });
}

/**
 * Keeps the session alive: a token close to expiry is exchanged through /api/auth/refresh. Returns the Set-Cookie
 * header to send when the session changed. Throws the redirect to sign-in when the session is gone.
 */
type Refreshed = { identity: Identity; token: string; setCookie: string | null };

/**
 * One session decode per page request: Remix calls every loader of a page with its own copy of the
 * request, but one load context, so a page's loaders (root, shell, page) share the answer through the context.
 * Only for GET/HEAD: an action may change the session before its page's loaders run.
 */
const perRequest = new WeakMap<object, { cookie: string | null; result: Promise<Refreshed> }>();

export function refreshSession(request: Request, ctx: Ctx): Promise<Refreshed> {
  if (request.method !== "GET" && request.method !== "HEAD") return refreshOnce(request, ctx);
  const cookie = request.headers.get("Cookie");
  const known = perRequest.get(ctx);
  if (known && known.cookie === cookie) return known.result;
  const result = refreshOnce(request, ctx);
  perRequest.set(ctx, { cookie, result });
  return result;
}

async function refreshOnce(request: Request, ctx: Ctx): Promise<Refreshed> {
  const { session, token, identity } = await readSession(request, ctx);
  const storage = getSessionStorage(ctx);
  if (!token || !identity) {
    throw loginRedirect(request, session.has("user") ? { "Set-Cookie": await storage.destroySession(session) } : {});
  }
  if (!needsRefresh(identity)) {
    await confirmSession(request, ctx, token);
    return { identity, token, setCookie: null };
  }
  try {
    // An exchange shared with an earlier request (up to 10 s old) may predate a revocation: check its token's session.
    const shared = exchanges.has(token);
    const freshToken = await exchange(ctx, token);
    const next = decodeToken(freshToken);
    if (!next) throw new Error("The upstream answered a malformed token");
    if (shared) await confirmSession(request, ctx, freshToken);
    session.set("user", { token: freshToken } satisfies SessionUser);
    return { identity: next, token: freshToken, setCookie: await storage.commitSession(session) };
  } catch (error) {
    if (isUpstreamError(error, 401)) {
      throw loginRedirect(request, { "Set-Cookie": await storage.destroySession(session) });
    }
    throw error;
  }
}

/**
 * The upstream still holds the token's session (no log out, password change or permission removal since). The
 * token's payload alone would let a page whose loaders ask the upstream nothing else (the overview, the shell's name
 * and navigation) render from a revoked session's cookie, so every page asks, with the cheapest call that needs a
 * session. In-process this establishes the page request's identity, which its later calls reuse (upstream
 * lib/direct.ts): a page that loads data pays nothing more. A token refreshed by this request needs no check: the
 * exchange is one.
 */
async function confirmSession(request: Request, ctx: Ctx, token: string): Promise<void> {
  try {
    await createApi(ctx, { token }).get(PermissionCatalogue, "/api/auth/permissions/list");
  } catch (error) {
    if (isUpstreamError(error, 401)) throw await signedOut(request, ctx);
    throw error;
  }
}

/**
 * One refresh per old token: the layout's loader and a page's loader of the same request (or two parallel data
 * requests) share the exchange instead of each calling the upstream.
 */
const exchanges = new Map<string, { at: number; promise: Promise<string> }>();
const EXCHANGE_REUSE_MS = 10_000;

function exchange(ctx: Ctx, token: string): Promise<string> {
  const now = Date.now();
  for (const [key, value] of exchanges) if (now - value.at > EXCHANGE_REUSE_MS) exchanges.delete(key);
  const existing = exchanges.get(token);
  if (existing) return existing.promise;
  const promise = createApi(ctx, {})
    .post(TokenAnswer, "/api/auth/refresh", { token })
    .then((answer) => answer.token);
  promise.catch(() => exchanges.delete(token));
  exchanges.set(token, { at: now, promise });
  return promise;
}

/** Signed out: the session cookie cleared and the redirect to sign-in, keeping where the user was going. */
export async function signedOut(request: Request, ctx: Ctx): Promise<Response> {
  const storage = getSessionStorage(ctx);
  const session = await storage.getSession(request.headers.get("Cookie"));
  return loginRedirect(request, { "Set-Cookie": await storage.destroySession(session) });
}

/**
 * The session gets a fresh token now (current names and permissions), e.g. after the upstream refused something the
 * old token's permissions promised. Answers the Set-Cookie to send, or null when the upstream could not be asked;
 * throws the sign-in redirect when the session was revoked.
 */
export async function renewSession(request: Request, ctx: Ctx, token: string): Promise<string | null> {
  try {
    const fresh = await exchange(ctx, token);
    return decodeToken(fresh) ? await commitToken(request, ctx, fresh) : null;
  } catch (error) {
    if (isUpstreamError(error, 401)) throw await signedOut(request, ctx);
    return null;
  }
}

/** Log out upstream: revokes the token's session there, so a copied cookie stops working. Failures are ignored. */
export async function revokeSession(ctx: Ctx, token: string): Promise<void> {
  try {
    await createApi(ctx, { token }).send("POST", "/api/auth/logout");
  } catch {
    // Signed out here anyway; the session's tokens expire with their TTL.
  }
}

/** Replaces the session's token (e.g. after the user changed their own permissions). */
export async function commitToken(request: Request, ctx: Ctx, token: string): Promise<string> {
  const storage = getSessionStorage(ctx);
  const session = await storage.getSession(request.headers.get("Cookie"));
  session.set("user", { token } satisfies SessionUser);
  return storage.commitSession(session);
}
