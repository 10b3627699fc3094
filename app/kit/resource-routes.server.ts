import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import type { z } from "zod";
import type { ListQueryInput, Page } from "@contract/common";
import { can } from "@contract/permissions";
import { notFound, requireRoute, requireUser, requireWrite, type RouteAccess } from "~/auth/guard.server";
import { failed, failureToast, intentOf, isConfirmed, statusOf } from "~/lib/actions.server";
import { formatDateTime } from "~/lib/format";
import { readForm } from "~/lib/form.server";
import { listQueryOf, loadPage } from "~/lib/list.server";
import { readPrefs, writePrefs } from "~/lib/prefs.server";
import type { RecordUploads, ResourceClient } from "~/lib/resource.server";
import { toasts } from "~/lib/toast.server";
import { isUpstreamError, type Api } from "~/lib/upstream.server";
import type { ToastData } from "~/ui/toast";

type Audited = { createdAt: string; createdBy: string | null; updatedAt: string; updatedBy: string | null };

/** A record's audit fields as a list shows them: dates formatted in the user's time zone, with who. */
export const stampsOf = (item: Audited, timeZone: string) => ({
  createdAt: formatDateTime(item.createdAt, timeZone),
  createdBy: item.createdBy,
  updatedAt: formatDateTime(item.updatedAt, timeZone),
  updatedBy: item.updatedBy,
});

/**
 * A list filter (a `ChoiceFilter` on the page, ui/list), read from the URL parameter `param` and sent upstream as
 * `{ [name]: chosen values joined with commas }` (`","` for none):
 * - any number of `options` (checkboxes; spec 1 §2's specification type filter), remembered in the prefs cookie: the
 *   URL's choice when the filter form was sent (it always sends `filtered=1`, so "none chosen" is told apart from "no
 *   filter in the URL"), else the remembered one, else every option;
 * - with `single`, one option (radios; spec 1 §2's teams all / assistants / teams): the URL's, else `single.fallback`;
 *   not remembered.
 */
export type ListFilter = { param: string; options: readonly string[]; single?: { fallback: string } };

/** What `listLoader` needs of a client: the list's name (its remembered sort's id) and one page. */
export type ListSource<T> = {
  definition: { name: string };
  list: (api: Api, query: ListQueryInput, extra: Record<string, string>) => Promise<Page<T>>;
};

/**
 * The loader of a list screen: the route's permission, the query from the URL (search text; sort remembered per list;
 * page clamped to the last), `filters` (see `ListFilter`), one upstream call (two past the end), `row` mapping each
 * record to what the page shows. `resource` is a `resourceClient`, or any `ListSource` (teams: its own endpoint).
 * Answers `{ q, sort, page, pageSize, total, rows, filters, may }`.
 */
export async function listLoader<T, Row, F extends string = never, E = undefined, P extends object = Record<never, never>>(
  args: LoaderFunctionArgs,
  resource: ListSource<T>,
  options: {
    row: (item: T, timeZone: string, extra: E) => Row;
    listId?: string;
    filters?: Record<F, ListFilter>;
    /** Loaded once, in parallel with the page, and given to `row` (e.g. organization names for ids). */
    extra?: (access: RouteAccess) => Promise<E>;
    /** What else the screen shows beside the rows (a dialog's data), loaded in parallel and merged into the answer. */
    more?: (access: RouteAccess) => Promise<P>;
  },
) {
  const access = await requireRoute(args);
  const { api, timeZone, may } = access;
  const extraLoad = options.extra ? options.extra(access) : Promise.resolve(undefined as E);
  const moreLoad = options.more ? options.more(access) : Promise.resolve({} as P);
  const listId = options.listId ?? resource.definition.name;
  const { query, setCookie } = await listQueryOf(args.request, args.context, listId);
  const filters = await filtersOf(args, listId, query.sort, options.filters);
  const extra = Object.fromEntries(Object.entries<string[]>(filters.chosen).map(([k, v]) => [k, v.join(",") || ","]));
  const [page, more, shown] = await Promise.all([loadPage(query, (q) => resource.list(api, q, extra)), extraLoad, moreLoad]);
  const cookie = filters.setCookie ?? setCookie;
  return json(
    {
      ...shown,
      q: query.q,
      sort: query.sort,
      page: page.page,
      pageSize: page.pageSize,
      total: page.total,
      rows: page.items.map((item) => options.row(item, timeZone, more)),
      filters: filters.chosen as Record<F, string[]>,
      may,
    },
    { headers: cookie ? { "Set-Cookie": cookie } : undefined },
  );
}

