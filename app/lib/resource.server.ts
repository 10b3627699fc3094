import type { z } from "zod";
import type { ListQueryInput } from "@contract/common";
import { DATA_PART, filePath, itemPath, type ResourceDefinition } from "@contract/resource";
import { notFound } from "./not-found";
import { streamDownload } from "./download.server";
import { isUpstreamError, type Api, type CallOptions } from "./upstream.server";

/**
 * The record `load` reads, or the not-found answer (thrown) when the upstream says there is none: 404, or 400 for an
 * id it cannot even read. The one "get or 404" of every screen showing one record.
 */
export async function orNotFound<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (error) {
    if (isUpstreamError(error, 404) || isUpstreamError(error, 400)) throw notFound();
    throw error;
  }
}

/** Files chosen for a record's file fields (`definition.files`), by field; absent ones stay as they are. */
export type RecordUploads = Partial<Record<string, File | undefined>>;

/**
 * The body of a create or patch: JSON, or with files chosen the kit's multipart (the `data` JSON part plus one part
 * per file field).
 */
function bodyOf(body: unknown, files?: RecordUploads): unknown {
  const chosen = Object.entries(files ?? {}).filter((e): e is [string, File] => e[1] instanceof File && e[1].size > 0);
  if (!chosen.length) return body;
  const form = new FormData();
  form.set(DATA_PART, JSON.stringify(body));
  for (const [field, file] of chosen) form.set(field, file, file.name);
  return form;
}

/** The calls of one collection of the contract (resource kit), typed by its definition's schemas. */
export function resourceClient<Item extends z.ZodTypeAny, Create extends z.AnyZodObject, Update extends z.AnyZodObject>(
  definition: ResourceDefinition<Item, Create, Update>,
) {
  const collection = `${definition.path}/`;
  const one = (id: string) => itemPath(definition, id);
  const get = (api: Api, id: string): Promise<z.infer<Item>> => api.get(definition.item, one(id));
  return {
    definition,
    /** One page; `extra` adds the collection's own filters (`{ types: "abstract,claims" }`). */
    list: (api: Api, query: ListQueryInput, extra?: CallOptions["query"]) =>
      api.get(definition.page, collection, { ...query, ...extra }),
    get,
    /** The record, or the not-found answer (thrown). */
    getOr404: (api: Api, id: string) => orNotFound(get(api, id)),
    /** With `files` (resources with `definition.files`): a multipart create. */
    create: (api: Api, body: z.input<Create>, files?: RecordUploads): Promise<z.infer<Item>> =>
      api.post(definition.item, collection, bodyOf(body, files)),
    /** With `files`: a multipart patch, replacing the files given. */
    update: (api: Api, id: string, body: z.input<Update>, files?: RecordUploads): Promise<z.infer<Item>> =>
      api.patch(definition.item, one(id), bodyOf(body, files)),
    /** A record's file, streamed to the browser as the upstream serves it (`definition.files`); 404 when none. */
    download: async (api: Api, id: string, field: string) => {
      if (!definition.files?.[field]) throw notFound();
      return orNotFound(api.raw("GET", filePath(definition, id, field)).then(streamDownload));
    },
    remove: (api: Api, id: string) => api.send("DELETE", one(id)),
    clone: (api: Api, id: string): Promise<z.infer<Item>> => api.post(definition.item, `${one(id)}/clone`),
  };
}

export type ResourceClient<
  Item extends z.ZodTypeAny = z.ZodTypeAny,
  Create extends z.AnyZodObject = z.AnyZodObject,
  Update extends z.AnyZodObject = z.AnyZodObject,
> = ReturnType<typeof resourceClient<Item, Create, Update>>;
