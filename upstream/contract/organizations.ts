import { z } from "zod";

/** GET /api/organizations/user — id and name of every organization, for pickers. */
export const OrganizationOption = z.object({ id: z.string(), name: z.string() });
export type OrganizationOption = z.infer<typeof OrganizationOption>;
export const OrganizationOptions = z.array(OrganizationOption);
