import { RuleCreate, RuleFields } from "@contract/rules";

/**
 * The create/edit form: the contract's create schema; an unticked checkbox posts nothing, so the weekend roll is
 * false when absent here (the API's default, for callers that leave it out, is true).
 */
export const RuleSchema = RuleCreate.extend({ rollWeekends: RuleFields.rollWeekends.optional().default(false) });
