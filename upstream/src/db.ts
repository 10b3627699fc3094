import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { AI_ADMIN_SCHEMA } from "./ai-admin/schema";
import { PORTFOLIO_IMPORTS_SCHEMA } from "./applications/imports-schema";
import { PORTFOLIO_SCHEMA } from "./applications/schema";
import { CHAINS_SCHEMA } from "./chains/schema";
import { CHAIN_RUNS_CHAT_SCOPE, CHAIN_RUNS_ENDED_INDEX, CHAIN_RUNS_SCHEMA } from "./chain-runs/schema";
import { CHAIN_CONTEXTS_SCHEMA } from "./chain-context/schema";
import { LIBRARY_SCHEMA, LIBRARY_STATS_BY_READER } from "./library/schema";
import { TEMPLATE_VERSIONS_MIGRATION } from "./versions/schema";
import { DOCKET_PEOPLE_SCHEMA, WORKFLOWS_SCHEMA } from "./workflows/schema";

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
    // Every list's sort=name (the collection store's `lower(name), id`) and sort=newest/oldest read an index
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
    // Uploads kept between steps: the bytes under DATA_DIR/files/uploads/{id}, deleted with their row.
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
    // Portfolio applications, their tags, the tag and portfolio counts, the full-text index. See
    // upstream/src/applications/schema.ts (the SQL lives there, with the portfolio code).
    sql: PORTFOLIO_SCHEMA,
  },
  {
    id: "065_categorization",
    // Saved categorization queries (the resource kit's table: name, data {tags, text}) and their jobs
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
        status text not null, -- queued | running | completed | failed | cancelled
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
  {
    id: "070_templates",
    // Word, Visio and drawing templates, shapes (masters of Visio templates) and forms. Files are kept in the
    // upstream's file store under records/{resource}/{uuid}; their metadata (key, name, size, sha256, document
    // properties) is in `data` with the other fields.
    sql: `
      create table word_templates (id text primary key, name text not null, data text not null default '{}', ${AUDIT});
      create index word_templates_lower_name on word_templates (lower(name), id);
      create index word_templates_created_at on word_templates (created_at, id);
      create table visio_templates (id text primary key, name text not null, data text not null default '{}', ${AUDIT});
      create index visio_templates_lower_name on visio_templates (lower(name), id);
      create index visio_templates_created_at on visio_templates (created_at, id);
      create table drawings (id text primary key, name text not null, data text not null default '{}', ${AUDIT});
      create index drawings_lower_name on drawings (lower(name), id);
      create index drawings_created_at on drawings (created_at, id);
      create table shapes (
        id text primary key,
        name text not null,
        template_id text not null, -- the Visio template whose master it is (deleted with it)
        data text not null default '{}',
        ${AUDIT}
      );
      create index shapes_lower_name on shapes (lower(name), id);
      create index shapes_created_at on shapes (created_at, id);
      create index shapes_template on shapes (template_id);
      create table forms (id text primary key, name text not null, data text not null default '{}', ${AUDIT});
      create index forms_lower_name on forms (lower(name), id);
      create index forms_created_at on forms (created_at, id);`,
  },
  {
    id: "080_messages",
    // Message (e-mail) templates: subject, body and recipients in data.
    sql: `
      create table messages (
        id text primary key,
        name text not null,
        description text not null default '',
        tags text not null default '[]',
        data text not null default '{}',
        ${AUDIT}
      );
      create index messages_lower_name on messages (lower(name), id);
      create index messages_created_at on messages (created_at, id);`,
  },
  {
    id: "080_rules",
    // Docketing rules: description, deadlines and the weekend roll in data.
    sql: `
      create table rules (
        id text primary key,
        name text not null,
        jurisdiction text not null default '',
        trigger_event text not null default '',
        data text not null default '{}',
        ${AUDIT}
      );
      create index rules_lower_name on rules (lower(name), id);
      create index rules_created_at on rules (created_at, id);`,
  },
  {
    id: "080_app_settings",
    // Settings of the product as a whole: the e-mail connector's, the applications page's installer.
    sql: `
      create table app_settings (
        key text primary key,
        value text not null,
        updated_at text not null,
        updated_by text
      );`,
  },
  {
    id: "080_reports",
    // Reports: the practice's built-in report definitions, seeded here (docs/decisions/reports.md).
    sql: `
      create table reports (
        id text primary key,
        identifier text not null unique,
        name text not null,
        description text not null,
        type text not null,
        organizations text not null default '[]',
        ${AUDIT}
      );
      create index reports_lower_name on reports (lower(name), id);
      create index reports_created_at on reports (created_at, id);
      insert into reports (id, identifier, name, description, type, organizations, created_at, created_by, updated_at, updated_by) values
        ('report-docketing', 'docketing', 'Docketing', 'Open docketing tasks (status to do) with their due dates, per responsible attorney: the feed of /api/streams/reports/docketing.', 'stream', '[]', '2026-01-01T00:00:00.000Z', null, '2026-01-01T00:00:00.000Z', null),
        ('report-upcoming-deadlines', 'upcoming-deadlines', 'Upcoming deadlines', 'Deadlines falling due in the next 90 days across the portfolio, with their final (extended) dates.', 'table', '[]', '2026-01-01T00:00:00.000Z', null, '2026-01-01T00:00:00.000Z', null),
        ('report-pending-office-actions', 'pending-office-actions', 'Pending office actions', 'Office actions awaiting a response, with the response due date and the responsible attorney.', 'table', '[]', '2026-01-01T00:00:00.000Z', null, '2026-01-01T00:00:00.000Z', null),
        ('report-annuities-due', 'annuities-due', 'Annuities and renewals due', 'Maintenance fees, annuities and renewals due in the next 6 months, per jurisdiction.', 'table', '[]', '2026-01-01T00:00:00.000Z', null, '2026-01-01T00:00:00.000Z', null),
        ('report-portfolio-summary', 'portfolio-summary', 'Portfolio summary', 'Applications and patents per jurisdiction and status, filed and granted this year.', 'summary', '[]', '2026-01-01T00:00:00.000Z', null, '2026-01-01T00:00:00.000Z', null),
        ('report-uspto-status-changes', 'uspto-status-changes', 'USPTO status changes', 'Applications whose status at the USPTO changed in the last 30 days.', 'table', '[]', '2026-01-01T00:00:00.000Z', null, '2026-01-01T00:00:00.000Z', null);`,
  },
  // ---- The job queue (processing, USPTO downloads), its settings, the FIP sync records.
  {
    id: "090_job_queue",
    // One table for every queue (upstream/src/queue/sqlite-queue.ts, docs/decisions/job-queue.md). Times are ms since
    // the epoch. `status_rank` orders the Status sort (inprogress, failed, queued, requeued, warning, dead, delete,
    // completed) through an index instead of a sort of the table.
    sql: `
      create table jobs (
        queue text not null,
        id text not null,
        status text not null,
        status_rank integer generated always as (case status
          when 'inprogress' then 0 when 'failed' then 1 when 'queued' then 2 when 'requeued' then 3
          when 'warning' then 4 when 'dead' then 5 when 'delete' then 6 else 7 end) virtual,
        priority integer not null default 0,
        attempts integer not null default 0,
        max_attempts integer not null default 3,
        run_at integer not null,
        lease_until integer,
        lease_owner text,
        payload text not null default '{}',
        message text,
        stack text,
        customer_number text,
        changed_at text,
        is_unmatched integer not null default 0,
        created_at integer not null,
        updated_at integer not null,
        primary key (queue, id)
      ) without rowid;
      create index jobs_claim on jobs (queue, priority desc, run_at) where status in ('queued', 'requeued', 'failed');
      create index jobs_lease on jobs (queue, lease_until) where status = 'inprogress';
      create index jobs_status on jobs (queue, status, created_at);
      create index jobs_rank on jobs (queue, status_rank, created_at);
      create index jobs_created on jobs (queue, created_at);
      create index jobs_priority on jobs (queue, priority desc, created_at);
      create index jobs_customer on jobs (queue, customer_number, status);
      create index jobs_unmatched on jobs (queue, created_at) where is_unmatched = 1;
      create table job_queues (
        name text primary key,
        paused integer not null default 0,
        updated_at integer not null
      );
      create table queue_settings (
        key text primary key,
        value text not null, -- JSON
        updated_at integer not null
      );
      create table fip_matters (
        id text primary key,
        fip_id text not null unique,
        matter_number text not null default '',
        fip_audit_date text,
        synchronized integer not null,
        error text,
        created_at integer not null,
        updated_at integer not null
      );
      create index fip_matters_sync on fip_matters (synchronized, updated_at);
      create index fip_matters_updated on fip_matters (updated_at);`,
  },
  {
    id: "095_portfolio_imports",
    // CSV imports as jobs in the database, all or nothing across a stop (docs/decisions/portfolio-import.md).
    sql: PORTFOLIO_IMPORTS_SCHEMA,
  },
  {
    id: "100_workflows",
    // Workflows, milestone templates, events, milestones and tasks (docs/decisions/workflows.md).
    sql: WORKFLOWS_SCHEMA,
  },
  {
    id: "101_docket_people",
    // A person's docket in due-date order from one index (docs/decisions/workflows.md).
    sql: DOCKET_PEOPLE_SCHEMA,
  },
  {
    id: "102_ai_admin",
    // Model configurations, speech-to-text services and the model permissions (docs/decisions/ai-administration.md).
    sql: AI_ADMIN_SCHEMA,
  },
  {
    id: "103_versions",
    // Versioned documents' drafts and revisions; milestone templates adopt them (docs/decisions/versions-kit.md).
    sql: TEMPLATE_VERSIONS_MIGRATION,
  },
  {
    id: "104_chains",
    // Prompt chains' current versions; their drafts and versions are the versions kit's (docs/decisions/chains.md).
    sql: CHAINS_SCHEMA,
  },
  {
    id: "105_library",
    // Library categories, the item index kept by triggers on its sources, and its statistics (docs/decisions/library.md).
    sql: LIBRARY_SCHEMA,
  },
  {
    id: "106_applications_changed",
    // The chains' corpus follows the portfolio by (updated_at, seq) from a watermark (docs/decisions/chain-query.md).
    sql: "create index if not exists applications_changed on applications (updated_at, seq);",
  },
  {
    id: "108_chain_contexts",
    // A chain's context per user: the invention, the context document, its claims (docs/decisions/chain-context.md).
    sql: CHAIN_CONTEXTS_SCHEMA,
  },
  {
    id: "107_chain_runs",
    // Chain and chat runs with their append-only event logs (docs/decisions/chain-runs.md).
    sql: CHAIN_RUNS_SCHEMA,
  },
  {
    id: "109_library_stats_by_reader",
    // The library's statistics kept by scope (public, or private to its creator) and type, so that each reader's are
    // counts of what they may see (docs/decisions/library.md).
    sql: LIBRARY_STATS_BY_READER,
  },
  {
    id: "110_chain_runs_ended",
    // Ended runs by when they ended, for the retention sweep (docs/decisions/chain-runs.md).
    sql: CHAIN_RUNS_ENDED_INDEX,
  },
  {
    id: "111_chain_runs_chat_scope",
    // A chain run's scope kept for its chat's follow-up messages, which name it (docs/decisions/chain-runs.md).
    sql: CHAIN_RUNS_CHAT_SCOPE,
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

/**
 * Why the server cannot keep its data in `dataDir`, as one line for the operator; null when it can. Checked before
 * SQLite opens anything, so that a read-only mount, a DATA_DIR under a file or a full disk stops the start with this
 * line instead of a SqliteError's stack: the directory must exist (it is created), be writable (`access(W_OK)`, which
 * sees a read-only mount even for root), take a new file with a byte in it (a full disk), and an existing database
 * and its WAL and shared-memory files must be writable.
 */
export function dataDirProblem(dataDir: string): string | null {
  const dir = path.resolve(dataDir);
  const probe = path.join(dir, `.write-check-${process.pid}`);
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.accessSync(dir, fs.constants.W_OK);
    const file = databaseFile(dir);
    for (const name of [file, `${file}-wal`, `${file}-shm`]) {
      if (fs.existsSync(name)) fs.accessSync(name, fs.constants.W_OK);
    }
    fs.writeFileSync(probe, "1");
    fs.rmSync(probe);
    return null;
  } catch (error) {
    try {
      fs.rmSync(probe, { force: true });
    } catch {
      // Not there, or not removable either: the problem below is the one to report.
    }
    return `DATA_DIR ${dir} is not writable: the server needs to create and write files there (${(error as Error).message}).`;
  }
}

/** The main connection's page cache, KiB. */
const PAGE_CACHE_KIB = 64 * 1024;

/** Opens (creating if needed) `${dataDir}/backoffice.sqlite` in WAL mode with foreign keys on, migrated. */
export function openDatabase(dataDir: string, migrations: readonly Migration[] = MIGRATIONS): Db {
  const problem = dataDirProblem(dataDir);
  if (problem) throw new Error(problem);
  const db = new Database(databaseFile(dataDir));
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("foreign_keys = ON");
    db.pragma("busy_timeout = 5000");
    db.pragma("synchronous = NORMAL");
    // A page cache of up to 64 MB (SQLite's default is 2 MB), filled only as pages are read: a portfolio of a million
    // applications is ~5 GB, and a search reads a row's page per match and per hit (docs/decisions/search-engine.md).
    db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    migrate(db, migrations);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
