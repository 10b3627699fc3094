/**
 * The people domain's constants and messages (spec 1 §5, §8), defined once and free of zod so that the people list,
 * whose page module reads these texts, does not ship zod to the browser. Re-exported by `people.ts`.
 */
import { FIELD_MESSAGES } from "./limits";

/** Password rule shared by the upstream and every form that sets one (spec 1 §5, §9). */
export const MIN_PASSWORD_LENGTH = 6;

/** GET /api/auth/suggest/users?q= answers at most this many emails. */
export const SUGGEST_LIMIT = 10;

/** The users resource's messages: the upstream's answers (400 after the field's name, 403, 404, 409) and the forms'. */
export const USER_MESSAGES = {
  firstNameRequired: "First name is required",
  lastNameRequired: "Last name is required",
  emailRequired: FIELD_MESSAGES.emailRequired,
  emailInvalid: "Email has invalid format",
  passwordRequired: "Password is required",
  passwordTooShort: `Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`,
  userNotFound: "User not found.",
  duplicateEmail: "A user with this email already exists.",
  selfDelete: "You cannot delete your own account.",
} as const;
