import { z } from "zod";
import { Audit, FIELD_MESSAGES, LIST_LIMITS, TEXT_LIMITS, boundedList, boundedText, limitText } from "./common";
import { defineResource } from "./resource";

/**
 * Reports (spec 2 §2, §3, §5, §7): the report definitions of the practice, built in (seeded by the migration
 * `080_reports`, docs/decisions/reports.md). The API reads them and changes name, description and organizations;
 * the identifier (what the reporting feed is called by, `/api/streams/reports/{identifier}`) and the type are fixed.
 */

/** Report kinds, as the list and the edit screen name them. */
const REPORT_TYPES = ["stream", "table", "summary"] as const;
export const ReportType = z.enum(REPORT_TYPES);
export type ReportType = z.infer<typeof ReportType>;

export const REPORT_MESSAGES = {
  nameRequired: FIELD_MESSAGES.nameRequired,
  descriptionRequired: "Description is required",
  identifierRequired: "Identifier is required",
} as const;

const M = REPORT_MESSAGES;
export const ReportFields = {
  identifier: limitText(z.string({ required_error: M.identifierRequired }).trim().min(1, M.identifierRequired), "Identifier", TEXT_LIMITS.name),
  name: limitText(z.string({ required_error: M.nameRequired }).trim().min(1, M.nameRequired), "Name", TEXT_LIMITS.name),
  description: limitText(
    z.string({ required_error: M.descriptionRequired }).trim().min(1, M.descriptionRequired),
    "Description",
    TEXT_LIMITS.description,
    { multiline: true },
  ),
  organizations: boundedList(boundedText("Organization id", TEXT_LIMITS.id), "organizations", LIST_LIMITS.organizations),
};

/** A report (spec 2 §3; modifiedAt is the audit's updatedAt). */
export const Report = z
  .object({
    id: z.string(),
    identifier: z.string(),
    name: z.string(),
    description: z.string(),
    organizations: z.array(z.string()),
    type: ReportType,
  })
  .merge(Audit);
export type Report = z.infer<typeof Report>;

/** A whole report definition (the built-in ones; the API serves no create). */
const ReportCreate = z.object({
  identifier: ReportFields.identifier,
  name: ReportFields.name,
  description: ReportFields.description,
  organizations: ReportFields.organizations.optional().default([]),
  type: ReportType.default("table"),
});

/** PATCH /api/reports/{id} (spec 2 §7: name, description, organizations). */
const ReportUpdate = z
  .object({ name: ReportFields.name, description: ReportFields.description, organizations: ReportFields.organizations })
  .partial();
type ReportUpdate = z.input<typeof ReportUpdate>;

/**
 * /api/reports: forms.read lists and reads, `forms` changes (spec 2 shows no check; docs/decisions/reports.md). No
 * create and no delete: the reports are built in.
 */
export const ReportsResource = defineResource({
  name: "reports",
  path: "/api/reports",
  item: Report,
  create: ReportCreate,
  update: ReportUpdate,
  permissions: { read: "forms.read", create: "forms", write: "forms" },
  notFound: "Report not found.",
  omit: ["create", "delete"],
});
export const ReportPage = ReportsResource.page;
