import { orNotFound } from "~/lib/resource.server";
import type { Api } from "~/lib/upstream.server";
import { users } from "./users.server";

/** The user of a /people/{id}/… URL, or the not-found answer (thrown). */
export const loadUser = (api: Api, id: string) => orNotFound(users.get(api, id));
