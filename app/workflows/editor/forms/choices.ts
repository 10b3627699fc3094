/** The choices the table editor's selects offer, from the contract. */
import { FIELD_TYPES } from "@contract/workflow-contracts";
export { DUE_MEASURES } from "@contract/workflow-constants";

/** Form property types (spec 3 §5), named as the spec names them. */
export const PROPERTY_TYPE_OPTIONS = FIELD_TYPES.map((t) => ({ value: t, label: t }));
export const VARIABLE_TYPES = ["date", "datetime", "string", "number", "people"] as const;
