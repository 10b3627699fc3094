import type { AppLoadContext } from "@remix-run/node";
import { can } from "../../upstream/contract/permissions";
import { matchRoute } from "../lib/routes";
import { timeZoneOf } from "../lib/timezone.server";
import { createApi, type Api } from "../lib/upstream.server";
import type { Identity } from "./identity";
import { refreshSession } from "./session.server";

export type Signed = {
  identity: Identity;
  token: string;
  api: Api;
  timeZone: string;
  /** Set-Cookie to send when the session's token was refreshed by this request. */
  setCookie: string | null;
};

type Args = { request: Request; context: AppLoadContext };

/** The not-found answer (spec 1 §2): unknown routes and routes the user lacks the permission for. */
export function notFound(): Response {
  return new Response("Not found", { status: 404, statusText: "Not Found" });
}

/** The signed-in user, or the redirect to sign-in (thrown). */
export async function requireUser({ request, context }: Args): Promise<Signed> {
  const { identity, token, setCookie } = await refreshSession(request, context);
  const timeZone = timeZoneOf(request);
  return { identity, token, timeZone, setCookie, api: createApi(context, { token, timeZone }) };
}

/** The signed-in user holding the permission that the route table gives this URL; else the not-found answer. */
export async function requireRoute(args: Args): Promise<Signed> {
  const signed = await requireUser(args);
  const entry = matchRoute(new URL(args.request.url).pathname);
  if (!entry || (entry.permission !== null && !can(signed.identity.permissions, entry.permission))) throw notFound();
  return signed;
}

/** For actions that need more than viewing: the route's permission and `permission` too. */
export async function requirePermission(args: Args, permission: string): Promise<Signed> {
  const signed = await requireRoute(args);
  if (!can(signed.identity.permissions, permission)) throw notFound();
  return signed;
}
