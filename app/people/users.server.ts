import type { ListQueryInput } from "@contract/common";
import { User, UserPage, type UserCreate, type UserUpdate } from "@contract/people";
import { OrganizationOptions } from "@contract/organizations";
import type { Api } from "~/lib/upstream.server";

/** The users part of the upstream contract (spec 1 §7), as the people screens use it. */
export const users = {
  list: (api: Api, query: ListQueryInput) => api.get(UserPage, "/api/auth/users", query),
  get: (api: Api, id: string) => api.get(User, `/api/auth/users/${encodeURIComponent(id)}`),
  create: (api: Api, body: UserCreate) => api.post(User, "/api/auth/users", body),
  update: (api: Api, body: UserUpdate) => api.patch(User, `/api/auth/users/${encodeURIComponent(body.id)}`, body),
  remove: (api: Api, id: string) => api.send("DELETE", `/api/auth/users/${encodeURIComponent(id)}`),
  organizations: (api: Api) => api.get(OrganizationOptions, "/api/organizations/user"),
};
