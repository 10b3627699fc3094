/**
 * The people domain's constants and messages (spec 1 §5, §8), defined once and free of zod so that the people list,
 * whose page module reads these texts, does not ship zod to the browser. Re-exported by `people.ts`.
 */
import { FIELD_MESSAGES } from "./limits";
import type { Permission } from "./permissions";

/** Password rule shared by the upstream and every form that sets one (spec 1 §5, §9). */
export const MIN_PASSWORD_LENGTH = 6;

/** GET /api/auth/suggest/users?q= and GET /api/user-suggest/assignees?q= answer at most this many people. */
export const SUGGEST_LIMIT = 10;

/**
 * Who may ask for assignee suggestions (GET /api/user-suggest/assignees, spec 3 §7): whoever assigns docket work. A
 * template's author (`workflows`: the wizard's assignees) and the docket's staff (docketing_tasks.read: a task form's
 * people fields, the docket's assignee filter). Not users.read: naming a colleague needs no access to the people pages
 * (docs/decisions/workflows-screens.md).
 */
export const ASSIGNEE_SUGGEST_PERMISSIONS = ["workflows", "docketing_tasks.read"] as const satisfies readonly Permission[];

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
