/**
 * The chains table (migration 104_chains, docs/decisions/chains.md): the current version of each chain, settings in
 * their own columns (the list filters and sorts on them), the template as JSON. Drafts and older versions live in the
 * versions kit's tables under kind "prompt".
 */
export const CHAINS_SCHEMA = `
  create table chains (
    id text primary key,
    name text not null,
    is_public integer not null default 0,
    is_generic integer not null default 0,
    description text not null default '',
    organizations text not null default '[]', -- JSON array of organization ids
    categories text not null default '[]',    -- JSON array of library category ids
    tags text not null default '[]',          -- JSON array
    template text not null,                   -- JSON: { chain, options, chat }
    revision integer not null default 0,      -- the version that is current (the versions kit's revision)
    comment text not null default '',         -- that version's comment
    created_at text not null,
    created_by text,
    updated_at text not null,
    updated_by text
  );
  create index chains_lower_name on chains (lower(name), id);
  create index chains_created_at on chains (created_at, id);
  create index chains_updated_at on chains (updated_at, id);
`;
