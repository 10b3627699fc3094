/**
 * The library's tables (docs/decisions/library.md): its categories, and an index over the records of every item type
 * that SQLite triggers keep in step with those records, in the same transaction as each write, with the statistics.
 *
 * A source table (drawings, specifications, later prompt chains) gains a `library` column holding what only the library
 * knows of the record (generic, organizations, categories; public where the domain has no such field). Its triggers
 * replace the record's index row on every insert, update and delete; the index row's own triggers keep the join tables
 * (category, tag, organization → item) and the counts in `library_stats`.
 */

/** How one source table maps onto the index row: SQL expressions over `new` (the written row). */
export type SourceColumns = {
  table: string;
  type: string;
  description: string;
  tags: string;
  isPublic: string;
  /** Where the domain keeps them itself (prompt chains); default: the `library` column. */
  isGeneric?: string;
  organizations?: string;
  categories?: string;
};

const lib = (field: string, fallback: string) => `coalesce(json_extract(new.library, '$.${field}'), ${fallback})`;

/** The triggers that keep the index row of each record of `s.table`. */
export function sourceTriggers(s: SourceColumns): string {
  const values = `(id, library_type, name, description, is_public, is_generic, organizations, tags, categories,
      created_at, created_by, updated_at, updated_by)
    values (new.id, '${s.type}', new.name, coalesce(${s.description}, ''), ${s.isPublic},
      ${s.isGeneric ?? lib("isGeneric", "0")}, ${s.organizations ?? lib("organizations", "'[]'")}, coalesce(${s.tags}, '[]'),
      ${s.categories ?? lib("categories", "'[]'")},
      new.created_at, new.created_by, new.updated_at, new.updated_by)`;
  return `
    create trigger ${s.table}_library_insert after insert on ${s.table} begin
      insert into library_items ${values};
    end;
    create trigger ${s.table}_library_update after update on ${s.table} begin
      delete from library_items where id = old.id;
      insert into library_items ${values};
    end;
    create trigger ${s.table}_library_delete after delete on ${s.table} begin
      delete from library_items where id = old.id;
    end;`;
}

/**
 * Adds `delta` to each count of index row `r` (new or old): its categories, tags and organizations from its join rows,
 * its type, author (creator), last editor, and last-modified month and year. (`where true` tells SQLite's parser that `on conflict`
 * is the upsert's, not a join's.)
 */
const bump = (r: "new" | "old", delta: 1 | -1) => `
      insert into library_stats (dimension, key, count)
      select * from (
        select 'category', category_id, ${delta} from library_item_categories where item_id = ${r}.id
        union all select 'tag', tag, ${delta} from library_item_tags where item_id = ${r}.id
        union all select 'organization', organization_id, ${delta} from library_item_organizations where item_id = ${r}.id
        union all select 'type', ${r}.library_type, ${delta}
        union all select 'author', coalesce(${r}.created_by, ''), ${delta}
        union all select 'editor', coalesce(${r}.updated_by, ''), ${delta}
        union all select 'month', substr(${r}.updated_at, 1, 7), ${delta}
        union all select 'year', substr(${r}.updated_at, 1, 4), ${delta}
      ) where true
      on conflict (dimension, key) do update set count = count + excluded.count;`;

/**
 * The same counts kept apart by who may see them (docs/decisions/library.md "Statistics by reader"): `scope` is ''
 * for a public item and its creator for a private one, beside the item's type; a reader's statistics add up the
 * rows of the public scope and their own, for the types they read.
 */
const scopedBump = (r: "new" | "old", delta: 1 | -1) => `
      insert into library_stats (scope, library_type, dimension, key, count)
      select case when ${r}.is_public = 1 then '' else 'u:' || coalesce(${r}.created_by, '') end, ${r}.library_type, d, k, n
      from (
        select 'category' as d, category_id as k, ${delta} as n from library_item_categories where item_id = ${r}.id
        union all select 'tag', tag, ${delta} from library_item_tags where item_id = ${r}.id
        union all select 'organization', organization_id, ${delta} from library_item_organizations where item_id = ${r}.id
        union all select 'author', coalesce(${r}.created_by, ''), ${delta}
        union all select 'editor', coalesce(${r}.updated_by, ''), ${delta}
        union all select 'month', substr(${r}.updated_at, 1, 7), ${delta}
        union all select 'year', substr(${r}.updated_at, 1, 4), ${delta}
        union all select 'type', ${r}.library_type, ${delta}
      ) where true
      on conflict (scope, library_type, dimension, key) do update set count = count + excluded.count;`;

