import { z } from "zod";
import { Audit, LIMIT_MESSAGES, LIST_LIMITS, TEXT_LIMITS, boundedList, boundedText, pageOf } from "./common";

/** POST /api/auth/login */
export const LoginBody = z.object({
  email: z.string().max(TEXT_LIMITS.email, LIMIT_MESSAGES.tooLong("Email", TEXT_LIMITS.email)),
  password: z.string().max(TEXT_LIMITS.password, LIMIT_MESSAGES.tooLong("Password", TEXT_LIMITS.password)),
});
export type LoginBody = z.infer<typeof LoginBody>;

/** Answer of POST /api/auth/login and POST /api/auth/refresh. */
export const TokenAnswer = z.object({ token: z.string() });
export type TokenAnswer = z.infer<typeof TokenAnswer>;

/** POST /api/auth/refresh */
export const RefreshBody = z.object({ token: z.string() });

/**
 * The signed JWT's payload (spec 1 §3). `exp`/`iat` are seconds since the epoch. The back office decodes it for the
 * identity; only the upstream verifies the signature.
 */
export const TokenPayload = z.object({
  iss: z.string(),
  sub: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  permissions: z.array(z.string()),
  /** The upstream session the token belongs to: refresh keeps it; log out and password changes revoke it. */
  sid: z.string(),
  iat: z.number(),
  exp: z.number(),
});
export type TokenPayload = z.infer<typeof TokenPayload>;

/** GET /api/auth/ — the external sign-in providers, in order (first: corporate provider, second: SAML). */
export const Provider = z.object({ name: z.string(), type: z.enum(["oidc", "saml"]), label: z.string() });
export type Provider = z.infer<typeof Provider>;
export const ProviderList = z.array(Provider);

/** GET /api/auth/permissions/list — the catalogue of permission keys. */
export const PermissionCatalogue = z.array(z.string());

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

/** Password rule shared by the upstream and every form that sets one (spec 1 §5, §9). */
export const MIN_PASSWORD_LENGTH = 6;

/** GET /api/auth/suggest/users?q= — at most SUGGEST_LIMIT user emails containing q. */
export const Suggestions = z.array(z.string());
export const SUGGEST_LIMIT = 10;
