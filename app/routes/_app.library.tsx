import { parseWithZod } from "@conform-to/zod";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import {
  LIBRARY_TYPE_PERMISSIONS,
  LIBRARY_WRITE,
  LibraryType,
  type LibraryItem,
} from "@contract/library";
import { can } from "@contract/permissions";
import { requireRoute, requireWrite } from "~/auth/guard.server";
import { libraryApi } from "~/library/library.server";
import { LibraryPage, type LibraryGroupRows, type LibraryView, type Option } from "~/library/LibraryPage";
import { CategorySchema, SettingsSchema } from "~/library/schema";
import {
  NEW_ITEM_SCREENS,
  categoryLabel,
  categoryNodes,
  dateGroup,
  hrefOf,
  itemsQuery,
  stateOf,
  type FilterList,
} from "~/library/state";
import { LIBRARY } from "~/library/texts";
import { failed, failureToast, intentOf, isConfirmed, statusOf } from "~/lib/actions.server";
import { formatDateTime } from "~/lib/format";
import { readForm, textOf } from "~/lib/form.server";
import { toasts } from "~/lib/toast.server";
import { isUpstreamError } from "~/lib/upstream.server";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Library · Backoffice" }];

/** Category search: empty, or at least this many characters (spec 3 §5). */
const CATEGORY_SEARCH_MIN = 3;

export async function loader(args: LoaderFunctionArgs) {
  const { api, timeZone, identity } = await requireRoute(args);
  const state = stateOf(new URL(args.request.url));
  const [categories, stats, page, organizations, item] = await Promise.all([
    libraryApi.categories(api),
    libraryApi.stats(api),
    libraryApi.items(api, itemsQuery(state)),
    // Without organizations.read the names are unknown: ids show as 'Unknown Organization'.
    libraryApi.organizations(api).catch(() => []),
    state.id
      ? libraryApi.item(api, state.id).catch((error: unknown) => {
          if (isUpstreamError(error, 404)) return null;
          throw error;
        })
      : Promise.resolve(null),
  ]);
  const tree = categoryNodes(categories);
  const nodes = new Map(tree.map((n) => [n.id, n]));
  const search = state.csearch.toLowerCase();
  const shownTree =
    search.length >= CATEGORY_SEARCH_MIN
      ? withAncestors(tree.filter((n) => n.path.toLowerCase().includes(search)).map((n) => n.id), nodes)
      : tree.map((n) => n.id);
  const now = new Date();
  const groups: LibraryGroupRows[] = [];
  for (const i of page.items) {
    const label = state.groupBy === "category" ? categoryLabel(i.group, nodes) : dateGroup(i.updatedAt, now, timeZone);
    const row = { id: i.id, name: i.name, type: i.libraryType, updatedAt: formatDateTime(i.updatedAt, timeZone), updatedBy: i.updatedBy };
    const last = groups[groups.length - 1];
    if (last?.label === label) last.rows.push(row);
    else groups.push({ label, rows: [row] });
  }
  const orgOptions: Option[] = organizations.map((o) => ({ value: o.id, label: o.name }));
  const orgNames = new Map(orgOptions.map((o) => [o.value, o.label]));
  const byCount = (counts: Record<string, number>, label: (k: string) => string = (k) => k): Option[] =>
    Object.entries(counts)
      .filter(([k]) => k !== "")
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([k]) => ({ value: k, label: label(k) }));
  const filterOptions: Record<FilterList, Option[]> = {
    client: byCount(stats.counts.organization, (k) => orgNames.get(k) ?? LIBRARY.unknownOrganization),
    type: LibraryType.options.map((t) => ({ value: t, label: LIBRARY.types[t] })),
    editor: byCount(stats.counts.editor),
    tags: byCount(stats.counts.tag),
  };
  const permissions = identity.permissions;
  const canWrite = can(permissions, LIBRARY_WRITE);
  const view: LibraryView = {
    state,
    tree,
    shownTree,
    stats,
    groups,
    total: page.total,
    pages: Math.max(1, Math.ceil(page.total / page.pageSize)),
    organizations: orgOptions,
    filterOptions,
    item: item ? { ...item, updated: formatDateTime(item.updatedAt, timeZone) } : null,
    canWrite,
    canSave: !!item && canWrite && can(permissions, LIBRARY_TYPE_PERMISSIONS[item.libraryType].write),
    confirmCategory: null,
  };
  return json(view);
}

