/**
 * The AI administration's tables: model configurations, speech-to-text services, and the model permissions (which
 * organization may use which model, spec 3 §3) as a link table, so both directions read one index and deleting a
 * model or an organization removes its links.
 */
export const AI_ADMIN_SCHEMA = `
  create table ai_models (
    id text primary key,
    name text not null,
    data text not null default '{}', -- provider, capability, version, description, config (apiKey in full), params
    created_at text not null,
    created_by text,
    updated_at text not null,
    updated_by text
  );
  create index ai_models_name on ai_models (lower(name), id);
  create index ai_models_created on ai_models (created_at, id);
  create table stt_services (
    id text primary key,
    name text not null,
    data text not null default '{}', -- sttProvider, description, config (apiKey in full)
    created_at text not null,
    created_by text,
    updated_at text not null,
    updated_by text
  );
  create index stt_services_name on stt_services (lower(name), id);
  create index stt_services_created on stt_services (created_at, id);
  create table model_permissions (
    model_id text not null references ai_models (id) on delete cascade,
    organization_id text not null references organizations (id) on delete cascade,
    primary key (model_id, organization_id)
  );
  create index model_permissions_organization on model_permissions (organization_id, model_id);`;
