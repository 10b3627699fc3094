/**
 * The portfolio's tables (migration 060_portfolio). Kept here, beside the code that reads them; db.ts lists it.
 *
 * - `applications`: one row per application, `seq` its integer key (the full-text index's rowid). Text columns as
 *   sent; `ai_summary` is the sanitized HTML and `ai_text` its text (what is indexed); `products` and `tags` JSON
 *   (display order); `products_text` the products' searchable text; `tag_tokens` and `portfolio_token` the tag names
 *   and the portfolio as single index tokens (see search/tokens.ts), so tag and portfolio filters join the full-text
 *   match as doclist intersections instead of row lookups.
 * - `application_tags`: (application, tag) pairs: the tag filters and facets read it by tag or by application.
 * - `tag_counts`: per portfolio and tag name, how many applications carry it (spec 2 §4: add increments, remove
 *   decrements, the entry deleted at zero), kept by triggers on application_tags so no write path can forget it.
 * - `portfolio_meta`: markers (the first start's demo was seeded).
 * - `portfolio_counts`: applications per portfolio (the total of a search without query nor tag), kept by triggers.
 * - `applications_fts`: FTS5, external content (the applications table), kept by triggers.
 */
/** The full-text index's columns, in order (a column's number in highlight() is its place here), and its tokenizer. */
export const FTS_COLUMNS = "title, abstract, claims, specification, ai_text, products_text, tag_tokens, portfolio_token";
export const FTS_TOKENIZE = "unicode61 remove_diacritics 2";

export const PORTFOLIO_SCHEMA = `
  create table applications (
    seq integer primary key,
    id text not null unique,
    source_id text not null default '',
    portfolio_id text not null,
    title text not null default '',
    abstract text not null default '',
    claims text not null default '',
    specification text not null default '',
    ai_summary text not null default '',
    ai_text text not null default '',
    products text not null default '[]',
    products_text text not null default '',
    broad_score real,
    detectable_score real,
    tags text not null default '[]',
    tag_tokens text not null default '',
    portfolio_token text not null,
    created_at text not null,
    created_by text,
    updated_at text not null,
    updated_by text
  );
  create index applications_portfolio on applications (portfolio_id);
  create index applications_portfolio_updated on applications (portfolio_id, updated_at);
  create index applications_portfolio_created on applications (portfolio_id, created_at);
  create index applications_portfolio_broad on applications (portfolio_id, broad_score);
  create index applications_portfolio_detectable on applications (portfolio_id, detectable_score);

  create table application_tags (
    app_seq integer not null references applications (seq) on delete cascade,
    name text not null,
    portfolio_id text not null,
    score real not null default 0,
    primary key (app_seq, name)
  ) without rowid;
  create index application_tags_by_tag on application_tags (name, portfolio_id, app_seq);

  create table tag_counts (
    portfolio_id text not null,
    name text not null,
    count integer not null,
    primary key (portfolio_id, name)
  ) without rowid;
  create index tag_counts_by_count on tag_counts (portfolio_id, count desc, name);

  create table portfolio_meta (
    key text primary key,
    value text not null
  ) without rowid;

  create table portfolio_counts (
    portfolio_id text primary key,
    count integer not null
  ) without rowid;

  create trigger application_tags_count_add after insert on application_tags begin
    insert into tag_counts (portfolio_id, name, count) values (new.portfolio_id, new.name, 1)
      on conflict (portfolio_id, name) do update set count = count + 1;
  end;
  create trigger application_tags_count_remove after delete on application_tags begin
    update tag_counts set count = count - 1 where portfolio_id = old.portfolio_id and name = old.name;
    delete from tag_counts where portfolio_id = old.portfolio_id and name = old.name and count <= 0;
  end;

  create trigger applications_count_add after insert on applications begin
    insert into portfolio_counts (portfolio_id, count) values (new.portfolio_id, 1)
      on conflict (portfolio_id) do update set count = count + 1;
  end;
  create trigger applications_count_remove after delete on applications begin
    update portfolio_counts set count = count - 1 where portfolio_id = old.portfolio_id;
    delete from portfolio_counts where portfolio_id = old.portfolio_id and count <= 0;
  end;
  create trigger applications_count_move after update of portfolio_id on applications
    when old.portfolio_id <> new.portfolio_id begin
    update portfolio_counts set count = count - 1 where portfolio_id = old.portfolio_id;
    delete from portfolio_counts where portfolio_id = old.portfolio_id and count <= 0;
    insert into portfolio_counts (portfolio_id, count) values (new.portfolio_id, 1)
      on conflict (portfolio_id) do update set count = count + 1;
  end;

  create virtual table applications_fts using fts5(
    ${FTS_COLUMNS},
    content = 'applications', content_rowid = 'seq', tokenize = '${FTS_TOKENIZE}'
  );
  create trigger applications_fts_insert after insert on applications begin
    insert into applications_fts (rowid, title, abstract, claims, specification, ai_text, products_text, tag_tokens,
      portfolio_token)
    values (new.seq, new.title, new.abstract, new.claims, new.specification, new.ai_text, new.products_text,
      new.tag_tokens, new.portfolio_token);
  end;
  create trigger applications_fts_delete after delete on applications begin
    insert into applications_fts (applications_fts, rowid, title, abstract, claims, specification, ai_text,
      products_text, tag_tokens, portfolio_token)
    values ('delete', old.seq, old.title, old.abstract, old.claims, old.specification, old.ai_text, old.products_text,
      old.tag_tokens, old.portfolio_token);
  end;
  create trigger applications_fts_update after update of title, abstract, claims, specification, ai_text,
    products_text, tag_tokens, portfolio_token on applications begin
    insert into applications_fts (applications_fts, rowid, title, abstract, claims, specification, ai_text,
      products_text, tag_tokens, portfolio_token)
    values ('delete', old.seq, old.title, old.abstract, old.claims, old.specification, old.ai_text, old.products_text,
      old.tag_tokens, old.portfolio_token);
    insert into applications_fts (rowid, title, abstract, claims, specification, ai_text, products_text, tag_tokens,
      portfolio_token)
    values (new.seq, new.title, new.abstract, new.claims, new.specification, new.ai_text, new.products_text,
      new.tag_tokens, new.portfolio_token);
  end;`;
