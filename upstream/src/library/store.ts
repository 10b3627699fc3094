import crypto from "node:crypto";
import type { Statement } from "better-sqlite3";
import {
  LIBRARY_LIMITS,
  LIBRARY_MESSAGES,
  OTHER_CATEGORY,
  STAT_DIMENSIONS,
  type CategoryCreate,
  type CategoryUpdate,
  type LibraryCategory,
  type LibraryItem,
  type LibraryItemPage,
  type LibraryItemsQuery,
  type LibrarySettings,
  type LibraryStats,
  LibraryType,
  type StatDimension,
} from "../../contract/library";
import type { Db } from "../db";
import { limitOf, prepared } from "../lib/collection";
import { badRequest, isoNow, notFound } from "../lib/http";
import { uniqueTags } from "../lib/tags";

/**
 * One type of library item: the table its records live in (with the `library` column and the triggers of schema.ts)
 * and how its settings are saved through its own domain's store. A new type (prompt chains) adds one of these and its
 * triggers; nothing else in the library changes.
 */
export interface LibrarySource {
  readonly type: LibraryType;
  readonly table: string;
  /**
   * Saves the settings through the domain (its fields by its store and rules, the library's in `library`); false: no
   * record. A refusal of the domain's rules is thrown (its HttpError) and rolls the whole save back.
   */
  save(id: string, settings: LibrarySettings, actor: string | null): boolean;
  /** Where its records keep their category ids: the `library` column's `categories`, or a `categories` column. */
  readonly categoriesIn: "library" | "column";
  /** A new record with the spec's defaults, its id; null when the domain cannot make one without more (a file). */
  create(actor: string | null): string | null;
}

/** The library's own part of a record (its `library` column). */
export type LibraryAttributes = { isGeneric: boolean; organizations: string[]; categories: string[]; isPublic?: boolean };

type CategoryRow = {
  id: string;
  name: string;
  description: string;
  tags: string;
  parent_id: string | null;
  position: number;
  created_at: string;
  created_by: string | null;
  updated_at: string;
  updated_by: string | null;
};

type ItemRow = {
  id: string;
  library_type: LibraryType;
  name: string;
  description: string;
  is_public: number;
  is_generic: number;
  organizations: string;
  tags: string;
  categories: string;
  created_at: string;
  created_by: string | null;
  updated_at: string;
  updated_by: string | null;
  grp?: string;
};

