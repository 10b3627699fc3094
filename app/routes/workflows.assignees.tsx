/** GET /workflows/assignees?q= — assignee suggestions for the workflows' and the docket's people fields. */
export { assigneeSuggestLoader as loader } from "~/workflows/assignees.server";
