import { z } from "zod";
import { ReportFields } from "@contract/reports";

/**
 * The edit form (spec 2 §5: name, description and identifier required). The identifier is read-only and posted
 * only to be checked; the update sends name, description and organizations (spec 2 §7).
 */
export const ReportSchema = z.object({
  identifier: ReportFields.identifier,
  name: ReportFields.name,
  description: ReportFields.description,
  organizations: ReportFields.organizations.optional().default([]),
});
