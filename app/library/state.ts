import {
  LIBRARY_LIMITS,
  LIBRARY_TYPES,
  OTHER_CATEGORY,
  type LibraryCategory,
  type LibraryGroup,
  type LibraryItemsQueryInput,
  type LibraryType,
} from "@contract/library";
import { LIBRARY } from "./texts";

/** The filter dropdown's lists (spec 3 §2.7), each a repeated URL parameter. */
export const FILTER_LISTS = ["client", "type", "editor", "tags"] as const;
export type FilterList = (typeof FILTER_LISTS)[number];
/** Filter lists show this many values, then a more/less control (spec 3 §9). */
export const FILTER_SHOWN = 5;

/** Everything the library shows is in its URL (spec 3 §2.7). */
export type LibraryState = {
  groupBy: LibraryGroup;
  name: string;
  tag: string;
  cat: string;
  page: number;
  id: string;
  edit: string;
  csearch: string;
  /** The item settings' category picker search (without JavaScript: a GET of the page). */
  pick: string;
  more: FilterList[];
  chosen: Record<FilterList, string[]>;
};

const bounded = (v: string | null, max = 200) => (v ?? "").trim().slice(0, max);

export function stateOf(url: URL): LibraryState {
  const p = url.searchParams;
  const list = (name: string) => [...new Set(p.getAll(name).map((v) => bounded(v)).filter(Boolean))].slice(0, 50);
  const chosen = Object.fromEntries(FILTER_LISTS.map((f) => [f, list(f)])) as Record<FilterList, string[]>;
  chosen.type = chosen.type.filter((t) => (LIBRARY_TYPES as readonly string[]).includes(t));
  const page = Number(p.get("page"));
  return {
    groupBy: p.get("groupBy") === "date" ? "date" : "category",
    name: bounded(p.get("name")),
    tag: bounded(p.get("tag"), 100),
    cat: bounded(p.get("cat"), 100),
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    id: bounded(p.get("id"), 100),
    edit: bounded(p.get("edit"), 100),
    csearch: bounded(p.get("csearch")),
    pick: bounded(p.get("pick")),
    more: list("more").filter((m): m is FilterList => (FILTER_LISTS as readonly string[]).includes(m)),
    chosen,
  };
}

/** The URL of `state` with `changes` (null drops a value); page 1 unless a page is given. */
export function hrefOf(state: LibraryState, changes: Partial<Record<keyof LibraryState, unknown>>): string {
  const s = { ...state, page: 1, ...changes } as LibraryState;
  const p = new URLSearchParams();
  if (s.groupBy !== "category") p.set("groupBy", s.groupBy);
  for (const key of ["name", "tag", "cat", "csearch", "edit", "id", "pick"] as const) if (s[key]) p.set(key, s[key]);
  for (const f of FILTER_LISTS) for (const v of s.chosen[f]) p.append(f, v);
  for (const m of s.more) p.append("more", m);
  if (s.page > 1) p.set("page", String(s.page));
  const q = p.toString();
  return q ? `/library?${q}` : "/library";
}

/** The upstream query of the state. */
export function itemsQuery(state: LibraryState): LibraryItemsQueryInput {
  const tags = [...new Set([state.tag, ...state.chosen.tags].filter(Boolean))];
  const join = (values: readonly string[]) => (values.length ? values.join(",") : undefined);
  return {
    groupBy: state.groupBy,
    name: state.name,
    type: join(state.chosen.type),
    organization: join(state.chosen.client),
    author: join(state.chosen.editor),
    tag: join(tags),
    categories: state.cat || undefined,
    page: state.page,
    pageSize: 50,
  };
}

/**
 * A category as the tree shows it: its path of names ("Parent > Child"), its depth, its number of children, whether
 * its branch is open.
 */
export type CategoryNode = {
  id: string;
  name: string;
  path: string;
  depth: number;
  parentId: string | null;
  order: number;
  last: boolean;
  children: number;
  open: boolean;
};

export function categoryNodes(categories: readonly LibraryCategory[]): CategoryNode[] {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const siblings = new Map<string | null, number>();
  for (const c of categories) siblings.set(c.parentId, (siblings.get(c.parentId) ?? 0) + 1);
  return categories.map((c) => {
    const names: string[] = [];
    for (let at: LibraryCategory | undefined = c; at && names.length < 25; at = at.parentId ? byId.get(at.parentId) : undefined) {
      names.unshift(at.name);
    }
    return {
      id: c.id,
      name: c.name,
      path: names.join(" > "),
      depth: names.length - 1,
      parentId: c.parentId,
      order: c.order,
      last: c.order >= (siblings.get(c.parentId) ?? 1) - 1,
      children: siblings.get(c.id) ?? 0,
      open: false,
    };
  });
}

/** Category searches run for empty text or at least this many characters (spec 3 §5, §9). */
export const CATEGORY_SEARCH_MIN = 3;
/** ... this long after typing stops. */
export const CATEGORY_SEARCH_DEBOUNCE_MS = 300;
/** A multi-select shows at most this many options (spec 3 §5, §9). */
export const PICK_SHOWN = LIBRARY_LIMITS.selection;

/** Whether a category search runs for `text`: empty, or long enough. */
export const searchRuns = (text: string) => text.trim().length === 0 || text.trim().length >= CATEGORY_SEARCH_MIN;

/**
 * The category picker's options for `search` (its path holds it, case-insensitive; a search too short to run is
 * empty): at most PICK_SHOWN, in tree order, and how many matched.
 */
export function pickCategories(nodes: readonly CategoryNode[], search: string): { options: { value: string; label: string }[]; matched: number } {
  const text = searchRuns(search) ? search.trim().toLowerCase() : "";
  const matches = text ? nodes.filter((n) => n.path.toLowerCase().includes(text)) : nodes;
  return { options: matches.slice(0, PICK_SHOWN).map((n) => ({ value: n.id, label: n.path })), matched: matches.length };
}

/** A category id's name: its path, 'Other', or 'Unknown Category'. */
export function categoryLabel(id: string, nodes: ReadonlyMap<string, CategoryNode>): string {
  if (id === OTHER_CATEGORY) return LIBRARY.other;
  return nodes.get(id)?.path ?? LIBRARY.unknownCategory;
}

/** An organization id's name, or 'Unknown Organization'. */
export function organizationLabel(id: string, names: ReadonlyMap<string, string>): string {
  return names.get(id) ?? LIBRARY.unknownOrganization;
}

/**
 * The date group of a last change (spec 3 §2.7): the current month, then this year's earlier months, then years —
 * in the user's time zone.
 */
export function dateGroup(iso: string, now: Date, timeZone: string): string {
  const parts = (d: Date) => {
    const f = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "long" }).formatToParts(d);
    return { year: f.find((x) => x.type === "year")!.value, month: f.find((x) => x.type === "month")!.value };
  };
  const at = parts(new Date(iso));
  const today = parts(now);
  return at.year === today.year ? `${at.month} ${at.year}` : at.year;
}

/** The screen that edits an item of `type` (the link beside its settings). */
export function editorPath(type: LibraryType, id: string): string {
  const e = encodeURIComponent(id);
  switch (type) {
    case "drawing":
      return `/drawings/${e}/edit`;
    case "specification":
      return `/specifications/${e}/edit`;
    case "prompt":
      return `/chains/${e}/edit`;
  }
}

/** Where '+ new item' goes for a type whose domain cannot make one from defaults (a drawing needs its file). */
export const NEW_ITEM_SCREENS: Partial<Record<LibraryType, string>> = {
  drawing: "/drawings/create",
  prompt: "/chains/create",
};