async function filtersOf(
  args: LoaderFunctionArgs,
  listId: string,
  sort: string,
  filters: Record<string, ListFilter> = {},
): Promise<{ chosen: Record<string, string[]>; setCookie: string | null }> {
  const url = new URL(args.request.url);
  const many = Object.entries(filters).filter(([, filter]) => !filter.single);
  const prefs = many.length ? await readPrefs(args.request, args.context) : null;
  const sent = url.searchParams.get("filtered") === "1";
  const chosen: Record<string, string[]> = {};
  let changed = false;
  for (const [name, filter] of Object.entries(filters)) {
    if (filter.single) {
      const value = url.searchParams.get(filter.param);
      chosen[name] = [value !== null && filter.options.includes(value) ? value : filter.single.fallback];
      continue;
    }
    const remembered = prefs?.filters[`${listId}.${name}`];
    const wanted = sent ? url.searchParams.getAll(filter.param) : (remembered ?? filter.options);
    chosen[name] = filter.options.filter((o) => wanted.includes(o));
    if (sent && JSON.stringify(remembered) !== JSON.stringify(chosen[name])) changed = true;
  }
  if (!changed || !prefs) return { chosen, setCookie: null };
  // One prefs cookie holds the sort and the filters: write both (the sort may have changed in the same request).
  const remember = Object.fromEntries(many.map(([name]) => [`${listId}.${name}`, chosen[name]!]));
  const next = {
    ...prefs,
    sorts: { ...prefs.sorts, [listId]: sort as (typeof prefs.sorts)[string] },
    filters: { ...prefs.filters, ...remember },
  };
  return { chosen, setCookie: await writePrefs(next, args.context) };
}

/**
 * The loader of a screen showing one record (`params.id`): the route's permission, the record or the not-found view,
 * and what the user may do (`may.write`: Save and Delete). `record` is null only right after this same request's
 * action found the record gone (deleted by someone else while the form was open; see `editorAction`): the page then
 * shows the failure toast and the user's input instead of the not-found view.
 */
export async function editorLoader<
  I extends z.ZodTypeAny,
  C extends z.AnyZodObject,
  U extends z.AnyZodObject,
  E extends object = Record<never, never>,
>(
  args: LoaderFunctionArgs,
  resource: ResourceClient<I, C, U>,
  /** What else the screen needs (e.g. the organizations to choose from), loaded in parallel and merged in. */
  extra?: (access: RouteAccess) => Promise<E>,
) {
  const access = await requireRoute(args);
  const { api, may } = access;
  const id = args.params.id ?? "";
  const more = extra ? extra(access) : Promise.resolve({} as E);
  if (afterFormPost(args.request)) {
    const record = resource.get(api, id).catch((error: unknown) => {
      if (isUpstreamError(error, 404)) return null;
      throw error;
    });
    const [r, m] = await Promise.all([record, more]);
    return { ...m, id, record: r as z.infer<I> | null, may };
  }
  const [r, m] = await Promise.all([resource.getOr404(api, id), more]);
  return { ...m, id, record: r as z.infer<I> | null, may };
}

/**
 * Remix runs a page's loaders right after its action in the same document request (no JavaScript), with the post's
 * headers: a form content type marks that run. A plain GET never carries one.
 */
function afterFormPost(request: Request): boolean {
  return /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(request.headers.get("Content-Type") ?? "");
}

/**
 * A parsed form's values split into the JSON body and the files of the resource's file fields (`definition.files`):
 * a File value there is an upload (sent as a multipart part), never a body field.
 */
function splitFiles(values: Record<string, unknown>, fileFields: Readonly<Record<string, unknown>> | undefined) {
  const body: Record<string, unknown> = {};
  const files: RecordUploads = {};
  for (const [key, value] of Object.entries(values)) {
    if (fileFields?.[key] !== undefined) {
      if (value instanceof File) files[key] = value;
    } else body[key] = value;
  }
  return { body, files };
}

/**
 * An upstream 400/413 naming one of the resource's file fields ("fileTemplate: The file is not a valid …") as that
 * field's error: the check only the upstream can make (what the file really is) shown beside the file input.
 */
function fileFieldError(error: unknown, fileFields: Readonly<Record<string, unknown>> | undefined) {
  if (!fileFields || !(isUpstreamError(error, 400) || isUpstreamError(error, 413))) return null;
  const match = /^([A-Za-z]+): (.+)$/s.exec((error as Error).message);
  return match && fileFields[match[1]!] !== undefined ? { [match[1]!]: [match[2]!] } : null;
}

/** The texts an editor action needs: the domain's `toasts` and inline failure text (spec 1 §8's pattern). */
export type EditorTexts = {
  toasts: {
    created: string;
    updated: string;
    deleted: string;
    createFailed: string;
    updateFailed: string;
    deleteFailed: string;
  };
  inline: { saveFailed: string };
};

/**
 * The action of a create (no `params.id`) or edit screen, behind the route table's `write` permission:
 * - `intent=delete`: the inline confirmation step until `confirmed=yes`, then delete, toast and back to `list`;
 * - else the form through `schema` (conform): invalid → the errors, 400; valid → create or update, toast, redirect
 *   to `saved(record)` (default `list`);
 * - an upstream failure: the spec's failure toast and the inline text, everything typed kept, the upstream's status.
 *   An update answering 404 (deleted by someone else meanwhile) is such a failure too, with `gone: true` (the page's
 *   loader and `shouldRevalidate` keep the form on screen instead of the not-found view).
 */
