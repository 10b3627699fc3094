import { z } from "zod";
import { TEXT_LIMITS, limitText } from "../../upstream/contract/common";
import { ORGANIZATIONS } from "./texts";

/** The organization form: name required, trimmed (spec 1 §5's rule for names), bounded like the contract's. */
export const OrganizationSchema = z.object({
  name: limitText(
    z.string({ required_error: ORGANIZATIONS.validation.nameRequired }).trim().min(1, ORGANIZATIONS.validation.nameRequired),
    ORGANIZATIONS.labels.name,
    TEXT_LIMITS.name,
  ),
});
export type OrganizationForm = z.infer<typeof OrganizationSchema>;