/** The ids and every ancestor of each, so a match shows under its parents. */
function withAncestors(ids: readonly string[], nodes: ReadonlyMap<string, { parentId: string | null }>): string[] {
  const out = new Set<string>();
  for (const id of ids) {
    for (let at: string | null = id; at && !out.has(at); at = nodes.get(at)?.parentId ?? null) out.add(at);
  }
  return [...out];
}

export async function action(args: ActionFunctionArgs) {
  const { api } = await requireWrite(args);
  const url = new URL(args.request.url);
  const back = hrefOf(stateOf(url), { page: stateOf(url).page });
  const form = await readForm(args.request);
  const intent = intentOf(form) || (form.has("itemId") ? "save-item" : "");
  const flash = toasts(args.context);
  const id = textOf(form, "id");
  try {
    switch (intent) {
      case "create-category":
      case "rename-category": {
        const submission = parseWithZod(form, { schema: CategorySchema });
        const typed = textOf(form, "name");
        const key = intent === "create-category" ? "" : id;
        if (submission.status !== "success") {
          const errors = submission.error?.name ?? [LIBRARY.nameRequired];
          return json({ categoryReply: { id: key, name: typed, errors }, toast: null }, { status: 400 });
        }
        try {
          if (intent === "create-category") {
            await libraryApi.createCategory(api, { name: submission.value.name, parentId: submission.value.parentId || null });
          } else {
            await libraryApi.updateCategory(api, id, { name: submission.value.name });
          }
        } catch (error) {
          return failed(
            { categoryReply: { id: key, name: typed, errors: [] } },
            failureToast(LIBRARY.categoryFailed, error),
            statusOf(error),
          );
        }
        return flash.redirectWithSuccess(
          intent === "create-category" ? back : hrefOf(stateOf(url), { edit: "", page: stateOf(url).page }),
          intent === "create-category" ? LIBRARY.categoryCreated : LIBRARY.categorySaved,
        );
      }
      case "move-category": {
        const order = Number(textOf(form, "order"));
        const parentId = textOf(form, "parentId") || null;
        await libraryApi.updateCategory(api, id, {
          parentId,
          order: Number.isInteger(order) && order >= 0 ? order : undefined,
        });
        return flash.redirectWithSuccess(back, LIBRARY.categorySaved);
      }
      case "delete-category": {
        if (!isConfirmed(form)) {
          const view = await loader({ ...args, request: new Request(args.request.url, { headers: args.request.headers }) });
          const data = (await view.json()) as LibraryView;
          return json({ ...data, confirmCategory: id, confirm: "delete-category", toast: null });
        }
        await libraryApi.deleteCategory(api, id);
        const state = stateOf(url);
        return flash.redirectWithSuccess(hrefOf(state, { cat: state.cat === id ? "" : state.cat }), LIBRARY.categoryDeleted);
      }
      case "new-item": {
        const type = LibraryType.safeParse(textOf(form, "libraryType"));
        if (!type.success) return json({ toast: null }, { status: 400 });
        const screen = NEW_ITEM_SCREENS[type.data];
        if (screen) return redirect(screen);
        const made: LibraryItem = await libraryApi.create(api, type.data);
        return redirect(hrefOf(stateOf(url), { id: made.id }));
      }
      case "save-item": {
        const itemId = textOf(form, "itemId");
        const submission = parseWithZod(form, { schema: SettingsSchema });
        if (submission.status !== "success") return json({ ...submission.reply(), toast: null }, { status: 400 });
        try {
          await libraryApi.save(api, itemId, submission.value);
        } catch (error) {
          const toast = { type: "error" as const, message: LIBRARY.saveFailed, description: failureToast(LIBRARY.saveFailed, error).description };
          return failed(submission.reply({ formErrors: [LIBRARY.saveFailed] }), toast, statusOf(error));
        }
        return flash.redirectWithSuccess(back, LIBRARY.saved);
      }
      default:
        return json({ toast: null }, { status: 400 });
    }
  } catch (error) {
    if (error instanceof Response) throw error;
    return failed({}, failureToast(LIBRARY.categoryFailed, error), statusOf(error));
  }
}

export default function Library() {
  const loaded = useLoaderData<typeof loader>() as unknown as LibraryView;
  const actionData = useActionData<typeof action>();
  // The inline confirmation step (no JavaScript) answers the whole view with the category to confirm.
  const view =
    actionData && typeof actionData === "object" && "confirmCategory" in actionData
      ? (actionData as unknown as LibraryView)
      : loaded;
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <LibraryPage view={view} actionData={actionData} />
    </>
  );
}
