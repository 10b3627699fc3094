import { z } from "zod";
import { TEXT_LIMITS, limitText } from "./common";
import { LIMIT_MESSAGES } from "./limits";

/**
 * The Microsoft Graph e-mail connector's maintenance settings (spec 2 §3, §7): `fastLaneCheckUpdates` turns the fast
 * lane on (e-mails from the fast-lane addresses are checked for updates at once instead of on the connector's
 * schedule) and `fastLaneEmails` lists those addresses. Reading needs administration.read, saving administration.
 */
const EMAIL_CONNECTOR_LIMITS = { fastLaneEmails: 500 } as const;

export const EMAIL_CONNECTOR_MESSAGES = {
  badEmail: (value: string) => `“${value}” is not a well-formed e-mail address.`,
  tooMany: LIMIT_MESSAGES.tooMany("e-mail addresses", EMAIL_CONNECTOR_LIMITS.fastLaneEmails),
} as const;

const wellFormed = z.string().email();
const email = limitText(z.string().trim(), "E-mail address", TEXT_LIMITS.email).refine(
  (v) => wellFormed.safeParse(v).success,
  (v) => ({ message: EMAIL_CONNECTOR_MESSAGES.badEmail(v.trim()) }),
);

/** Lower-cased, duplicates dropped (first one kept), in the order given. */
function dedupeEmails(emails: readonly string[]): string[] {
  return [...new Set(emails.map((e) => e.trim().toLowerCase()).filter(Boolean))];
}

export const FastLaneEmails = z
  .array(email)
  .max(EMAIL_CONNECTOR_LIMITS.fastLaneEmails, EMAIL_CONNECTOR_MESSAGES.tooMany)
  .transform(dedupeEmails);

/** GET /api/ms-graph-email-connector/settings */
export const MaintenanceSettings = z.object({
  fastLaneCheckUpdates: z.boolean(),
  fastLaneEmails: z.array(z.string()),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type MaintenanceSettings = z.infer<typeof MaintenanceSettings>;

/** POST /api/ms-graph-email-connector/settings — both fields; answers the saved settings. */
export const MaintenanceSettingsUpdate = z.object({
  fastLaneCheckUpdates: z.boolean({ required_error: "fastLaneCheckUpdates is required" }),
  fastLaneEmails: FastLaneEmails,
});
export type MaintenanceSettingsUpdate = z.input<typeof MaintenanceSettingsUpdate>;

export const EMAIL_CONNECTOR_PATH = "/api/ms-graph-email-connector/settings";
