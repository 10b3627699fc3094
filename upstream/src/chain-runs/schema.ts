/**
 * The runs of chains and chats (migration 107_chain_runs, docs/decisions/chain-runs.md): one row per run with its
 * status and usage, and its append-only event log. `(run_id, seq)` is the log's key: a reconnecting reader asks for
 * `seq > N` of one run, an index range. The per-user index serves the "runs going at once" bound after a restart.
 */
export const CHAIN_RUNS_SCHEMA = `
  create table chain_runs (
    id text primary key,
    kind text not null,                     -- chain or chat
    chain_id text,
    started_by text not null,               -- the user's id (writes to a run are theirs only)
    status text not null,                   -- running, waiting, finished, failed, cancelled
    started_at text not null,
    ended_at text,
    prompt_tokens integer not null default 0,
    completion_tokens integer not null default 0,
    waiting_at integer,
    error text
  );
  create index chain_runs_by_user on chain_runs (started_by, status);
  create index chain_runs_going on chain_runs (status) where status in ('running', 'waiting');
  create table chain_run_events (
    run_id text not null references chain_runs (id) on delete cascade,
    seq integer not null,
    type text not null,
    at text not null,
    data text not null,                     -- JSON of the event's data
    primary key (run_id, seq)
  ) without rowid;
`;

/** The retention sweep's order (RUN_RETENTION): ended runs by when they ended; runs going have no `ended_at`. */
export const CHAIN_RUNS_ENDED_INDEX = "create index chain_runs_ended on chain_runs (ended_at) where ended_at is not null;";

/**
 * A chain run that goes on into its chat keeps what its chat reads (the scope: the variables and outputs, the
 * context, the chat as it ran, the organizations) so that a message sent after it renders the chat the same way; a
 * chat run sent after a chain run names it (`parent_id`), and the conversation is read back in order through the index.
 */
export const CHAIN_RUNS_CHAT_SCOPE = `
  alter table chain_runs add column parent_id text;
  alter table chain_runs add column scope text;
  create index chain_runs_parent on chain_runs (parent_id, started_at) where parent_id is not null;
`;
