import type { Permission } from "../../contract/permissions";
import { Readable } from "node:stream";
import { Hono, type MiddlewareHandler } from "hono";
import type { z } from "zod";
import type { ListQuery, Page } from "../../contract/common";
import { RECORD_FILE_MESSAGES } from "../../contract/record-files";
import type { DocProperties } from "../../contract/record-files";
import { DATA_PART, filePath, type ResourceDefinition } from "../../contract/resource";
import { attachment, uploadName, uploadType } from "../files/routes";
import {
  HttpError,
  badRequest,
  fieldMessage,
  jsonBody,
  listQuery,
  notFound,
  requirePermission,
  validate,
  type AppContext,
  type AppEnv,
} from "./http";
import { answeredFile, isStoredRecordFile, type FileUpload, type RecordFiles, type StoredRecordFile } from "./record-files";
import { blobBytes, parseMultipartBody } from "./multipart";

/** What `resourceRoutes` needs of a store (`CollectionStore` is one; a domain may bring its own). */
export type ResourceStore<Item, Values, Filters extends object = Record<never, never>> = {
  list(query: ListQuery, filters?: Partial<Filters>): Page<Item>;
  get(id: string): Item | null;
  create(values: Values, actor: string | null): Item;
  update(id: string, changes: Partial<Values>, actor: string | null): Item | null;
  remove(id: string): boolean;
  clone?(id: string, actor: string | null): Item | null;
};

/** What is special about one resource. Every hook is optional. */
export type ResourceHooks<
  Item,
  Values,
  Filters extends object,
  Create extends z.AnyZodObject,
  Update extends z.AnyZodObject,
> = {
  /** Extra routes, mounted before `/:id` (so `/user` or `/params` is never read as an id). Check permissions there. */
  routes?: (app: Hono<AppEnv>) => void;
  /** The list's extra filters read from the query (throw `badRequest` on bad values). */
  filters?: (c: AppContext) => Partial<Filters>;
  /** The validated POST body → the values to store; throw `badRequest` e.g. when a referenced id does not exist. */
  beforeCreate?: (input: z.output<Create>, c: AppContext) => Values | Promise<Values>;
  /** The validated PATCH body → the changes to store (the record exists: checked before). */
  beforeUpdate?: (input: z.output<Update>, c: AppContext, current: Item) => Partial<Values> | Promise<Partial<Values>>;
  /** A stored record → the answer (default: as stored). */
  toItem?: (item: Item) => unknown;
  /**
   * Resources with `definition.files`: checks the uploaded parts of a create (`current` null) or patch against the
   * body and the record (required files, what a file must be; throw `badRequest`), before anything is stored, and
   * answers values derived from them (a name from a file name) and each file's document properties.
   */
  files?: (
    uploads: Partial<Record<string, FileUpload>>,
    input: Record<string, unknown>,
    current: Item | null,
    c: AppContext,
  ) => Promise<FilesCheck<Values>> | FilesCheck<Values>;
  /** Runs after a record was deleted (its files are deleted by the kit): e.g. records derived from it. */
  afterDelete?: (item: Item) => Promise<void> | void;
  /** Runs after a create or a patch that stored files: e.g. records derived from a file. */
  afterFiles?: (item: Item, fields: readonly string[], c: AppContext) => Promise<void> | void;
};

/** What the `files` hook answers: values to store with the record, and document properties per file field. */
export type FilesCheck<Values> = {
  values?: Partial<Values>;
  properties?: Partial<Record<string, DocProperties | null>>;
};

/**
 * The routes of one resource (the resource kit), each behind its definition's permission (403) and
 * answering its `notFound` text with 404:
 *
 *   GET /  (list: ?q=&sort=&page=&pageSize= plus the `filters` hook's)   definition.permissions.read
 *   GET /:id                                                              read
 *   POST /  → 201                                                         create
 *   PATCH /:id  (only the fields sent change)                             write
 *   DELETE /:id → 204                                                     write
 *   POST /:id/clone → 201 (when `definition.clone`)                       clone, else write
 *
 * A verb in `definition.omit` ("create", "delete") is not served (the API's 404 "Not found").
 *
 * Mount it at `definition.path`: `app.route(definition.path, resourceRoutes(definition, store, { requireAuth }))`.
 */
