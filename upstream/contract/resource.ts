import type { z } from "zod";
import { pageOf } from "./common";
import type { Permission } from "./permissions";

/**
 * One collection of the API, defined once (the resource kit): where it lives, its shapes (with the spec's
 * messages), who may read, create and change it, and what "not found" says. The embedded upstream serves it with
 * `resourceRoutes` (upstream/src/lib/resource-routes.ts) on a `CollectionStore`; the back office calls it through
 * `resourceClient` (app/lib/resource.server.ts) and builds its form schemas from `create`/`update` (extend, never
 * restate).
 */
export type ResourceDefinition<
  Item extends z.ZodTypeAny = z.ZodTypeAny,
  Create extends z.AnyZodObject = z.AnyZodObject,
  Update extends z.AnyZodObject = z.AnyZodObject,
> = {
  /** Plural, lower case: "organizations". Used in messages and as the list id of the remembered sort. */
  name: string;
  /** The API path without a trailing slash: "/api/organizations". Items live at `${path}/{id}`. */
  path: string;
  /** What the API answers for one record (audit fields included). */
  item: Item;
  /** One page of `item`s: `{ items, total, page, pageSize }`. */
  page: z.ZodObject<{
    items: z.ZodArray<Item>;
    total: z.ZodNumber;
    page: z.ZodNumber;
    pageSize: z.ZodNumber;
  }>;
  /** POST body. */
  create: Create;
  /** PATCH body: only the fields sent change. */
  update: Update;
  /**
   * Permission strings (spec's §6): `read` lists and shows, `create` adds (often the bare domain permission, which
   * only `x` itself grants), `write` changes and deletes (and clones, unless `clone` says otherwise).
   */
  permissions: { read: Permission; create: Permission; write: Permission; clone?: Permission };
  /** The 404 message: "Organization not found." */
  notFound: string;
  /** `POST ${path}/{id}/clone` is served (spec 2/3 resources that the spec gives a clone call). */
  clone?: boolean;
  /**
   * Verbs the API does not serve for this collection (e.g. reports: built-in records, only read and changed): the
   * API answers 404 "Not found" instead. `create` still describes a whole record (seeding, tests).
   */
  omit?: readonly ("create" | "delete")[];
  /**
   * The record's file fields (spec 2 §7's multipart create and patch), by field name: each is a part of the
   * multipart POST / PATCH (beside the `data` part, the JSON body), kept in the upstream's file store, answered as a
   * `RecordFile` (contract/record-files.ts) and downloaded at `GET ${path}/{id}/files/{field}`. Replaced and deleted
   * with the record. See CONTRIBUTING.md, "Records with files".
   */
  files?: Readonly<Record<string, ResourceFileRule>>;
};

/** One file field of a resource: its size bound (413 above it) and how messages name it. */
type ResourceFileRule = { maxBytes: number; label: string };

/** Defines a resource, deriving its page schema from `item`. */
export function defineResource<
  Item extends z.ZodTypeAny,
  Create extends z.AnyZodObject,
  Update extends z.AnyZodObject,
>(definition: Omit<ResourceDefinition<Item, Create, Update>, "page">): ResourceDefinition<Item, Create, Update> {
  return { ...definition, page: pageOf(definition.item) as ResourceDefinition<Item, Create, Update>["page"] };
}

/** The path of one record. */
export const itemPath = (resource: Pick<ResourceDefinition, "path">, id: string) =>
  `${resource.path}/${encodeURIComponent(id)}`;

/** The download path of a record's file field (`GET`, the definition's read permission). */
export const filePath = (resource: Pick<ResourceDefinition, "path">, id: string, field: string) =>
  `${itemPath(resource, id)}/files/${encodeURIComponent(field)}`;

/** The multipart part that carries the JSON body of a create or patch with files. */
export const DATA_PART = "data";
