import { notFound } from "../auth/guard.server";
import { isUpstreamError, type Api } from "../lib/upstream.server";
import { users } from "./users.server";

/** The user of a /people/{id}/… URL, or the not-found answer (thrown). */
export async function loadUser(api: Api, id: string) {
  try {
    return await users.get(api, id);
  } catch (error) {
    if (isUpstreamError(error, 404) || isUpstreamError(error, 400)) throw notFound();
    throw error;
  }
}
