/**
 * The user settings' messages (spec 1 §5, §8), defined once and free of zod so that the people screens, whose texts
 * read them, do not ship zod to the browser. Re-exported by `settings.ts`.
 */
import { USER_MESSAGES } from "./people-constants";

/** The upstream's answers (400 after the field's name, 404) and the settings form's. */
export const SETTINGS_MESSAGES = {
  keyRequired: "Key is required",
  keyInvalid: "Keys hold only letters, digits, hyphens, dots, underscores and tildes.",
  valueRequired: "Value is required",
  keyMismatch: "Must match the key in the path.",
  ownerUnknown: USER_MESSAGES.userNotFound,
  ownerRequired: "owner is required",
  notFound: "Setting not found.",
} as const;
