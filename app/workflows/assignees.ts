/**
 * The resource route of assignee suggestions (routes/workflows.assignees.tsx, assignees.server.ts): what every field
 * naming docket assignees asks as the user types — the wizard's assignees, a task form's people fields, the docket's
 * assignee filter.
 */
export const ASSIGNEE_SUGGEST_URL = "/workflows/assignees";
