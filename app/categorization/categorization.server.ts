import { z } from "zod";
import {
  CategorizationQueriesResource,
  type CategorizationJob,
  type JobTriggered,
} from "@contract/categorization";
import type { AdvancedSearchBody, SearchResponse } from "@contract/portfolio";
import { resourceClient } from "~/lib/resource.server";
import type { Api } from "~/lib/upstream.server";
import { portfolio } from "~/portfolio/portfolio.server";

const as = <T>() => z.unknown().transform((value) => value as T);
const queriesPath = CategorizationQueriesResource.path;

/** The categorization's upstream calls (spec 2 §7; shapes in upstream/contract/categorization.ts). */
export const categorization = {
  queries: resourceClient(CategorizationQueriesResource),
  /** The portfolio's advanced search with the query JSON plus size and from (spec 2 §7). */
  search: (api: Api, body: AdvancedSearchBody) => api.post(as<SearchResponse>(), "/api/search/advanced", body),
  apply: (api: Api, id: string) => api.post(as<JobTriggered>(), `${queriesPath}/${encodeURIComponent(id)}/apply`),
  remove: (api: Api, id: string) => api.post(as<JobTriggered>(), `${queriesPath}/${encodeURIComponent(id)}/remove`),
  applyAll: (api: Api) => api.post(as<JobTriggered>(), `${queriesPath}/apply`),
  prune: (api: Api, id?: string) => api.post(as<JobTriggered>(), `${queriesPath}/prune`, id ? { id } : {}),
  jobs: (api: Api, queryId: string, limit = 5) =>
    api.get(as<CategorizationJob[]>(), `/api/categorization/jobs?${new URLSearchParams({ queryId, limit: String(limit) })}`),
  /** Stops a queued or running job (what it changed stays); answers it, cancelled. */
  cancelJob: (api: Api, id: string) => api.post(as<CategorizationJob>(), `/api/categorization/jobs/${encodeURIComponent(id)}/cancel`),
  /** Starts the CSV of the query's results (POST /api/search/advanced/csv, which checks the query): its token. */
  startExport: (api: Api, body: AdvancedSearchBody) => portfolio.startAdvancedExport(api, body),
  /** A started CSV, streamed. */
  openExport: (api: Api, token: string) => portfolio.openExport(api, token),
};
