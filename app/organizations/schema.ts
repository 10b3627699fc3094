import { z } from "zod";
import { ORGANIZATIONS } from "./texts";

/** The organization form: name required, trimmed (spec 1 §5's rule for names). */
export const OrganizationSchema = z.object({
  name: z
    .string({ required_error: ORGANIZATIONS.validation.nameRequired })
    .trim()
    .min(1, ORGANIZATIONS.validation.nameRequired)
    .max(200),
});
export type OrganizationForm = z.infer<typeof OrganizationSchema>;