/** The index row's triggers: its join rows, and its counts by `bumpOf`. */
function itemTriggers(bumpOf: (r: "new" | "old", delta: 1 | -1) => string): string {
  return `
  create trigger library_items_insert after insert on library_items begin
    insert or ignore into library_item_categories (category_id, lname, item_id)
      select value, lower(new.name), new.id from json_each(new.categories) where type = 'text';
    insert or ignore into library_item_categories (category_id, lname, item_id)
      select 'other', lower(new.name), new.id
      where not exists (select 1 from library_item_categories where item_id = new.id);
    insert or ignore into library_item_tags (tag, item_id)
      select value, new.id from json_each(new.tags) where type = 'text';
    insert or ignore into library_item_organizations (organization_id, item_id)
      select value, new.id from json_each(new.organizations) where type = 'text';
    ${bumpOf("new", 1)}
  end;

  create trigger library_items_delete after delete on library_items begin
    ${bumpOf("old", -1)}
    delete from library_stats where count <= 0;
    delete from library_item_categories where item_id = old.id;
    delete from library_item_tags where item_id = old.id;
    delete from library_item_organizations where item_id = old.id;
  end;`;
}

export const DRAWINGS: SourceColumns = {
  table: "drawings",
  type: "drawing",
  description: "json_extract(new.data, '$.description')",
  tags: "json_extract(new.data, '$.tags')",
  isPublic: lib("isPublic", "0"),
};

export const SPECIFICATIONS: SourceColumns = {
  table: "specifications",
  type: "specification",
  description: "new.description",
  tags: "new.tags",
  isPublic: "new.is_public",
};

/** Copies every existing record of a source into the index (the insert trigger's work, for rows written before). */
export function backfill(s: SourceColumns): string {
  return `update ${s.table} set name = name;`;
}

/** Prompt chains (migration 104_chains): every library field is a column of their own. */
export const CHAINS: SourceColumns = {
  table: "chains",
  type: "prompt",
  description: "new.description",
  tags: "new.tags",
  isPublic: "new.is_public",
  isGeneric: "new.is_generic",
  organizations: "new.organizations",
  categories: "new.categories",
};

export const LIBRARY_SCHEMA = `
  create table library_categories (
    id text primary key,
    name text not null,
    description text not null default '',
    tags text not null default '[]',
    parent_id text references library_categories (id),
    position integer not null, -- among its siblings, 0 first
    rank integer not null default 0, -- place in the whole tree, parents before children (the list and group-by order)
    created_at text not null,
    created_by text,
    updated_at text not null,
    updated_by text
  );
  create index library_categories_parent on library_categories (parent_id, position);
  -- (rank, id) is unique: walking it in order, then each category's items by name, gives the group-by-category order
  -- with no sort (see LibraryStore.items).
  create unique index library_categories_rank on library_categories (rank, id);
  -- The special category of the uncategorised items: a row so that it takes part in that walk, last. The store never
  -- answers, moves or edits it.
  insert into library_categories (id, name, parent_id, position, rank, created_at, updated_at)
    values ('other', 'Other', null, -1, 2000000000, '1970-01-01T00:00:00.000Z', '1970-01-01T00:00:00.000Z');

  create table library_items (
    id text primary key, -- the record's id
    library_type text not null,
    name text not null,
    description text not null,
    is_public integer not null,
    is_generic integer not null,
    organizations text not null, -- JSON arrays
    tags text not null,
    categories text not null,
    created_at text not null,
    created_by text,
    updated_at text not null,
    updated_by text
  );
  create index library_items_updated on library_items (updated_at desc, id desc);
  create index library_items_name on library_items (lower(name), id);
  create index library_items_type on library_items (library_type, updated_at desc, id desc);

  -- An item under each of its categories ('other' when it has none), in name order within one.
  create table library_item_categories (
    category_id text not null,
    lname text not null,
    item_id text not null,
    primary key (category_id, lname, item_id)
  ) without rowid;
  create index library_item_categories_item on library_item_categories (item_id);
  create table library_item_tags (tag text not null, item_id text not null, primary key (tag, item_id)) without rowid;
  create index library_item_tags_item on library_item_tags (item_id);
  create table library_item_organizations (
    organization_id text not null,
    item_id text not null,
    primary key (organization_id, item_id)
  ) without rowid;
  create index library_item_organizations_item on library_item_organizations (item_id);

  create table library_stats (
    dimension text not null,
    key text not null,
    count integer not null,
    primary key (dimension, key)
  ) without rowid;

  ${itemTriggers(bump)}

  alter table drawings add column library text not null default '{}';
  alter table specifications add column library text not null default '{}';
  ${sourceTriggers(DRAWINGS)}
  ${sourceTriggers(SPECIFICATIONS)}
  ${sourceTriggers(CHAINS)}
  ${backfill(DRAWINGS)}
  ${backfill(SPECIFICATIONS)}
  ${backfill(CHAINS)}
`;

/**
 * Migration 109: the statistics by reader (scope and type), refilled by rewriting every source row once (each index
 * row is deleted and inserted again by the triggers: on the empty table the delete's counts go below zero and are
 * dropped, the insert's stay).
 */
export const LIBRARY_STATS_BY_READER = `
  drop trigger library_items_insert;
  drop trigger library_items_delete;
  drop table library_stats;
  create table library_stats (
    scope text not null,
    library_type text not null,
    dimension text not null,
    key text not null,
    count integer not null,
    primary key (scope, library_type, dimension, key)
  ) without rowid;
  ${itemTriggers(scopedBump)}
  ${backfill(DRAWINGS)}
  ${backfill(SPECIFICATIONS)}
  ${backfill(CHAINS)}
`;
