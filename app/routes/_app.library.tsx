import { parseWithZod } from "@conform-to/zod";
import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import {
  LIBRARY_TYPE_PERMISSIONS,
  LIBRARY_WRITE,
  LibraryType,
  STAT_DIMENSIONS,
  type LibraryItem,
  type StatDimension,
} from "@contract/library";
import { can } from "@contract/permissions";
import { requireRoute, requireWrite } from "~/auth/guard.server";
import { libraryApi } from "~/library/library.server";
import { LibraryPage, type LibraryGroupRows, type LibraryView, type Option, type StatsView } from "~/library/LibraryPage";
import { CategorySchema, SettingsSchema } from "~/library/schema";
import {
  CATEGORY_SEARCH_MIN,
  FILTER_LISTS,
  FILTER_SHOWN,
  NEW_ITEM_SCREENS,
  categoryLabel,
  categoryNodes,
  dateGroup,
  hrefOf,
  itemsQuery,
  organizationLabel,
  pickCategories,
  stateOf,
  type CategoryNode,
  type FilterList,
} from "~/library/state";
import styles from "~/library/library.css";
import { LIBRARY } from "~/library/texts";
import { failed, failureToast, intentOf, isConfirmed, statusOf } from "~/lib/actions.server";
import { formatDateTime } from "~/lib/format";
import { readForm, textOf } from "~/lib/form.server";
import { toasts } from "~/lib/toast.server";
import { isUpstreamError } from "~/lib/upstream.server";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Library · Backoffice" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/** The statistics show each dimension's biggest counts, this many. */
const STATS_SHOWN = 20;

export async function loader(args: LoaderFunctionArgs) {
  const { api, timeZone, identity } = await requireRoute(args);
  const state = stateOf(new URL(args.request.url));
  const [categories, rawStats, page, organizations, item] = await Promise.all([
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
  const all = categoryNodes(categories);
  const nodes = new Map(all.map((n) => [n.id, n]));
  const tree = shownTree(all, nodes, state.csearch.toLowerCase(), [state.cat, state.edit]);
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
  const labelOf = (dimension: StatDimension, key: string): string => {
    if (dimension === "category") return categoryLabel(key, nodes);
    if (dimension === "organization") return organizationLabel(key, orgNames);
    if (dimension === "type") return LIBRARY.types[key as LibraryType] ?? key;
    return key || "—";
  };
  const biggest = (counts: Record<string, number>) =>
    Object.entries(counts)
      .filter(([k]) => k !== "")
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const stats: StatsView = {
    total: rawStats.total,
    dimensions: STAT_DIMENSIONS.filter((d) => d !== "editor").map((d) => ({
      dimension: d,
      title: LIBRARY.statDimensions[d],
      rows: biggest(rawStats.counts[d])
        .slice(0, STATS_SHOWN)
        .map(([k, n]): [string, number] => [labelOf(d, k), n]),
    })),
  };
  const values: Record<FilterList, Option[]> = {
    client: biggest(rawStats.counts.organization).map(([k]) => ({ value: k, label: labelOf("organization", k) })),
    type: LibraryType.options.map((t) => ({ value: t, label: LIBRARY.types[t] })),
    editor: biggest(rawStats.counts.editor).map(([k]) => ({ value: k, label: k })),
    tags: biggest(rawStats.counts.tag).map(([k]) => ({ value: k, label: k })),
  };
  // Five values, or all with `more`; a chosen value past the fifth still shows, so it can be unticked.
  const shownValues = (f: FilterList) =>
    state.more.includes(f)
      ? values[f]
      : [...values[f].slice(0, FILTER_SHOWN), ...values[f].slice(FILTER_SHOWN).filter((o) => state.chosen[f].includes(o.value))];
  const filterOptions = Object.fromEntries(FILTER_LISTS.map((f) => [f, shownValues(f)])) as Record<FilterList, Option[]>;
  const filterCounts = Object.fromEntries(FILTER_LISTS.map((f) => [f, values[f].length])) as Record<FilterList, number>;
  const permissions = identity.permissions;
  const canWrite = can(permissions, LIBRARY_WRITE);
  const view: LibraryView = {
    state,
    tree,
    // The selected item's category picker: the first 50 of its search, and the item's own (however many).
    categoryPick: item ? pickCategories(all, state.pick) : { options: [], matched: 0 },
    categoryLabels: item
      ? item.categories.map((id) => ({ value: id, label: nodes.has(id) ? nodes.get(id)!.path : LIBRARY.unknownCategory }))
      : [],
    stats,
    groups,
    total: page.total,
    pages: Math.max(1, Math.ceil(page.total / page.pageSize)),
    organizations: orgOptions,
    filterOptions,
    filterCounts,
    item: item ? { ...item, updated: formatDateTime(item.updatedAt, timeZone) } : null,
    canWrite,
    canSave: !!item && canWrite && can(permissions, LIBRARY_TYPE_PERMISSIONS[item.libraryType].write),
    confirmCategory: null,
  };
  return json(view);
}

/**
 * The categories the tree shows. Searching (3 characters or more): the matches with their ancestors, open. Otherwise
 * the top level, and the branch of each of `opened` (the chosen category, the one being edited): its ancestors open
 * and it open, with their children.
 */
function shownTree(
  all: readonly CategoryNode[],
  nodes: ReadonlyMap<string, CategoryNode>,
  search: string,
  opened: readonly string[],
): CategoryNode[] {
  const open = new Set<string>();
  const shown = new Set<string>();
  const ancestorsOf = (id: string) => {
    for (let at: string | null = nodes.get(id)?.parentId ?? null; at && !open.has(at); at = nodes.get(at)?.parentId ?? null) open.add(at);
  };
  if (search.length >= CATEGORY_SEARCH_MIN) {
    for (const n of all) {
      if (!n.path.toLowerCase().includes(search)) continue;
      shown.add(n.id);
      ancestorsOf(n.id);
    }
    for (const id of open) shown.add(id);
  } else {
    for (const id of opened) {
      if (!nodes.has(id)) continue;
      open.add(id);
      ancestorsOf(id);
    }
    for (const n of all) if (n.parentId === null || open.has(n.parentId)) shown.add(n.id);
  }
  return all.filter((n) => shown.has(n.id)).map((n) => ({ ...n, open: open.has(n.id) }));
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
        // No order (the re-parent form): last among the new siblings.
        const sent = textOf(form, "order");
        const order = sent === "" ? Number.NaN : Number(sent);
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
          // The step shows in the category's forms: open them.
          return json({ ...data, state: { ...data.state, edit: id }, confirmCategory: id, confirm: "delete-category", toast: null });
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
