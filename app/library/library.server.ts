import {
  CategoryList,
  DrawingToken,
  LibraryCategory,
  LibraryItem,
  LibraryItemPage,
  LibraryStats,
  type LibraryItemsQueryInput,
  type LibrarySettings,
  type LibraryType,
} from "@contract/library";
import { OrganizationOptions } from "@contract/organizations";
import type { Api } from "~/lib/upstream.server";

/** The library's upstream calls (spec 3 §7). */
export const libraryApi = {
  categories: (api: Api) => api.get(CategoryList, "/api/categories/all", { skipOrganizationFiltering: "true" }),
  createCategory: (api: Api, body: { name: string; parentId: string | null }) =>
    api.post(LibraryCategory, "/api/categories/create", body),
  updateCategory: (api: Api, id: string, body: { name?: string; parentId?: string | null; order?: number }) =>
    api.put(LibraryCategory, `/api/categories/${encodeURIComponent(id)}`, body),
  deleteCategory: (api: Api, id: string) => api.send("DELETE", `/api/categories/${encodeURIComponent(id)}`),
  stats: (api: Api) => api.get(LibraryStats, "/api/library/stats"),
  items: (api: Api, query: LibraryItemsQueryInput) =>
    api.get(LibraryItemPage, "/api/library/items", { ...query, skipOrganizationFiltering: "true" }),
  item: (api: Api, id: string) => api.get(LibraryItem, `/api/library/items/${encodeURIComponent(id)}`),
  save: (api: Api, id: string, settings: LibrarySettings) =>
    api.patch(LibraryItem, `/api/library/items/${encodeURIComponent(id)}`, settings),
  create: (api: Api, libraryType: LibraryType) => api.post(LibraryItem, "/api/library/items", { libraryType }),
  organizations: (api: Api) => api.get(OrganizationOptions, "/api/organizations/user"),
  drawingToken: (api: Api, id: string) => api.get(DrawingToken, `/api/drawings/${encodeURIComponent(id)}/token`),
};

