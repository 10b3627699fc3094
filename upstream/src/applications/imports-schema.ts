/**
 * The CSV imports' tables (migration 095_portfolio_imports; db.ts lists it, imports.ts uses them): each job and its
 * report, the rows it staged, and the journal that undoes what it applied.
 */
export const PORTFOLIO_IMPORTS_SCHEMA = `
  create table portfolio_imports (
    id text primary key,
    owner text not null, -- the user id that may read it
    actor text, -- the email written as createdBy/updatedBy
    portfolio_id text not null,
    columns text not null, -- JSON: the header's columns
    status text not null, -- running | completed | failed
    phase text not null, -- staging | applying | undoing | done
    processed integer not null default 0,
    total integer,
    progress real not null default 0,
    staged integer not null default 0,
    applied integer not null default 0,
    updated integer not null default 0,
    updated_ids text not null default '[]',
    rejected_total integer not null default 0,
    error text,
    started_at text not null,
    finished_at text
  );
  create index portfolio_imports_phase on portfolio_imports (phase);
  create table portfolio_import_rejections (
    job_id text not null,
    n integer not null,
    line integer not null,
    reason text not null,
    primary key (job_id, n)
  ) without rowid;
  create table portfolio_import_rows (
    job_id text not null,
    n integer not null, -- order in the file
    line integer not null,
    app_id text not null,
    row text not null, -- JSON: the checked values and the columns given
    primary key (job_id, n)
  ) without rowid;
  create table portfolio_import_undo (
    job_id text not null,
    app_id text not null,
    n integer not null, -- order journaled
    before text, -- JSON: the applications row before the import, null when the import created it
    primary key (job_id, app_id)
  ) without rowid;
  create index portfolio_import_undo_order on portfolio_import_undo (job_id, n);`;
