import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { PORTFOLIO_SCHEMA } from "./applications/schema";

export type Db = Database.Database;

/**
 * One schema change. Migrations run in list order, each exactly once per database; `PRAGMA user_version` holds how
 * many of them the database has applied. To change the schema, APPEND a migration (never edit or reorder a shipped
 * one): `{ id: "004_specifications", sql: "create table specifications (...);" }`.
 */
export type Migration = { id: string; sql: string };

/** Audit columns every record table carries (ISO 8601 timestamps; `*_by` is the acting user's email or null). */
const AUDIT = `
  created_at text not null,
  created_by text,
  updated_at text not null,
  updated_by text`;

export const MIGRATIONS: readonly Migration[] = [
  {
    id: "001_users",
    sql: `
      create table users (
        id text primary key,
        email text not null unique collate nocase,
        first_name text not null default '',
        last_name text not null default '',
        password_hash text not null,
        is_bot integer not null default 0,
        script_key text,
        permissions text not null default '[]', -- JSON array of permission strings
        ${AUDIT}
      );
      create index users_created_at on users (created_at, id);`,
  },
  {
    id: "002_organizations",
    sql: `
      create table organizations (
        id text primary key,
        name text not null,
        data text not null default '{}', -- JSON object: fields later issues add
        ${AUDIT}
      );
      create index organizations_name on organizations (name collate nocase);
      create table user_organizations (
        user_id text not null references users (id) on delete cascade,
        organization_id text not null references organizations (id) on delete cascade,
        position integer not null,
        primary key (user_id, organization_id)
      );
      create index user_organizations_organization on user_organizations (organization_id);`,
  },
  {
    id: "010_teams",
    sql: `
      create table teams (
        id text primary key,
        name text not null unique collate nocase,
        assistants_team integer not null default 0,
        ${AUDIT}
      );
      create index teams_created_at on teams (created_at, id);
      create table team_members (
        team_id text not null references teams (id) on delete cascade,
        email text not null collate nocase,
        position integer not null,
        primary key (team_id, email)
      );`,
  },
  {
    id: "010_bot_scripts",
    sql: `
      create table bot_script_versions (
        key text primary key, -- {script}/v{version}/{file name}, the file's path under DATA_DIR/bot-scripts
        script text not null,
        version integer not null,
        message text not null default '',
        created_at text not null,
        created_by text,
        unique (script, version)
      );`,
  },
  {
    id: "010_user_settings",
    sql: `
      create table user_settings (
        owner text not null collate nocase, -- the owner's email
        key text not null,
        value text not null, -- JSON
        secured integer not null default 0,
        ${AUDIT},
        primary key (owner, key)
      );`,
  },
  {
    id: "010_pair_authorizations",
    sql: `
      create table pair_authorizations (
        email text primary key collate nocase,
        registration_numbers text not null default '[]', -- JSON array
        customer_numbers text not null default '[]', -- JSON array
        ${AUDIT}
      );`,
  },
  {
    id: "020_specifications",
    sql: `
      create table specifications (
        id text primary key,
        name text not null,
        type text not null, -- abstract, flowchart, summary, claims, boilerplate
        is_public integer not null default 0,
        description text not null default '',
        tags text not null default '[]', -- JSON array of strings
        template text not null,
        ${AUDIT}
      );
      create index specifications_name on specifications (name collate nocase);
      create index specifications_created_at on specifications (created_at, id);`,
  },
  {
    id: "030_auth_sessions",
    sql: `
      create table sessions (
        id text primary key, -- the tokens' sid claim
        user_id text not null references users (id) on delete cascade,
        created_at text not null,
        last_seen_at text not null, -- last sign-in or refresh
        expires_at integer not null, -- ms since the epoch: the expiry of the session's newest token
        revoked_at text
      );
      create index sessions_user on sessions (user_id);
      create index sessions_expires_at on sessions (expires_at);`,
  },
  {
    id: "040_list_indexes",
    // Issue 10: every list's sort=name (the collection store's `lower(name), id`) and sort=newest/oldest read an index
    // instead of sorting the table. Search (`instr(lower(x), q)`) is a substring match: no index serves it.
    sql: `
      create index organizations_lower_name on organizations (lower(name), id);
      create index organizations_created_at on organizations (created_at, id);
      create index specifications_lower_name on specifications (lower(name), id);
      create index teams_lower_name on teams (lower(name), id);
      create index users_lower_name on users (lower(first_name || ' ' || last_name), lower(email), id);`,
  },
  {
    id: "050_files",
    // Uploads kept between steps (issue 9): the bytes under DATA_DIR/files/uploads/{id}, deleted with their row.
    sql: `
      create table files (
        id text primary key,
        owner_id text not null, -- the uploading user's id (no foreign key: the row expires with its bytes)
        name text not null,
        content_type text not null,
        size integer not null,
        sha256 text not null,
        created_at text not null,
        expires_at integer not null -- ms since the epoch
      );
      create index files_expires_at on files (expires_at);`,
  },
  {
    id: "060_portfolio",
    // Issue 11: portfolio applications, their tags, the tag and portfolio counts, the full-text index. See
    // upstream/src/applications/schema.ts (the SQL lives there, with the portfolio code).
    sql: PORTFOLIO_SCHEMA,
  },
  {
    id: "065_categorization",
    // Issue 12: saved categorization queries (the resource kit's table: name, data {tags, text}) and their jobs
    // (apply, remove, apply-all, prune) with progress, so it survives a reload and a restart.
    sql: `
      create table categorization_queries (
        id text primary key,
        name text not null,
        data text not null default '{}', -- JSON object: tags, text
        ${AUDIT}
      );
      create index categorization_queries_lower_name on categorization_queries (lower(name), id);
      create index categorization_queries_created_at on categorization_queries (created_at, id);
      create table categorization_jobs (
        id text primary key,
        kind text not null, -- apply | remove | applyAll | prune
        query_id text, -- no foreign key: a job outlives its query
        query_name text,
        tags text not null default '[]',
        status text not null, -- queued | running | completed | failed
        done integer not null default 0,
        total integer,
        changed integer not null default 0,
        skipped text not null default '[]',
        error text,
        created_at text not null,
        created_by text,
        started_at text,
        finished_at text
      );
      create index categorization_jobs_query on categorization_jobs (query_id);
      create index categorization_jobs_status on categorization_jobs (status);`,
  },
];

/** Applies the migrations the database has not seen yet, each in its own transaction. */
export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): void {
  const ids = new Set<string>();
  for (const m of migrations) {
    if (ids.has(m.id)) throw new Error(`Duplicate migration id ${m.id}`);
    ids.add(m.id);
  }
  const applied = db.pragma("user_version", { simple: true }) as number;
  if (applied > migrations.length) {
    throw new Error(
      `The database has ${applied} migrations applied but this code knows only ${migrations.length}; refusing to start.`,
    );
  }
  migrations.slice(applied).forEach((m, i) => {
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${applied + i + 1}`);
    })();
  });
}

export function databaseFile(dataDir: string): string {
  return path.join(dataDir, "backoffice.sqlite");
}

/** Opens (creating if needed) `${dataDir}/backoffice.sqlite` in WAL mode with foreign keys on, migrated. */
export function openDatabase(dataDir: string, migrations: readonly Migration[] = MIGRATIONS): Db {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new Database(databaseFile(dataDir));
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("foreign_keys = ON");
    db.pragma("busy_timeout = 5000");
    db.pragma("synchronous = NORMAL");
    migrate(db, migrations);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
