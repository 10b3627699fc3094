import { ChainDraft, ChainsResource, History, type Chain } from "@contract/chains";
import { CategoryList, LIBRARY_MESSAGES } from "@contract/library";
import { LIST_LIMITS, TEXT_LIMITS } from "@contract/limits";
import { OrganizationOptions } from "@contract/organizations";
import { z } from "zod";
import type { ListSource } from "~/kit/resource-routes.server";
import { formatDateTime } from "~/lib/format";
import { resourceClient } from "~/lib/resource.server";
import { historyEntries } from "~/workflows/versions/versions.server";
import { isUpstreamError, type Api } from "~/lib/upstream.server";
import { CHAINS } from "./texts";

/** The chains collection (spec 3 §7 /api/prompts), through the resource kit. */
export const chains = resourceClient(ChainsResource);

const TagsInUse = z.array(z.string());

/** What the chain screens read besides a chain: organizations (names for ids), categories, tags in use. */
export const chainLookups = {
  organizations: (api: Api) => api.get(OrganizationOptions, "/api/organizations/user"),
  categories: (api: Api) => api.get(CategoryList, "/api/categories/all", { skipOrganizationFiltering: "true" }),
  tags: (api: Api) => api.get(TagsInUse, `${ChainsResource.path}/tags`),
};

/** The list's filters from the URL (spec 3 §2.8): `tag` (any chosen) and `organization` (any chosen), repeated. */
export function chainFiltersOf(url: URL) {
  const values = (param: string, max: number, each: number) =>
    [...new Set(url.searchParams.getAll(param).map((v) => v.trim()))].filter((v) => v && v.length <= each).slice(0, max);
  return { tags: values("tag", LIST_LIMITS.tags, TEXT_LIMITS.tag), organizations: values("organization", LIST_LIMITS.organizations, TEXT_LIMITS.id) };
}
export type ChainFilters = ReturnType<typeof chainFiltersOf>;

/** The list's source with this request's filters (the kit's list loader takes any source). */
export function chainListSource(filters: ChainFilters): ListSource<Chain> {
  return {
    definition: chains.definition,
    list: (api, query, extra) =>
      chains.list(api, query, {
        ...extra,
        ...(filters.tags.length ? { tags: filters.tags.join(",") } : {}),
        ...(filters.organizations.length ? { organizations: filters.organizations.join(",") } : {}),
      }),
  };
}

/** Names of ids; an id that names nothing shows as the spec's 'Unknown Organization' / 'Unknown Category'. */
export const namesOf = (ids: readonly string[], names: ReadonlyMap<string, string>, unknown: string) => ids.map((id) => names.get(id) ?? unknown);

/** A chain as its list row shows it. */
export const chainRow = (c: Chain, timeZone: string, organizations: ReadonlyMap<string, string>) => ({
  id: c.id,
  name: c.name,
  description: c.description,
  tags: c.tags,
  organizations: namesOf(c.organizations, organizations, LIBRARY_MESSAGES.unknownOrganization),
  generic: c.isGeneric,
  updatedAt: formatDateTime(c.updatedAt, timeZone),
  updatedBy: c.updatedBy,
});
export type ChainRow = ReturnType<typeof chainRow>;

type Option = { value: string; label: string };

/** The settings form's choices: every organization and category (a category as Parent > Child). */
export async function settingsOptions(api: Api): Promise<{ organizationOptions: Option[]; categoryOptions: Option[] }> {
  const [organizations, categories] = await Promise.all([chainLookups.organizations(api), chainLookups.categories(api)]);
  const byId = new Map(categories.map((c) => [c.id, c]));
  const path = (id: string, depth = 0): string => {
    const c = byId.get(id);
    if (!c) return LIBRARY_MESSAGES.unknownCategory;
    return c.parentId && byId.has(c.parentId) && depth < 20 ? `${path(c.parentId, depth + 1)} > ${c.name}` : c.name;
  };
  return {
    organizationOptions: organizations.map((o) => ({ value: o.id, label: o.name })),
    categoryOptions: categories.map((c) => ({ value: c.id, label: path(c.id) })),
  };
}

/** The choices with the ids a chain holds that name nothing kept, under the spec's 'Unknown …' words (saving keeps them). */
export function withUnknownIds(
  options: { organizationOptions: Option[]; categoryOptions: Option[] },
  chain: Pick<Chain, "organizations" | "categories"> | null,
) {
  const missing = (list: Option[], ids: readonly string[], label: string) => {
    const known = new Set(list.map((o) => o.value));
    return [...list, ...ids.filter((id) => !known.has(id)).map((id) => ({ value: id, label }))];
  };
  return {
    organizationOptions: missing(options.organizationOptions, chain?.organizations ?? [], LIBRARY_MESSAGES.unknownOrganization),
    categoryOptions: missing(options.categoryOptions, chain?.categories ?? [], LIBRARY_MESSAGES.unknownCategory),
  };
}

/**
 * The History tab's lines (the versions kit's history entries, spec 3 §3 history entry): the draft, if any, then the
 * versions newest first, the active one marked; each leads to its version view (`/chains/{id}/versions/{draft|n}`),
 * `shown` marking the one a page shows.
 */
export async function chainHistory(api: Api, chain: Chain, timeZone: string, shown: "draft" | "current" | number = "current") {
  const base = `${chains.definition.path}/${encodeURIComponent(chain.id)}`;
  const [versions, draft] = await Promise.all([
    api.get(History, `${base}/history`),
    chain.hasDraft
      ? api.get(ChainDraft, `${base}/draft`).catch((error: unknown) => {
          if (isUpstreamError(error, 404)) return null;
          throw error;
        })
      : Promise.resolve(null),
  ]);
  const page = `/chains/${chain.id}`;
  return historyEntries({
    summaries: versions.map((v) => ({
      revision: v.version,
      commitMessage: v.comment,
      author: v.author,
      createdAt: v.createdAt,
      current: v.isActive,
      activatedFrom: v.activatedFrom,
    })),
    draft,
    currentStatus: CHAINS.page.active,
    timeZone,
    draftHref: `${page}/versions/draft`,
    revisionHref: (n) => `${page}/versions/${n}`,
    shown,
  });
}
