/** Migration 108: one row per user and chain, the chain's context as that user left it (JSON), gone with the chain. */
export const CHAIN_CONTEXTS_SCHEMA = `
  create table chain_contexts (
    chain_id text not null references chains (id) on delete cascade,
    user_id text not null,
    context text not null,
    updated_at text not null,
    primary key (chain_id, user_id)
  ) without rowid;
`;
