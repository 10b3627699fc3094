import type { ListQueryInput } from "../../upstream/contract/common";
import {
  Organization,
  OrganizationPage,
  type OrganizationCreate,
  type OrganizationUpdate,
} from "../../upstream/contract/organizations";
import { notFound } from "../auth/guard.server";
import { isUpstreamError, type Api } from "../lib/upstream.server";

const path = (id: string) => `/api/organizations/${encodeURIComponent(id)}`;

/** The organizations part of the upstream contract (spec 3 §7). */
export const organizations = {
  list: (api: Api, query: ListQueryInput) => api.get(OrganizationPage, "/api/organizations/", query),
  get: (api: Api, id: string) => api.get(Organization, path(id)),
  create: (api: Api, body: OrganizationCreate) => api.post(Organization, "/api/organizations/", body),
  update: (api: Api, id: string, body: OrganizationUpdate) => api.patch(Organization, path(id), body),
  remove: (api: Api, id: string) => api.send("DELETE", path(id)),
  /** The organization, or the not-found answer (thrown) when it does not exist. */
  async getOr404(api: Api, id: string) {
    try {
      return await organizations.get(api, id);
    } catch (error) {
      if (isUpstreamError(error, 404)) throw notFound();
      throw error;
    }
  },
};
