/**
 * The tables of workflows, milestone templates and the docket (docs/decisions/workflows.md). Times of the docket are
 * ISO 8601 texts (they sort chronologically); every list the docket pages through is served by an index here.
 */
const AUDIT = `created_at text not null, created_by text, updated_at text not null, updated_by text`;

export const WORKFLOWS_SCHEMA = `
  create table workflows (
    id text primary key,
    title text not null,
    client_codes text not null default '[]', -- JSON array, as given
    data text not null default '{}',
    ${AUDIT}
  );
  create index workflows_title on workflows (lower(title), id);
  create index workflows_created on workflows (created_at, id);
  -- One workflow per client code (any case): events of a client code go to its workflow.
  create table workflow_client_codes (
    code text not null collate nocase primary key,
    workflow_id text not null references workflows (id) on delete cascade
  ) without rowid;
  create index workflow_client_codes_workflow on workflow_client_codes (workflow_id);
  create table workflow_settings (key text primary key, value text) without rowid;

  create table milestone_templates (
    id text primary key,
    workflow_id text not null references workflows (id) on delete cascade,
    title text not null,
    type text not null,           -- template | draft | revision
    draft_of text,                -- the template a draft belongs to
    active integer not null default 0,
    revision integer not null default 0,
    version integer not null default 1, -- bumped on every write: the engine's cache key
    data text not null,           -- JSON: TemplateContent without the title
    ${AUDIT}
  );
  create index milestone_templates_workflow on milestone_templates (workflow_id, type, active);
  create index milestone_templates_draft on milestone_templates (draft_of) where draft_of is not null;

  create table workflow_events (
    id text primary key,          -- the idempotency key: an event is processed once
    code text not null,
    reference text not null,
    client_code text,
    source text not null,
    data text not null default '{}',
    depth integer not null default 0,
    status text not null,         -- queued | processed
    milestones text not null default '[]',
    created_at text not null,
    created_by text,
    processed_at text
  );
  -- The last client code seen for a matter: events that name none still reach its workflow.
  create table workflow_references (
    reference text primary key,
    client_code text not null collate nocase
  ) without rowid;
  create index workflow_references_code on workflow_references (client_code);

  create table milestones (
    id text primary key,
    workflow_id text not null,
    template_id text not null,
    reference text not null,
    client_code text,
    title text not null,
    status text not null,         -- open | completed | deleted
    due_at text,
    client_due_at text,
    assignees text not null default '[]',
    notes text not null default '[]',
    variables text not null default '{}',
    hidden integer not null default 0,
    event_id text,
    open_tasks integer not null default 0,
    created_at text not null,
    updated_at text not null,
    completed_at text
  );
  create index milestones_status_due on milestones (status, due_at, id);
  create index milestones_due on milestones (due_at, id);
  create index milestones_workflow_due on milestones (workflow_id, status, due_at, id);
  create index milestones_template_reference on milestones (template_id, reference, status);
  create index milestones_reference on milestones (reference, created_at);
  create index milestones_created on milestones (created_at, id);
  -- Who a milestone concerns (its assignees and its tasks' assignees): the docket's "mine" and assignee filters.
  create table milestone_people (
    person text not null collate nocase,
    milestone_id text not null,
    primary key (person, milestone_id)
  ) without rowid;
  create index milestone_people_milestone on milestone_people (milestone_id);

  create table tasks (
    id text primary key,
    milestone_id text not null,
    template_id text not null,
    step_id text not null,
    seq integer not null,
    title text not null,
    status text not null,         -- open | completed | closed
    assignees text not null default '[]',
    due_at text,
    duration_hours real not null,
    critical integer not null default 0,
    notify text not null default '',
    notes text not null default '[]',
    previous_task text,
    form_values text,
    port text,
    created_at text not null,
    completed_at text,
    completed_by text
  );
  create index tasks_milestone on tasks (milestone_id, seq);
  create index tasks_step on tasks (template_id, step_id, status);
  -- An AND step's inputs that have arrived, until all have.
  create table and_arrivals (
    milestone_id text not null,
    step_id text not null,
    from_step text not null,
    task_id text,
    primary key (milestone_id, step_id, from_step)
  ) without rowid;
  create table milestone_history (
    id integer primary key,
    milestone_id text not null,
    at text not null,
    actor text,
    kind text not null,
    text text not null,
    event_id text,
    task_id text
  );
  create index milestone_history_milestone on milestone_history (milestone_id, id);
`;

/**
 * A person's docket (mine, assignee) in due-date order from one index: each milestone's status and due date beside
 * its people, kept in step by the engine (a milestone's due date never changes; its status does once).
 */
export const DOCKET_PEOPLE_SCHEMA = `
  alter table milestone_people add column status text not null default 'open';
  alter table milestone_people add column due_at text;
  update milestone_people set (status, due_at) = (select m.status, m.due_at from milestones m where m.id = milestone_people.milestone_id);
  create index milestone_people_due on milestone_people (person, status, due_at, milestone_id);
  create index milestone_people_person_due on milestone_people (person, due_at, milestone_id);
`;
