import { notFound } from "~/lib/not-found";
import type { AppLoadContext } from "@remix-run/node";
import { can, type Permission } from "@contract/permissions";
import { matchRoute, type RouteEntry } from "~/lib/routes";
import { timeZoneOf } from "~/lib/timezone.server";
import { createApi, type Api, type UpstreamError } from "~/lib/upstream.server";
import type { Identity } from "./identity";
import { refreshSession, renewSession, signedOut } from "./session.server";

export type Signed = {
  identity: Identity;
  token: string;
  api: Api;
  timeZone: string;
  /** Set-Cookie to send when the session's token was refreshed by this request. */
  setCookie: string | null;
};

type Args = { request: Request; context: AppLoadContext };

export { notFound };

/**
 * The signed-in user, or the redirect to sign-in (thrown). Its `api` reads every upstream refusal in one place:
 * a 401 anywhere — the session was revoked by log out elsewhere, a password change or a permission removal
 * — signs the browser out (cookie cleared, sign-in screen, return path kept); a 403 while showing a page means the
 * token promised a permission the user no longer holds: the not-found view, with a fresh token so the navigation
 * follows. Actions that catch upstream errors rethrow these Responses (failureToast/statusOf in actions.server.ts).
 */
export async function requireUser({ request, context }: Args): Promise<Signed> {
  const { identity, token, setCookie } = await refreshSession(request, context);
  const timeZone = timeZoneOf(request);
  const showing = request.method === "GET" || request.method === "HEAD";
  const onError = async (error: UpstreamError) => {
    if (error.status === 401) throw await signedOut(request, context);
    if (error.status === 403 && showing) throw notFound(await renewSession(request, context, token));
  };
  return { identity, token, timeZone, setCookie, api: createApi(context, { token, timeZone, onError }) };
}

/** What the signed-in user may do on a screen, from its route table entry (`write`, `create`). */
type May = { write: boolean; create: boolean };

export type RouteAccess = Signed & { may: May };

/**
 * The signed-in user holding the permission that the route table gives this URL; else the not-found answer. `may`
 * says what else the table's entry lets them do (Save and Delete shown, "+ add new" shown), so loaders never name a
 * permission again.
 */
export async function requireRoute(args: Args): Promise<RouteAccess> {
  const signed = await requireUser(args);
  const entry = matchRoute(new URL(args.request.url).pathname);
  if (!entry || (entry.permission !== null && !can(signed.identity.permissions, entry.permission))) throw notFound();
  return { ...signed, may: mayOf(entry, signed.identity.permissions) };
}

function mayOf(entry: RouteEntry, permissions: readonly string[]): May {
  const holds = (permission: Permission | undefined) => permission !== undefined && can(permissions, permission);
  return { write: holds(entry.write), create: holds(entry.create) };
}

/** For actions that change something: the route's permission and its `write` permission from the table. */
export async function requireWrite(args: Args): Promise<RouteAccess> {
  const access = await requireRoute(args);
  if (!access.may.write) throw notFound();
  return access;
}

/** For actions that need more than viewing: the route's permission and `permission` too. */
export async function requirePermission(args: Args, permission: Permission): Promise<Signed> {
  const signed = await requireRoute(args);
  if (!can(signed.identity.permissions, permission)) throw notFound();
  return signed;
}
