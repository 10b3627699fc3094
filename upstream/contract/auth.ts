import { z } from "zod";
import { Audit, pageOf } from "./common";

/** POST /api/auth/login */
export const LoginBody = z.object({ email: z.string(), password: z.string() });
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

/** POST /api/auth/users */
export const UserCreate = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  password: z.string(),
  isBot: z.boolean().optional().default(false),
  assistants: z.array(z.string()).optional().default([]),
  scriptKey: z.string().nullable().optional(),
  organizations: z.array(z.string()).optional().default([]),
});
export type UserCreate = z.input<typeof UserCreate>;

/** PATCH /api/auth/users/{id}: id plus any of the fields. */
export const UserUpdate = z.object({
  id: z.string(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  isBot: z.boolean().optional(),
  assistants: z.array(z.string()).optional(),
  scriptKey: z.string().nullable().optional(),
  organizations: z.array(z.string()).optional(),
  password: z.string().optional(),
  permissions: z.array(z.string()).optional(),
});
export type UserUpdate = z.input<typeof UserUpdate>;

/** Password rule shared by the upstream and every form that sets one (spec 1 §5, §9). */
export const MIN_PASSWORD_LENGTH = 6;

/** GET /api/auth/suggest/users?q= — at most SUGGEST_LIMIT user emails containing q. */
export const Suggestions = z.array(z.string());
export const SUGGEST_LIMIT = 10;
