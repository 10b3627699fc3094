/**
 * The people domain's shapes: users as the upstream answers and takes them (/api/auth/users, /api/auth/suggest) and
 * the assignee suggestions (/api/user-suggest). The URLs keep their prefixes (spec 1 §7, spec 3 §7); sign-in itself is
 * auth.ts.
 */
import { z } from "zod";
import { Audit, LIST_LIMITS, TEXT_LIMITS, boundedList, boundedText, pageOf } from "./common";

export * from "./people-constants";

/** A user as the upstream answers it. The password is write-only and never answered. */
export const User = z
  .object({
    id: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    isBot: z.boolean(),
    scriptKey: z.string().nullable(),
    organizations: z.array(z.string()),
    permissions: z.array(z.string()),
  })
  .merge(Audit);
export type User = z.infer<typeof User>;

/** GET /api/auth/users?q=&sort=&page=&pageSize= */
export const UserPage = pageOf(User);
export type UserPage = z.infer<typeof UserPage>;

/** The bounded fields of a user (lengths and characters; see upstream/README.md, Limits). */
const UserFields = {
  firstName: boundedText("First name", TEXT_LIMITS.name),
  lastName: boundedText("Last name", TEXT_LIMITS.name),
  email: boundedText("Email", TEXT_LIMITS.email),
  // Any printable character, spaces and tab included; no other control character (nobody can type one).
  password: boundedText("Password", TEXT_LIMITS.password),
  assistants: boundedList(boundedText("Assistant", TEXT_LIMITS.email), "assistants", LIST_LIMITS.members),
  scriptKey: boundedText("Script key", TEXT_LIMITS.scriptKey).nullable(),
  organizations: boundedList(boundedText("Organization id", TEXT_LIMITS.id), "organizations", LIST_LIMITS.organizations),
  permissions: boundedList(boundedText("Permission", TEXT_LIMITS.name), "permissions", LIST_LIMITS.permissions),
};

/** POST /api/auth/users */
export const UserCreate = z.object({
  firstName: UserFields.firstName,
  lastName: UserFields.lastName,
  email: UserFields.email,
  password: UserFields.password,
  isBot: z.boolean().optional().default(false),
  assistants: UserFields.assistants.optional().default([]),
  scriptKey: UserFields.scriptKey.optional(),
  organizations: UserFields.organizations.optional().default([]),
});
export type UserCreate = z.input<typeof UserCreate>;

/** PATCH /api/auth/users/{id}: id plus any of the fields. */
export const UserUpdate = z.object({
  id: z.string().max(TEXT_LIMITS.id),
  firstName: UserFields.firstName.optional(),
  lastName: UserFields.lastName.optional(),
  isBot: z.boolean().optional(),
  assistants: UserFields.assistants.optional(),
  scriptKey: UserFields.scriptKey.optional(),
  organizations: UserFields.organizations.optional(),
  password: UserFields.password.optional(),
  permissions: UserFields.permissions.optional(),
});
export type UserUpdate = z.input<typeof UserUpdate>;

/** GET /api/auth/suggest/users?q= — at most SUGGEST_LIMIT user emails containing q. */
export const Suggestions = z.array(z.string());

/**
 * GET /api/user-suggest/assignees?q= (spec 3 §7: "a list of name and email") — at most SUGGEST_LIMIT people whose
 * e-mail or name contains q, those starting with it first; [] for no q. `name` is first and last name ("" for none).
 */
export const AssigneeSuggestions = z.array(z.object({ name: z.string(), email: z.string() }));
export type AssigneeSuggestion = z.infer<typeof AssigneeSuggestions>[number];
