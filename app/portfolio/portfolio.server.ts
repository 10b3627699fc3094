import { z } from "zod";
import { OrganizationOptions } from "@contract/organizations";
import type {
  AddTag,
  AdvancedSearchBody,
  Application,
  ApplicationCreate,
  CsvExportResponse,
  EditFields,
  ImportJob,
  RemoveTag,
  SearchResponse,
} from "@contract/portfolio";
import type { Api } from "~/lib/upstream.server";

/**
 * The portfolio's upstream calls (spec 2 §7; shapes in upstream/contract/portfolio.ts). The contract types its
 * answers without zod schemas: the back office takes them as typed (its own upstream, or one speaking the contract).
 */
const as = <T>() => z.unknown().transform((value) => value as T);

/** The search of /portfolio: GET /api/search with repeated `tags`. */
export type PortfolioSearch = { query: string; size: number; from: number; portfolioId: string; tags: string[]; countAll?: boolean };

function searchParams(search: Omit<PortfolioSearch, "size" | "from"> & { size?: number; from?: number }) {
  const params = new URLSearchParams();
  if (search.query) params.set("query", search.query);
  if (search.size !== undefined) params.set("size", String(search.size));
  if (search.from !== undefined) params.set("from", String(search.from));
  params.set("portfolioId", search.portfolioId);
  for (const tag of search.tags) params.append("tags", tag);
  if (search.countAll) params.set("trackTotalHits", "true");
  return params;
}

const one = (id: string) => `/api/applications/${encodeURIComponent(id)}`;

export const portfolio = {
  search: (api: Api, search: PortfolioSearch) => api.get(as<SearchResponse>(), `/api/search?${searchParams(search)}`),
  /** One application, whole (404 "Unable to find application with id X"). */
  get: (api: Api, id: string) => api.get(as<Application>(), `/api/search/${encodeURIComponent(id)}`),
  /** The organizations of the 'Portfolio:' selector (GET /api/organizations/user). */
  organizations: (api: Api) => api.get(OrganizationOptions, "/api/organizations/user"),
  create: (api: Api, body: ApplicationCreate) => api.post(as<Application>(), "/api/applications", body),
  addTag: (api: Api, change: Omit<AddTag, "action">) =>
    api.put(as<Application>(), one(change.applicationId), { action: "addTag", ...change }),
  removeTag: (api: Api, change: Omit<RemoveTag, "action">) =>
    api.put(as<Application>(), one(change.applicationId), { action: "removeTag", ...change }),
  editFields: (api: Api, change: Omit<EditFields, "action">) =>
    api.put(as<Application>(), one(change.applicationId), { action: "editFields", ...change }),
  /** Starts a CSV import (202 with the job; the upstream works through it in the background). */
  importCsv: (api: Api, csv: Uint8Array, portfolioId: string) =>
    api.post(as<ImportJob>(), "/api/applications/csv", {
      csvFileData: Buffer.from(csv.buffer, csv.byteOffset, csv.byteLength).toString("base64"),
      portfolioId,
    }),
  importJob: (api: Api, jobId: string) =>
    api.get(as<ImportJob>(), `/api/applications/csv/${encodeURIComponent(jobId)}`),
  /** The export of a simple search: its download, streamed from the upstream (GET /api/search/csv, then the file). */
  async exportCsv(api: Api, search: Omit<PortfolioSearch, "size" | "from">, size: number): Promise<Response> {
    const { downloadUrl } = await api.get(
      as<CsvExportResponse>(),
      `/api/search/csv?${searchParams({ ...search, size, from: 0 })}`,
    );
    return api.raw("GET", `/api${downloadUrl}`);
  },
  /**
   * Starts the export of an advanced search without reading it: the upstream checks the query and keeps the export
   * for its owner a while. Answers the export's token, for `openExport` (a later GET, e.g. a download link).
   */
  async startAdvancedExport(api: Api, body: AdvancedSearchBody, portfolioId?: string): Promise<string> {
    const query = portfolioId ? `?${new URLSearchParams({ portfolioId })}` : "";
    const { downloadUrl } = await api.post(as<CsvExportResponse>(), `/api/search/advanced/csv${query}`, body);
    return downloadUrl.slice(downloadUrl.lastIndexOf("/") + 1);
  },
  /** A started export's file, streamed (GET /api/search/exports/{token}; 404 once expired or for another user). */
  openExport: (api: Api, token: string) => api.raw("GET", `/api/search/exports/${encodeURIComponent(token)}`),
};
