/**
 * The tables of versioned documents (docs/decisions/versions-kit.md), shared by every kind: a kind's current
 * document stays in its own table (the docket engine reads milestone templates there, unchanged); its draft and its
 * revisions live here, keyed by kind and document id.
 */
export const VERSIONS_SCHEMA = `
  -- At most one draft per document.
  create table versioned_drafts (
    id text primary key,           -- a draft's own id (spec 3 §3: a draft is addressable)
    kind text not null,
    document_id text not null,
    version integer not null,      -- bumped on every save: the draft's concurrency token
    base_revision integer not null, -- the current document's revision when the draft was started
    data text not null,            -- JSON: the whole document
    created_at text not null,
    created_by text,
    updated_at text not null,
    updated_by text,
    unique (kind, document_id)
  );
  -- Immutable: a revision is inserted once and never updated; activating an old one inserts a new one.
  create table versioned_revisions (
    kind text not null,
    document_id text not null,
    revision integer not null,
    commit_message text not null default '',
    author text,
    created_at text not null,
    activated_from integer,
    data text not null,            -- JSON: the whole document
    primary key (kind, document_id, revision)
  ) without rowid;
`;

/**
 * Milestone templates adopt the kit: each template's content becomes its revision 1, and a template's pending changes
 * (a draft row of milestone_templates with draft_of) move to versioned_drafts under the same id. Drafts that are new
 * templates (draft_of null) stay rows of milestone_templates: the list shows them.
 */
export const TEMPLATE_VERSIONS_MIGRATION = `
  ${VERSIONS_SCHEMA}
  insert into versioned_revisions (kind, document_id, revision, commit_message, author, created_at, data)
    select 'milestone-template', id, 1, coalesce(json_extract(data, '$.commitMessage'), ''), coalesce(updated_by, created_by), updated_at,
           json_set(json_remove(data, '$.commitMessage'), '$.title', title)
    from milestone_templates where type = 'template';
  update milestone_templates set revision = 1 where type = 'template';
  insert into versioned_drafts (id, kind, document_id, version, base_revision, data, created_at, created_by, updated_at, updated_by)
    select d.id, 'milestone-template', d.draft_of, 1, coalesce(t.revision, 0), json_set(json_remove(d.data, '$.commitMessage'), '$.title', d.title),
           d.created_at, d.created_by, d.updated_at, d.updated_by
    from milestone_templates d left join milestone_templates t on t.id = d.draft_of
    where d.type = 'draft' and d.draft_of is not null;
  delete from milestone_templates where type = 'draft' and draft_of is not null;
`;
