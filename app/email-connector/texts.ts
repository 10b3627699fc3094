import { EMAIL_CONNECTOR_MESSAGES } from "@contract/email-connector";
import { SAVE_TOASTS } from "~/lib/form-texts";

/** E-mail connector texts (spec 2 §2 names the screen; §8's 'Update completed' / 'Update failed'). */
export const EMAIL_CONNECTOR = {
  title: "E-mail connector",
  intro: "Maintenance settings of the Microsoft Graph e-mail connector.",
  labels: {
    fastLaneCheckUpdates: "Fast lane: check for updates",
    fastLaneEmails: "Fast-lane e-mail addresses",
  },
  hints: {
    fastLaneCheckUpdates: "When on, e-mails from the fast-lane addresses are checked for updates at once instead of on the connector's schedule.",
    fastLaneEmails: 'Well-formed e-mail addresses separated by ";". Duplicates are removed when saving.',
  },
  lastSaved: (at: string, by: string | null) => `Last saved ${at}${by ? ` by ${by}` : ""}.`,
  neverSaved: "Not saved yet: the fast lane is off.",
  save: "Save",
  readOnlyNote: "You can look at these settings; changing them needs the administration permission.",
  validation: EMAIL_CONNECTOR_MESSAGES,
  toasts: { updated: SAVE_TOASTS.updated, updateFailed: SAVE_TOASTS.updateFailed },
  inline: { saveFailed: "The settings were not saved. Check your input and try again." },
} as const;