export async function editorAction<
  I extends z.ZodTypeAny,
  C extends z.AnyZodObject,
  U extends z.AnyZodObject,
  S extends z.ZodType<z.input<C> & z.input<U>, z.ZodTypeDef, unknown>,
>(
  args: ActionFunctionArgs,
  resource: ResourceClient<I, C, U>,
  options: {
    schema: S;
    texts: EditorTexts;
    list: string;
    saved?: (record: z.infer<I>) => string;
    /**
     * The screen's other buttons, by their `intent` (a preview, a check): the posted form → the answer (an object
     * holding conform's reply, e.g. `{ ...parseWithZod(form, { schema }).reply(), preview }`, keeps what was typed).
     */
    intents?: Record<string, (post: { api: Api; form: FormData }) => Promise<Response | object>>;
    /** The failure toast of a create, update or delete, when not `failureToast`'s (spec 3 §8: "Reason: " + message). */
    failure?: (title: string, error: unknown) => ToastData;
  },
) {
  const { api } = await requireWrite(args);
  const { toasts: T, inline } = options.texts;
  const id = args.params.id;
  const form = await readForm(args.request);
  const flash = toasts(args.context);
  const toastOf = options.failure ?? failureToast;
  const other = options.intents?.[intentOf(form)];
  if (other) {
    const answer = await other({ api, form });
    return answer instanceof Response ? answer : json(answer);
  }
  if (id !== undefined && intentOf(form) === "delete") {
    if (!isConfirmed(form)) return json({ confirm: "delete" as const, toast: null });
    try {
      await resource.remove(api, id);
    } catch (error) {
      return failed({ confirm: null }, toastOf(T.deleteFailed, error), statusOf(error));
    }
    return flash.redirectWithSuccess(options.list, T.deleted);
  }
  const submission = parseWithZod(form, { schema: options.schema });
  // conform's list intents (insert or remove a row without JavaScript) answer the form as changed: 200, not an error.
  if (submission.status !== "success") return json(submission.reply(), { status: submission.status === "error" ? 400 : 200 });
  const { body, files } = splitFiles(submission.value as Record<string, unknown>, resource.definition.files);
  let record: z.infer<I>;
  try {
    record = id === undefined ? await resource.create(api, body as z.input<C>, files) : await resource.update(api, id, body as z.input<U>, files);
  } catch (error) {
    const fieldError = fileFieldError(error, resource.definition.files);
    const reply = submission.reply({ formErrors: [inline.saveFailed], fieldErrors: fieldError ?? undefined });
    const toast = toastOf(id === undefined ? T.createFailed : T.updateFailed, error);
    return failed({ ...reply, gone: isUpstreamError(error, 404) }, toast, statusOf(error));
  }
  const to = options.saved?.(record) ?? options.list;
  return flash.redirectWithSuccess(to, id === undefined ? T.created : T.updated);
}

/** The texts of a Clone button (spec 2 §8: 'Clone completed' / 'Clone failed'). */
export type CloneTexts = { toasts: { cloned: string; cloneFailed: string } };

/**
 * The action of a list's Clone buttons (a POST form with `intent=clone` and the record's `id`), behind the route
 * table's `write` permission: clone (`POST {path}/{id}/clone`), then the success toast on `to(copy)` (default: the
 * copy's edit screen, where its name tells it apart); a failure re-renders the list with the failure toast and the
 * upstream's status. Any other intent is a 400.
 */
export async function cloneAction<I extends z.ZodTypeAny, C extends z.AnyZodObject, U extends z.AnyZodObject>(
  args: ActionFunctionArgs,
  resource: ResourceClient<I, C, U>,
  options: { texts: CloneTexts; to: (copy: z.infer<I>) => string },
) {
  const { api } = await requireWrite(args);
  const form = await readForm(args.request);
  const id = typeof form.get("id") === "string" ? String(form.get("id")) : "";
  if (intentOf(form) !== "clone" || !id) return json({ toast: null }, { status: 400 });
  let copy: z.infer<I>;
  try {
    copy = await resource.clone(api, id);
  } catch (error) {
    return failed({}, failureToast(options.texts.toasts.cloneFailed, error), statusOf(error));
  }
  return toasts(args.context).redirectWithSuccess(options.to(copy), options.texts.toasts.cloned);
}

/**
 * The loader of a record file's download route (a resource route: `/documents/word/:id/file`): the resource's read
 * permission (its list's, so the route table needs no entry per download), then the upstream's bytes streamed
 * (`resourceClient.download`: content type, length and file name passed on, never buffered); 404 when there is none.
 */
export async function fileLoader<I extends z.ZodTypeAny, C extends z.AnyZodObject, U extends z.AnyZodObject>(
  args: LoaderFunctionArgs,
  resource: ResourceClient<I, C, U>,
  field: string,
) {
  const { api, identity } = await requireUser(args);
  if (!can(identity.permissions, resource.definition.permissions.read)) throw notFound();
  return resource.download(api, args.params.id ?? "", field);
}