export function resourceRoutes<
  Item,
  Values,
  Filters extends object,
  Create extends z.AnyZodObject,
  Update extends z.AnyZodObject,
>(
  definition: ResourceDefinition<z.ZodTypeAny, Create, Update>,
  store: ResourceStore<Item, Values, Filters>,
  options: {
    requireAuth: MiddlewareHandler<AppEnv>;
    hooks?: ResourceHooks<Item, Values, Filters, Create, Update>;
    /** Where the bytes of `definition.files` go (required when the definition has files). */
    files?: RecordFiles;
  },
): Hono<AppEnv> {
  const { requireAuth, hooks = {} } = options;
  const { permissions } = definition;
  const fileRules = definition.files ?? {};
  const fileFields = Object.keys(fileRules);
  const recordFiles = options.files;
  if (fileFields.length && !recordFiles) throw new Error(`${definition.name}: the definition has files but no RecordFiles.`);
  const can = (permission: Permission) => [requireAuth, requirePermission(permission)] as const;
  const withUrls = (item: Item): Item => {
    if (!fileFields.length) return item;
    const record = { ...(item as Record<string, unknown>) };
    for (const field of fileFields) {
      const file = record[field];
      record[field] = isStoredRecordFile(file) ? answeredFile(file, filePath(definition, String(record.id), field)) : null;
    }
    return record as Item;
  };
  const answer = (item: Item) => (hooks.toItem ? hooks.toItem(withUrls(item)) : withUrls(item));
  const storedFiles = (item: Item | null): StoredRecordFile[] =>
    item ? fileFields.map((f) => (item as Record<string, unknown>)[f]).filter(isStoredRecordFile) : [];

  /** The body of a create or patch: JSON, or (with files) multipart with a `data` JSON part and the file parts. */
  const readBody = async <S extends z.AnyZodObject>(c: AppContext, schema: S) => {
    const multipart = /^multipart\/form-data/i.test(c.req.header("content-type") ?? "");
    if (!fileFields.length || !multipart) return { input: await jsonBody(c, schema), uploads: {} };
    let body: Record<string, string | File | (string | File)[]>;
    try {
      body = await parseMultipartBody(c.req.raw, { all: true });
    } catch {
      throw badRequest("Request body must be multipart/form-data");
    }
    const uploads: Partial<Record<string, FileUpload>> = {};
    let raw: unknown = {};
    for (const [name, value] of Object.entries(body)) {
      if (name === DATA_PART) {
        if (typeof value !== "string") throw badRequest(RECORD_FILE_MESSAGES.badData);
        try {
          raw = JSON.parse(value) as unknown;
        } catch {
          throw badRequest(RECORD_FILE_MESSAGES.badData);
        }
        continue;
      }
      const rule = fileRules[name];
      if (!rule) throw badRequest(RECORD_FILE_MESSAGES.unknownPart(name.slice(0, 100)));
      if (Array.isArray(value)) throw badRequest(fieldMessage([name], RECORD_FILE_MESSAGES.oneFile(rule.label)));
      if (!(value instanceof File)) throw badRequest(fieldMessage([name], RECORD_FILE_MESSAGES.empty(rule.label)));
      if (value.size === 0) continue; // an empty file input: no file chosen
      if (value.size > rule.maxBytes) throw new HttpError(413, fieldMessage([name], RECORD_FILE_MESSAGES.tooLarge(rule.label, rule.maxBytes)));
      uploads[name] = {
        name: uploadName(value.name),
        contentType: uploadType(value.type),
        bytes: await blobBytes(value),
      };
    }
    return { input: validate(schema, raw) as z.output<S>, uploads };
  };

  /** Checks the uploads (hook) and stores them: the values to write with the record and the files stored. */
  const storeUploads = async (
    uploads: Partial<Record<string, FileUpload>>,
    input: Record<string, unknown>,
    current: Item | null,
    c: AppContext,
  ): Promise<{ values: Record<string, unknown>; stored: StoredRecordFile[] }> => {
    if (!fileFields.length) return { values: {}, stored: [] };
    const check = (await hooks.files?.(uploads, input, current, c)) ?? {};
    const values: Record<string, unknown> = { ...(check.values ?? {}) };
    const stored: StoredRecordFile[] = [];
    try {
      for (const [field, upload] of Object.entries(uploads)) {
        if (!upload) continue;
        const file = await recordFiles!.put(definition.name, upload, check.properties?.[field] ?? null);
        stored.push(file);
        values[field] = file;
      }
    } catch (error) {
      await recordFiles!.discard(stored);
      throw error;
    }
    return { values, stored };
  };
  const found = (item: Item | null): Item => {
    if (item === null) throw notFound(definition.notFound);
    return item;
  };
  const actor = (c: AppContext) => c.get("actor").email;

  const app = new Hono<AppEnv>();
  hooks.routes?.(app);

  app.get("/", ...can(permissions.read), (c) => {
    const page = store.list(listQuery(c), hooks.filters?.(c));
    return c.json({ ...page, items: page.items.map(answer) });
  });

  app.get("/:id", ...can(permissions.read), (c) => c.json(answer(found(store.get(c.req.param("id"))))));

  if (fileFields.length) {
    app.get("/:id/files/:field", ...can(permissions.read), (c) => {
      const field = c.req.param("field");
      const item = found(store.get(c.req.param("id"))) as Record<string, unknown>;
      const file = fileRules[field] ? item[field] : null;
      const body = isStoredRecordFile(file) ? recordFiles!.open(file) : null;
      if (!isStoredRecordFile(file) || !body) throw notFound(RECORD_FILE_MESSAGES.notFound);
      return c.body(Readable.toWeb(body) as ReadableStream<Uint8Array>, 200, {
        "Content-Type": file.contentType,
        "Content-Length": String(file.size),
        "Content-Disposition": attachment(file.name),
        "Last-Modified": new Date(file.uploadedAt).toUTCString(),
        ETag: `"${file.sha256}"`,
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "private, no-store",
      });
    });
  }

  const omitted = (verb: "create" | "delete") => definition.omit?.includes(verb) ?? false;
  if (!omitted("create")) app.post("/", ...can(permissions.create), async (c) => {
    const { input, uploads } = await readBody(c, definition.create);
    const { values: fileValues, stored } = await storeUploads(uploads, input as Record<string, unknown>, null, c);
    let item: Item;
    try {
      const values = hooks.beforeCreate ? await hooks.beforeCreate(input, c) : (input as Values);
      item = store.create({ ...values, ...fileValues } as Values, actor(c));
    } catch (error) {
      await recordFiles?.discard(stored);
      throw error;
    }
    if (stored.length) await hooks.afterFiles?.(item, Object.keys(uploads), c);
    return c.json(answer(item), 201);
  });

  app.patch("/:id", ...can(permissions.write), async (c) => {
    const id = c.req.param("id");
    const { input, uploads } = await readBody(c, definition.update);
    const current = found(store.get(id));
    const { values: fileValues, stored } = await storeUploads(uploads, input as Record<string, unknown>, current, c);
    let item: Item;
    try {
      const changes = hooks.beforeUpdate ? await hooks.beforeUpdate(input, c, current) : (input as Partial<Values>);
      item = found(store.update(id, { ...changes, ...fileValues } as Partial<Values>, actor(c)));
    } catch (error) {
      await recordFiles?.discard(stored);
      throw error;
    }
    if (stored.length) {
      const replaced = storedFiles(current).filter((old) => !storedFiles(item).some((now) => now.key === old.key));
      await recordFiles!.discard(replaced);
      await hooks.afterFiles?.(item, Object.keys(uploads), c);
    }
    return c.json(answer(item));
  });

  if (!omitted("delete")) app.delete("/:id", ...can(permissions.write), async (c) => {
    const id = c.req.param("id");
    const current = fileFields.length || hooks.afterDelete ? store.get(id) : null;
    if (!store.remove(id)) throw notFound(definition.notFound);
    await recordFiles?.discard(storedFiles(current));
    if (current) await hooks.afterDelete?.(current);
    return c.body(null, 204);
  });

  if (definition.clone) {
    const { clone } = store;
    if (!clone) throw new Error(`${definition.name}: the definition serves clone but the store has no clone().`);
    app.post("/:id/clone", ...can(permissions.clone ?? permissions.write), (c) =>
      c.json(answer(found(clone.call(store, c.req.param("id"), actor(c)))), 201),
    );
  }
  return app;
}
