import { z } from "zod";
import { LIMIT_MESSAGES, TEXT_LIMITS } from "./common";

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

/** The sign-in answers' messages (401, 429); the back office shows its own texts for them (spec 1 §8). */
export const SIGN_IN_MESSAGES = {
  invalidLogin: "Invalid email or password.",
  tooManyAttempts: "Too many failed sign-in attempts.",
  invalidToken: "Invalid or expired token.",
} as const;