const parseList = (raw: string): string[] => {
  try {
    const value = JSON.parse(raw) as unknown;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
};

const toCategory = (r: CategoryRow): LibraryCategory => ({
  id: r.id,
  name: r.name,
  description: r.description,
  tags: parseList(r.tags),
  parentId: r.parent_id,
  order: r.position,
  createdAt: r.created_at,
  createdBy: r.created_by,
  updatedAt: r.updated_at,
  updatedBy: r.updated_by,
});

const toItem = (r: ItemRow): LibraryItem => ({
  id: r.id,
  libraryType: r.library_type,
  name: r.name,
  isPublic: r.is_public === 1,
  isGeneric: r.is_generic === 1,
  organizations: parseList(r.organizations),
  description: r.description,
  tags: parseList(r.tags),
  categories: parseList(r.categories),
  createdAt: r.created_at,
  createdBy: r.created_by,
  updatedAt: r.updated_at,
  updatedBy: r.updated_by,
});

/** The library's attributes as stored in a record's `library` column. */
export function libraryColumn(settings: LibrarySettings, withPublic: boolean): string {
  const attributes: LibraryAttributes = {
    isGeneric: settings.isGeneric,
    organizations: [...new Set(settings.organizations)],
    categories: [...new Set(settings.categories)],
  };
  if (withPublic) attributes.isPublic = settings.isPublic;
  return JSON.stringify(attributes);
}

/** Categories, the item index and the statistics (docs/decisions/library.md). */
export class LibraryStore {
  private readonly categoryRows: Statement;
  private readonly categoryRow: Statement;
  private readonly insertCategory: Statement;
  private readonly itemRow: Statement;
  private readonly sources: Map<LibraryType, LibrarySource>;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    sources: readonly LibrarySource[],
  ) {
    this.sources = new Map(sources.map((s) => [s.type, s]));
    this.categoryRows = db.prepare(`select * from library_categories where id <> '${OTHER_CATEGORY}' order by rank, id`);
    this.categoryRow = db.prepare("select * from library_categories where id = ?");
    this.insertCategory = db.prepare(
      `insert into library_categories (id, name, description, tags, parent_id, position, rank, created_at, created_by, updated_at, updated_by)
       values (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)`,
    );
    this.itemRow = db.prepare("select * from library_items where id = ?");
  }

  /** The types of the sources wired in. */
  types(): LibraryType[] {
    return [...this.sources.keys()];
  }

  source(type: LibraryType): LibrarySource | undefined {
    return this.sources.get(type);
  }

  // ---------------------------------------------------------------- categories

  /** Every category, parents before children, siblings in order. */
  categories(): LibraryCategory[] {
    return (this.categoryRows.all() as CategoryRow[]).map(toCategory);
  }

  category(id: string): LibraryCategory | null {
    const row = this.categoryRow.get(id) as CategoryRow | undefined;
    return row ? toCategory(row) : null;
  }

  createCategory(input: Required<CategoryCreate>, actor: string | null): LibraryCategory {
    return this.db.transaction(() => {
      const parentId = input.parentId ?? null;
      this.checkParent(parentId, null);
      const count = this.categories().length;
      if (count >= LIBRARY_LIMITS.categories) throw badRequest(`At most ${LIBRARY_LIMITS.categories} categories.`);
      const id = crypto.randomUUID();
      const at = isoNow(this.now);
      const position = this.siblings(parentId).length;
      this.insertCategory.run(id, input.name, input.description, JSON.stringify(uniqueTags(input.tags)), parentId, position, at, actor, at, actor);
      this.rerank();
      return this.category(id)!;
    })();
  }

  /** Edits, re-parents and reorders; null when missing. */
  updateCategory(id: string, changes: CategoryUpdate, actor: string | null): LibraryCategory | null {
    if (id === OTHER_CATEGORY) throw badRequest(LIBRARY_MESSAGES.otherReadOnly);
    return this.db.transaction(() => {
      const current = this.category(id);
      if (!current) return null;
      const at = isoNow(this.now);
      this.db
        .prepare("update library_categories set name = ?, description = ?, tags = ?, updated_at = ?, updated_by = ? where id = ?")
        .run(
          changes.name ?? current.name,
          changes.description ?? current.description,
          JSON.stringify(uniqueTags(changes.tags ?? current.tags)),
          at,
          actor,
          id,
        );
      if (changes.parentId !== undefined || changes.order !== undefined) {
        const parentId = changes.parentId === undefined ? current.parentId : changes.parentId;
        this.checkParent(parentId, id);
        const from = this.siblings(current.parentId).filter((s) => s !== id);
        const to = parentId === current.parentId ? from : this.siblings(parentId).filter((s) => s !== id);
        const at2 = Math.min(changes.order ?? to.length, to.length);
        to.splice(at2, 0, id);
        this.db.prepare("update library_categories set parent_id = ? where id = ?").run(parentId, id);
        if (parentId !== current.parentId) this.renumber(from);
        this.renumber(to);
        this.rerank();
      }
      return this.category(id);
    })();
  }

  /**
   * Deletes it: its children move up to its parent (after its siblings, in their order) and its items lose it (an item
   * left with none is in 'other'). False when missing.
   */
  removeCategory(id: string): boolean {
    if (id === OTHER_CATEGORY) throw badRequest(LIBRARY_MESSAGES.otherReadOnly);
    return this.db.transaction(() => {
      const current = this.category(id);
      if (!current) return false;
      const siblings = this.siblings(current.parentId).filter((s) => s !== id);
      const children = this.siblings(id);
      this.db.prepare("update library_categories set parent_id = ? where parent_id = ?").run(current.parentId, id);
      this.db.prepare("delete from library_categories where id = ?").run(id);
      this.renumber([...siblings, ...children]);
      this.rerank();
      for (const source of this.sources.values()) {
        const kept = (column: string, path: string) =>
          `(select json_group_array(value) from json_each(${column}, '${path}') where value <> @id)`;
        const set =
          source.categoriesIn === "library"
            ? `library = json_set(library, '$.categories', ${kept("library", "$.categories")})`
            : `categories = ${kept("categories", "$")}`;
        this.db
          .prepare(`update ${source.table} set ${set} where id in (select item_id from library_item_categories where category_id = @id)`)
          .run({ id });
      }
      return true;
    })();
  }

  /** Category tags in use containing `q`, for the tag input. */
  categoryTags(): string[] {
    return this.db
      .prepare("select distinct t.value from library_categories c, json_each(c.tags) t order by lower(t.value)")
      .pluck()
      .all() as string[];
  }

  private siblings(parentId: string | null): string[] {
    return this.db
      .prepare(`select id from library_categories where parent_id is ? and id <> '${OTHER_CATEGORY}' order by position, id`)
      .pluck()
      .all(parentId) as string[];
  }

  private renumber(ids: readonly string[]): void {
    const set = this.db.prepare("update library_categories set position = ? where id = ? and position <> ?");
    ids.forEach((id, i) => set.run(i, id, i));
  }

  /** A parent must exist and not be the category itself or one of its descendants. */
  private checkParent(parentId: string | null, id: string | null): void {
    if (parentId === null) return;
    if (parentId === OTHER_CATEGORY) throw badRequest(LIBRARY_MESSAGES.otherReadOnly);
    let depth = 0;
    for (let at: string | null = parentId; at !== null; depth++) {
      if (at === id) throw badRequest(LIBRARY_MESSAGES.cycle);
      const row = this.categoryRow.get(at) as CategoryRow | undefined;
      if (!row) throw badRequest(LIBRARY_MESSAGES.categoryNotFound);
      at = row.parent_id;
    }
    if (depth >= LIBRARY_LIMITS.depth) throw badRequest(`Categories nest at most ${LIBRARY_LIMITS.depth} deep.`);
  }

  /** Writes each category's place in the whole tree (pre-order), which the list and the group-by order read. */
  private rerank(): void {
    const rows = this.db.prepare(`select id, parent_id, position, rank from library_categories where id <> '${OTHER_CATEGORY}'`).all() as {
      id: string;
      parent_id: string | null;
      position: number;
      rank: number;
    }[];
    const children = new Map<string | null, typeof rows>();
    for (const r of rows) {
      const list = children.get(r.parent_id) ?? [];
      list.push(r);
      children.set(r.parent_id, list);
    }
    const set = this.db.prepare("update library_categories set rank = ? where id = ?");
    let rank = 0;
    const visit = (parent: string | null) => {
      const list = (children.get(parent) ?? []).sort((a, b) => a.position - b.position || a.id.localeCompare(b.id));
      for (const r of list) {
        if (r.rank !== rank) set.run(rank, r.id);
        rank++;
        visit(r.id);
      }
    };
    visit(null);
  }

  // ---------------------------------------------------------------- items

  item(id: string): LibraryItem | null {
    const row = this.itemRow.get(id) as ItemRow | undefined;
    return row ? toItem(row) : null;
  }

  /**
   * One page of the items of `types` (those the reader may see), filtered and ordered by the group-by. By category with
   * no filter on the items, the walk is the categories' (rank, id) index in order and each category's items by name
   * from its join rows' primary key: SQLite reads the page's rows and stops, with no sort (CROSS JOIN keeps that loop
   * order), and counts the join rows alone. With a filter on the items, the items are read first (by the filter) and
   * what matches is sorted. An item under a category id that names no category is not in this order (it still lists by date and
   * shows 'Unknown Category').
   */
  items(query: LibraryItemsQuery, types: readonly LibraryType[], viewer: string): LibraryItemPage {
    const conditions: string[] = [];
    const params: unknown[] = [];
    const wanted = query.type ? types.filter((t) => query.type!.includes(t)) : types;
    // Every type wired in: no condition. Else the (validated) type names as literals, so an index serves the test.
    if (wanted.length < this.sources.size) {
      conditions.push(`i.library_type in (${typeList(wanted)})`);
    }
    const name = query.name.trim().toLowerCase();
    if (name) {
      conditions.push("instr(lower(i.name), ?) > 0");
      params.push(name);
    }
    const within = (into: string[], table: string, column: string, values: readonly string[] | undefined) => {
      if (!values) return;
      into.push(`i.id in (select item_id from ${table} where ${column} in (select value from json_each(?)))`);
      params.push(JSON.stringify(values));
    };
    within(conditions, "library_item_organizations", "organization_id", query.organization);
    within(conditions, "library_item_tags", "tag", query.tag);
    if (query.author) {
      conditions.push("coalesce(i.updated_by, '') in (select value from json_each(?))");
      params.push(JSON.stringify(query.author));
    }
    if (query.from) {
      conditions.push("i.updated_at >= ?");
      params.push(new Date(query.from).toISOString());
    }
    if (query.to) {
      conditions.push("i.updated_at < ?");
      params.push(new Date(query.to).toISOString());
    }
    const whereOf = (list: readonly string[]) => (list.length ? `where ${list.join(" and ")}` : "");
    // Only what the reader may see: public items and their own private ones (the statistics count the same).
    const visible = "(i.is_public = 1 or i.created_by = ?)";
    // With no filter but the type, the count is the maintained statistics' (by category: one row per item and category).
    const unfiltered = conditions.length === (wanted.length < this.sources.size ? 1 : 0);
    let count: string;
    let countParams: unknown[];
    let rows: string;
    if (query.groupBy === "category") {
      const all = [...conditions, visible];
      const rowParams = [...params, viewer];
      if (query.categories) {
        all.push("c.id in (select value from json_each(?))");
        rowParams.push(JSON.stringify(query.categories));
      }
      const where = whereOf(all);
      const order = "order by c.rank, c.id, ic.lname, ic.item_id";
      // The walk also serves a filter by type alone (a type is a fifth of the items or more: the page is found soon).
      if (unfiltered) {
        const walk = "library_categories c cross join library_item_categories ic on ic.category_id = c.id";
        count = `select coalesce(sum(count), 0) as n from library_stats
          where scope in ('', ?) and library_type in (${typeList(wanted)}) and dimension = 'category'
            and key in (select id from library_categories) ${query.categories ? "and key in (select value from json_each(?))" : ""}`;
        countParams = [scopeOf(viewer), ...(query.categories ? [JSON.stringify(query.categories)] : [])];
        rows = `select i.*, ic.category_id as grp from ${walk} cross join library_items i on i.id = ic.item_id ${where} ${order}`;
      } else {
        const joined =
          "library_items i cross join library_item_categories ic on ic.item_id = i.id cross join library_categories c on c.id = ic.category_id";
        count = `select count(*) as n from ${joined} ${where}`;
        countParams = rowParams;
        rows = `select i.*, ic.category_id as grp from ${joined} ${where} ${order}`;
      }
      params.splice(0, params.length, ...rowParams);
    } else {
      const byStats = unfiltered && !query.categories;
      within(conditions, "library_item_categories", "category_id", query.categories);
      const where = whereOf([...conditions, visible]);
      params.push(viewer);
      if (byStats) {
        count = `select coalesce(sum(count), 0) as n from library_stats
          where scope in ('', ?) and library_type in (${typeList(wanted)}) and dimension = 'type'`;
        countParams = [scopeOf(viewer)];
      } else {
        count = `select count(*) as n from library_items i ${where}`;
        countParams = params;
      }
      rows = `select i.*, '' as grp from library_items i ${where} order by i.updated_at desc, i.id desc`;
    }
    const total = (prepared(this.db, count).get(...countParams) as { n: number }).n;
    const found = prepared(this.db, `${rows} ${limitOf(query.pageSize)} offset ?`).all(
      ...params,
      (query.page - 1) * query.pageSize,
    ) as ItemRow[];
    return {
      items: found.map((r) => ({ ...toItem(r), group: r.grp ?? "" })),
      total,
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  /** Saves an item's settings through its source; null when there is no such item. */
  saveSettings(id: string, settings: LibrarySettings, actor: string | null): LibraryItem | null {
    const current = this.item(id);
    const source = current ? this.sources.get(current.libraryType) : undefined;
    if (!current || !source) return null;
    const saved = this.db.transaction(() => source.save(id, settings, actor))();
    return saved ? this.item(id) : null;
  }

  /** A new item of `type` with the spec's defaults, or null when its domain needs more than defaults. */
  createItem(type: LibraryType, actor: string | null): LibraryItem | null {
    const source = this.sources.get(type);
    if (!source) throw notFound(LIBRARY_MESSAGES.itemNotFound);
    const id = this.db.transaction(() => source.create(actor))();
    return id ? this.item(id) : null;
  }

  // ---------------------------------------------------------------- statistics

  /**
   * The maintained counts of what `viewer` may see (public items and their own private ones, of `types`): one read of
   * `library_stats`. Months and years are `timeZone`'s: the maintained ones are UTC's, and the items between a UTC
   * month boundary and the zone's (a few hours) are moved across it, read from the index by their last change.
   */
  stats(viewer: string, types: readonly LibraryType[], timeZone = "UTC"): LibraryStats {
    if (!types.length) return statsOf([]);
    const rows = prepared(
      this.db,
      // Summed in statsOf: a GROUP BY here sorts every row through a temporary B-tree first.
      `select dimension, key, count from library_stats where scope in ('', ?) and library_type in (${typeList(types)})`,
    ).all(scopeOf(viewer)) as StatRow[];
    const stats = statsOf(rows);
    if (timeZone !== "UTC") this.shiftMonths(stats, viewer, types, timeZone);
    return stats;
  }

  private shiftMonths(stats: LibraryStats, viewer: string, types: readonly LibraryType[], timeZone: string): void {
    const between = prepared(
      this.db,
      `select count(*) as n from library_items i
       where i.updated_at >= ? and i.updated_at < ? and (i.is_public = 1 or i.created_by = ?) and i.library_type in (${typeList(types)})`,
    );
    // Each month boundary of the months counted: the start of each month and of the one after it.
    const starts = new Set<string>();
    for (const month of Object.keys(stats.counts.month)) {
      const [y, m] = month.split("-").map(Number) as [number, number];
      starts.add(monthKey(y, m - 1));
      starts.add(monthKey(y, m));
    }
    const shift = (dimension: "month" | "year", from: string, to: string, n: number) => {
      const counts = stats.counts[dimension];
      counts[from] = (counts[from] ?? 0) - n;
      counts[to] = (counts[to] ?? 0) + n;
      if (counts[from]! <= 0) delete counts[from];
    };
    for (const start of starts) {
      const [y, m] = start.split("-").map(Number) as [number, number];
      const utc = Date.UTC(y, m - 1, 1);
      const local = zoneMidnight(y, m - 1, timeZone);
      if (local === utc) continue;
      const earlier = monthKey(y, m - 2);
      const [lo, hi] = local < utc ? [local, utc] : [utc, local];
      const { n } = between.get(new Date(lo).toISOString(), new Date(hi).toISOString(), viewer) as { n: number };
      if (!n) continue;
      // East of UTC the zone's month starts first: those items are the later month's; west, the earlier's.
      const [from, to] = local < utc ? [earlier, start] : [start, earlier];
      shift("month", from, to, n);
      if (m === 1) shift("year", from.slice(0, 4), to.slice(0, 4), n);
    }
  }

  /** The same counts counted over every item the viewer may see (the tests' and the bench's check; never on a request). */
  recount(viewer: string, types: readonly LibraryType[]): LibraryStats {
    const seen = `(select * from library_items where (is_public = 1 or created_by = @viewer) and library_type in (${typeList(types)}))`;
    const rows = this.db
      .prepare(
        `with v as ${seen}
         select 'category' as dimension, key, count(*) as count from (
           select distinct i.id, c.value as key from v i, json_each(i.categories) c where c.type = 'text'
           union all select i.id, 'other' from v i
           where not exists (select 1 from json_each(i.categories) c where c.type = 'text')
         ) group by key
         union all select 'tag', t.value, count(distinct i.id) from v i, json_each(i.tags) t where t.type = 'text' group by t.value
         union all select 'organization', o.value, count(distinct i.id) from v i, json_each(i.organizations) o where o.type = 'text' group by o.value
         union all select 'type', library_type, count(*) from v group by library_type
         union all select 'author', coalesce(created_by, ''), count(*) from v group by coalesce(created_by, '')
         union all select 'editor', coalesce(updated_by, ''), count(*) from v group by coalesce(updated_by, '')
         union all select 'month', substr(updated_at, 1, 7), count(*) from v group by substr(updated_at, 1, 7)
         union all select 'year', substr(updated_at, 1, 4), count(*) from v group by substr(updated_at, 1, 4)`,
      )
      .all({ viewer }) as StatRow[];
    return statsOf(rows);
  }
}

/** The statistics' scope of a reader's private items ('' is the public one's; see schema.ts). */
const scopeOf = (viewer: string) => `u:${viewer}`;

/** Validated type names as SQL literals (so that an index serves the test). */
const typeList = (types: readonly LibraryType[]) => types.map((t) => `'${LibraryType.parse(t)}'`).join(", ") || "null";

/** 'YYYY-MM' of the month `month` (0-based, may overflow) of `year`. */
const monthKey = (year: number, month: number) => {
  const d = new Date(Date.UTC(year, month, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
};

/** One formatter per zone: making one costs far more than using it. */
const zoneFormats = new Map<string, Intl.DateTimeFormat>();
function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let f = zoneFormats.get(timeZone);
  if (!f) {
    const options = { timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" } as const;
    f = new Intl.DateTimeFormat("en-US", options);
    if (zoneFormats.size < 1_000) zoneFormats.set(timeZone, f);
  }
  return f;
}

/** The instant (ms) of midnight starting the 1st of `month` (0-based) of `year` in `timeZone`. */
function zoneMidnight(year: number, month: number, timeZone: string): number {
  const utc = Date.UTC(year, month, 1);
  const offsetAt = (t: number) => {
    const f = zoneFormat(timeZone).formatToParts(new Date(t));
    const v = (type: string) => Number(f.find((p) => p.type === type)?.value);
    return Date.UTC(v("year"), v("month") - 1, v("day"), v("hour"), v("minute"), v("second")) - (t - (t % 1000));
  };
  // The offset at the guess, then at the answer (a change of offset near midnight).
  const first = utc - offsetAt(utc);
  return utc - offsetAt(first);
}

type StatRow = { dimension: StatDimension; key: string; count: number };

function statsOf(rows: readonly StatRow[]): LibraryStats {
  const counts = Object.fromEntries(STAT_DIMENSIONS.map((d) => [d, {} as Record<string, number>])) as LibraryStats["counts"];
  for (const r of rows) if (r.count > 0 && counts[r.dimension]) counts[r.dimension][r.key] = (counts[r.dimension][r.key] ?? 0) + r.count;
  const total = Object.values(counts.type).reduce((a, b) => a + b, 0);
  return { total, counts };
}
