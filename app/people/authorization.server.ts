import {
  PairAuthorization,
  PairAuthorizations,
  Practitioners,
  type PairAuthorizationPut,
} from "@contract/authorization";
import type { Api } from "~/lib/upstream.server";

const enc = encodeURIComponent;

/** The pair-authorizator part of the upstream contract (spec 1 §7). */
export const authorizations = {
  practitioners: (api: Api) => api.get(Practitioners, "/api/pair-authorizator/practitioners"),
  list: (api: Api) => api.get(PairAuthorizations, "/api/pair-authorizator/users"),
  /** Only these users' rows (a list page's). */
  listFor: (api: Api, emails: readonly string[]) =>
    emails.length
      ? api.get(PairAuthorizations, "/api/pair-authorizator/users", { emails: emails.join(",") })
      : Promise.resolve([]),
  get: (api: Api, id: string) => api.get(PairAuthorization, `/api/pair-authorizator/users/${enc(id)}`),
  put: (api: Api, id: string, body: PairAuthorizationPut) =>
    api.put(PairAuthorization, `/api/pair-authorizator/users/${enc(id)}`, body),
};
